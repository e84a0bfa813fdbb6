# Consumed on *args and keyword-only parameters.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
kept: list[Host] = []


def keep_all(*bufs: nx.Consumed[Host]) -> None:
    kept.extend(bufs)


def keep_one(*, buf: nx.Consumed[Host], copy: bool = False) -> None:
    kept.append(buf)


a = nx.pinned_array(8, np.float32)
b = nx.pinned_array(8, np.float32)
c = nx.pinned_array(8, np.float32)
keep_all(a, b)
keep_one(copy=True, buf=c)
a.read()  # E: use-after-transfer "keep_all()"
b.read()  # E: use-after-transfer "keep_all()"
c.read()  # E: use-after-transfer "keep_one()"
