# XFAIL: false positive: after downs[0].wait(), the loop `for i, t in enumerate(downs): if i == 0: continue; t.wait()` skips the completed element, but the loop variable carries the completion of one element (line 21, may be completed twice); the skip by index is not followed
# (Found by an adversarial review; the program runs clean.)
"""First download handled eagerly, then a loop completing the rest, skipping it."""
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    outs = [nx.pinned_array(8, np.float32) for _ in range(3)]
    downs = [s.download(dev, into=o) for o in outs]
    first = downs[0].wait()
    print(first.read()[0])
    for i, t in enumerate(downs):
        if i == 0:
            continue
        print(t.wait().read()[0])
    s.close()


if __name__ == "__main__":
    main()
