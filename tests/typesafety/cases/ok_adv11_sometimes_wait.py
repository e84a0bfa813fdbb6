# RUN: ok
# A helper that completes only when asked (blocking=True); the caller completes the rest.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


def settle(t: nx.Transfer[Host], blocking: bool) -> Host | None:
    if blocking:
        return t.wait()
    return None


def settle_all(ts: list[nx.Transfer[Host]], upto: int) -> list[Host]:
    done: list[Host] = []
    for i, t in enumerate(ts):
        if i < upto:
            done.append(t.wait())
    return done


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    up = s.upload(nx.pinned_array(N, np.float32), to=dev)
    got = settle(up, False)
    assert got is None
    host = up.wait()
    ups = [s.upload(nx.pinned_array(N, np.float32), to=dev) for _ in range(3)]
    first = settle_all(ups, 1)
    rest = [t.wait() for t in ups[1:]]
    print(len(first), len(rest), host.size)
    s.close()


if __name__ == "__main__":
    main()
