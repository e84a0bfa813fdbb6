# RUN: ok
# Completing one element, then the others (by index, a slice, or after taking it out):
# no report.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    downs = [s.download(dev, into=nx.pinned_array(8, np.float32)) for _ in range(3)]
    a = downs[0].wait()
    b = downs[1].wait()
    rest = [t.wait() for t in downs[2:]]
    print(a.shape, b.shape, len(rest))
    more = [s.download(dev, into=nx.pinned_array(8, np.float32)) for _ in range(3)]
    head = more.pop(0).wait()
    tail = [t.wait() for t in more]
    print(head.shape, len(tail))
    s.close()


if __name__ == "__main__":
    main()
