# RUN: raises StreamClosedError
# A method that closes its object's stream and only then completes the transfer an
# attribute held at entry (the class keeps in that attribute transfers started on that
# stream): at run time close() refuses while the transfer is pending. Reported at the
# close, with the line of the later wait().
from __future__ import annotations

from types import TracebackType

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Session:
    def __init__(self) -> None:
        self.stream = nx.stream()
        self.dev = nx.device_array(8, np.float32)
        self.out: Host | None = nx.pinned_array(8, np.float32)
        self.pending: nx.Transfer[Host] | None = None

    def snapshot(self) -> None:
        if self.pending is not None:
            self.out = self.pending.wait()
        out = self.out
        assert out is not None
        self.out = None
        self.pending = self.stream.download(self.dev, into=out)

    def __enter__(self) -> Session:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stream.close()  # E: unfinished-transfer "Stream \"self.stream\" is closed while \"self.pending\" may still hold a transfer started on it: \"self.pending.wait()\" comes only after, at line 43"
        if self.pending is not None:
            self.out = self.pending.wait()
            self.pending = None


def main() -> None:
    with Session() as sess:
        sess.snapshot()
        sess.snapshot()


if __name__ == "__main__":
    main()
