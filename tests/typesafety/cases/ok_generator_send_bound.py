# RUN: ok
# Generators that take the handle back through send() and bind it (buf = yield buf), or
# that only yield (Iterator[Host]): no report.
from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def staged(count: int) -> Generator[Host, Host, None]:
    buf = nx.pinned_array(8, np.float32)
    for i in range(count):
        with buf.write() as v:
            v[:] = float(i)
        buf = yield buf
    buf.free()


def readable(count: int) -> Iterator[Host]:
    buf = nx.pinned_array(8, np.float32)
    for i in range(count):
        with buf.write() as v:
            v[:] = float(i)
        yield buf  # the consumer only reads it (nothing comes back)
    buf.free()


def main() -> None:
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
    for b in readable(2):
        print(b.read()[0])
    s.close()


if __name__ == "__main__":
    main()
