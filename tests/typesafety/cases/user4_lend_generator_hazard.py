# XFAIL: miss: lent views yielded from inside a generator's lend block (line 22), collected with list() (line 27) and read after the generator has ended every lend (line 28); a lent handle escaping through a generator's yield is not followed
# A generator that lends each buffer of a batch in turn: the lend block stays open
# while the generator is suspended at yield, so the consumer reads each view inside its
# loop body; summaries (plain floats) are what leave the loop. The bug: the consumer
# collects the views themselves and reads them after the loop, when every lend ended.
# RUN: raises BorrowError
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


def lent_views(bufs: list[Host]) -> Iterator[View]:
    for b in bufs:
        with b.lend() as v:
            yield v


def main() -> None:
    bufs = [nx.pinned_copy(np.full(4, float(i), np.float32)) for i in range(3)]
    views = list(lent_views(bufs))
    means = [float(view.read().mean()) for view in views]  # E: lend-escape "view"
    assert means == [0.0, 1.0, 2.0]
    s = nx.stream()
    dev = nx.device_array(4, np.float32)
    bufs[2] = s.upload(bufs[2], to=dev).wait()
    print("means", means)
    s.close()


main()
