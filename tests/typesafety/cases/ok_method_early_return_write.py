# RUN: ok
# A frame buffer whose clear() returns early when the frame is already clean, and only
# then writes self.host in place. Inside the lend it is called while the frame is clean
# (a fresh frame), so it never writes: correct, like `if self.dirty:` around the write.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 64


class Frame:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(N, np.float32)
        self.host: Host = nx.pinned_array(N, np.float32)
        self.dirty = False

    def clear(self) -> None:
        if not self.dirty:
            return
        with self.host.write() as a:
            a[:] = 0.0
        self.dirty = False

    def paint(self, value: float) -> None:
        with self.host.write() as a:
            a[: N // 2] = value
        self.dirty = True

    def snapshot(self) -> float:
        with self.host.lend() as view:
            total = float(view.read().sum())
            self.clear()  # clean here (nothing painted since the last clear)
        return total

    def flush(self) -> None:
        self.host = self.s.upload(self.host, to=self.dev).wait()

    def close(self) -> None:
        self.host.free()
        self.dev.free()
        self.s.close()


def main() -> None:
    f = Frame()
    print(f.snapshot())
    f.paint(2.0)
    f.flush()
    f.clear()
    print(f.snapshot())
    f.close()


main()
