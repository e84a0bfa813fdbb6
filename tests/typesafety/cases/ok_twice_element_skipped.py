# RUN: ok
# After downs[0].wait(), a loop that skips that element (continue) completes the others: no report. (Found by an adversarial review.)
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
