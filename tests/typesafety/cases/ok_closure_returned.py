# Closures returned by a function, reading its variables: each reads an array it owns
# when it runs (taken back before the return, rebound by the closure with `nonlocal`,
# the array the wait() gives back, or only metadata).
# RUN: ok
from __future__ import annotations

from collections.abc import Callable

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


def finisher(s: nx.Stream[nx.Lent], dev: Dev) -> Callable[[], float]:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)

    def finish() -> float:
        back = down.wait()
        return float(back.read()[0])

    return finish


def rebinding(s: nx.Stream[nx.Lent], dev: Dev) -> Callable[[], float]:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)

    def finish() -> float:
        nonlocal out
        out = down.wait()
        return float(out.read()[0])

    return finish


def settled(s: nx.Stream[nx.Lent], dev: Dev) -> Callable[[], float]:
    out = nx.pinned_array(dev.shape, np.float32)
    out = s.download(dev, into=out).wait()
    return lambda: float(out.read()[0])


def sizes(s: nx.Stream[nx.Lent], dev: Dev) -> tuple[nx.Transfer[Host], Callable[[], int]]:
    out = nx.pinned_array(dev.shape, np.float32)
    down = s.download(dev, into=out)
    return down, lambda: out.shape[0] + out.size


def early(s: nx.Stream[nx.Lent], dev: Dev) -> Callable[[], float]:
    out = nx.pinned_array(dev.shape, np.float32)
    reader = lambda: float(out.read()[0])  # noqa: E731
    out = s.download(dev, into=out).wait()
    return reader


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    s.upload_staged(np.ones(8, dtype=np.float32), to=dev).wait()
    total = finisher(s, dev)() + rebinding(s, dev)() + settled(s, dev)() + early(s, dev)()
    down, size = sizes(s, dev)
    down.wait()
    assert total == 4.0 and size() == 16, (total, size())
    s.close()


if __name__ == "__main__":
    main()
