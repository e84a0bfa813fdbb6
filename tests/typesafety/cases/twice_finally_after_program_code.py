# RUN: raises UseAfterTransferError
# A transfer completed in a try whose finally completes it again: reported where the
# program's own code may raise in between (check() here); not where only numbaxfer
# calls run before it is replaced (a launch, a download: ok_twice_finally_library.py).
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class CheckError(Exception):
    pass


def check(h: Host) -> None:
    if float(h.read()[0]) != 0.0:
        raise CheckError("not zero")


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    s.upload_staged(np.ones(8, dtype=np.float32), to=dev).wait()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    pending = s.download(dev, into=bufs.pop())
    try:
        for _ in range(3):
            current = pending.wait()
            check(current)
            pending = s.download(dev, into=current)
    except CheckError:
        pass
    finally:
        bufs.append(pending.wait())  # E: transfer-completed-twice
    s.close()


if __name__ == "__main__":
    main()
