# Stream.close() while a transfer started on that stream is still pending: close()
# refuses (StreamClosedError). Reported at the close, naming the transfer.
# RUN: raises StreamClosedError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def straight() -> float:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    out = nx.pinned_array(8, np.float32)
    down = s.download(dev, into=out)
    s.close()  # E: unfinished-transfer "Stream \"s\" is closed" "\"down\"" "is still pending" "out = down.wait()"
    out = down.wait()
    return float(out.read()[0])


def some_paths(eager: bool) -> float:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    out = nx.pinned_array(8, np.float32)
    down = s.download(dev, into=out)  # E: unfinished-transfer "may be left unfinished"
    if eager:
        out = down.wait()
        s.close()
        return float(out.read()[0])
    if dev.size > 4:
        out = down.wait()
    s.close()  # E: unfinished-transfer "may still be pending"
    return 0.0


class Sender:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(8, np.float32)

    def send_and_close(self, host: Host) -> Host:
        up = self.s.upload(host, to=self.dev)
        self.s.close()  # E: unfinished-transfer "Stream \"self.s\"" "\"up\""
        return up.wait()


def in_loop(chunks: list[Host]) -> list[Host]:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    ups = []
    for h in chunks:
        up = s.upload(h, to=dev)
        ups.append(up)
    last = s.upload(nx.pinned_array(8, np.float32), to=dev)
    s.close()  # E: unfinished-transfer "\"last\""
    back = [t.wait() for t in ups]
    last.wait()
    return back


if __name__ == "__main__":
    straight()
