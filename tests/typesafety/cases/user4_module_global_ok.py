# A module-level prefetch kept in globals (the way small scripts and notebooks are
# written): kick() starts the download of the lookup table, collect() takes it back,
# and the module's code uses the table only after collect().
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.int32]
N = 16

_stream = nx.stream()
_dev = nx.device_array(N, np.int32)
_table: Host = nx.pinned_array(N, np.int32)
_pending: nx.Transfer[Host] | None = None


def load_device_table() -> None:
    global _table
    with _table.write() as a:
        a[:] = np.arange(N, dtype=np.int32) * 3
    _table = _stream.upload(_table, to=_dev).wait()


def kick() -> None:
    global _pending
    _pending = _stream.download(_dev, into=_table)


def collect() -> None:
    global _table, _pending
    if _pending is not None:
        _table = _pending.wait()
        _pending = None


def lookup(i: int) -> int:
    return int(_table.read()[i])


load_device_table()
kick()
collect()
assert lookup(5) == 15
print("table[5] =", lookup(5))
_stream.close()
