# A sender that survives a stream being closed under it (another component shuts its
# stream down): an upload refused with StreamClosedError moved nothing, so the same
# buffer is retried on a fresh stream. Metadata of a moved buffer is read for the log.
# The bug: a post-upload check that can fail (the device ran out of room) is inside the
# try, so its error retries with a buffer the first upload already took.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 32


class Sender:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(N, np.float32)
        self.retries = 0

    def check_room(self) -> None:
        if self.retries == 0 and self.s.closed is False and self.dev.size < 64:
            raise MemoryError("device workspace too small for the next batch")

    def reopen(self) -> None:
        self.s = nx.stream()
        self.retries += 1

    def send(self, buf: Host) -> Host:
        for _ in range(3):
            try:
                up = self.s.upload(buf, to=self.dev)  # E: use-after-transfer "buf" "earlier loop iteration" # E: unfinished-transfer "up"
                self.check_room()
            except (nx.StreamClosedError, MemoryError):
                self.reopen()
                continue
            print(f"sent {buf.shape[0]} x {buf.dtype.itemsize} bytes ({buf.nbytes} total)")
            return up.wait()
        raise RuntimeError("no stream would take the upload")


def main() -> None:
    sender = Sender()
    buf = nx.pinned_copy(np.arange(N, dtype=np.float32))
    buf = sender.send(buf)
    sender.s.close()  # the stream is shut down elsewhere
    buf = sender.send(buf)
    assert sender.retries == 1 and float(buf.read()[-1]) == N - 1
    sender.s.close()


main()
