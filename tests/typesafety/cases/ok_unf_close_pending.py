# Streams closed once their transfers are complete, or closing another stream than the
# one a transfer is pending on.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def waited() -> float:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    out = nx.pinned_array(8, np.float32)
    down = s.download(dev, into=out)
    out = down.wait()
    s.close()
    return float(out.read()[0])


def other_stream() -> float:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    out = nx.pinned_array(8, np.float32)
    down = s.download(dev, into=out)
    side = nx.stream()
    side.close()
    first = s
    s = nx.stream()
    s.close()  # another stream than the download's
    out = down.wait()
    first.close()
    return float(out.read()[0])


def optional(flag: bool) -> float:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    out: Host | None = nx.pinned_array(8, np.float32)
    down: nx.Transfer[Host] | None = None
    if flag and out is not None:
        down = s.download(dev, into=out)
        out = None
    if down is not None:
        out = down.wait()
    s.close()
    return float(out.read()[0]) if out is not None else 0.0


def drained(chunks: list[Host]) -> list[Host]:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    ups = [s.upload(h, to=dev) for h in chunks]
    more: list[nx.Transfer[Host]] = []
    for _ in range(2):
        more.append(s.upload(nx.pinned_array(8, np.float32), to=dev))
    back = [t.wait() for t in ups]
    for t in more:
        back.append(t.wait())
    s.close()
    return back


def per_chunk(chunks: list[Host]) -> list[Host]:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    back: list[Host] = []
    for h in chunks:
        up = s.upload(h, to=dev)
        back.append(up.wait())
    s.close()
    return back


class Sender:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.host = nx.pinned_array(8, np.float32)

    def round_trip(self) -> None:
        up = self.s.upload(self.host, to=self.dev)
        self.host = up.wait()
        self.s.close()


def main() -> None:
    total = waited() + other_stream() + optional(True) + optional(False)
    hosts = [nx.pinned_array(8, np.float32) for _ in range(2)]
    hosts = drained(hosts)
    hosts = per_chunk(hosts)
    Sender().round_trip()
    assert len(hosts) == 4 and total == total, (total, len(hosts))


if __name__ == "__main__":
    main()
