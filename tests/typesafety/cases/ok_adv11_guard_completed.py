# RUN: ok
# finish() completes the transfer; the caller's later wait is guarded by "not completed".
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 16


def finish(t: nx.Transfer[Host]) -> Host:
    return t.wait()


def fill(h: Host, v: float) -> Host:
    with h.write() as a:
        a[:] = v
    return h


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    host = fill(nx.pinned_array(N, np.float32), 3.0)
    up = s.upload(host, to=dev)
    host = finish(up)
    # defensive code: complete it only when nobody did yet
    if not up.completed:
        host = up.wait()
    out = nx.pinned_array(N, np.float32)
    down = s.download(dev, into=out)
    out = finish(down)
    assert float(out.read().sum()) == 3.0 * N
    print("sum", float(host.read().sum()))
    s.close()


if __name__ == "__main__":
    main()
