# RUN: raises UseAfterTransferError
# A generator declared to take the handle back through send() (Generator[Host, Host,
# None]) whose "yield buf" drops what send() gives back: the consumer had the buffer and
# may have moved it, so the generator's next use of buf is reported.
from __future__ import annotations

from collections.abc import Generator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def staged(count: int) -> Generator[Host, Host, None]:
    buf = nx.pinned_array(8, np.float32)
    for i in range(count):
        with buf.write() as v:  # E: use-after-transfer "\"buf\" may be used after the yield at line 21 handed it to the consumer, which may have moved it and sends back the buffer to use; this generator drops that one: bind it, \"buf = yield buf\""
            v[:] = float(i)
        yield buf  # E: use-after-transfer "the yield at line 21"


def consume() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    gen = staged(3)
    buf = next(gen)
    try:
        while True:
            buf = s.upload(buf, to=dev).wait()
            buf = gen.send(buf)
    except StopIteration:
        pass
    s.close()


if __name__ == "__main__":
    consume()
