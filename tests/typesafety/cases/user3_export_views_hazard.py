# Handing device results to another library (the __cuda_array_interface__ / DLPack
# habit): a device array is lent for the export call only; an exporter that must keep
# the data past the call copies it into a device array it owns.
# The bug: the exporter keeps the lent view itself ("zero-copy"), which outlives the
# lend block it was given in.
# (No RUN header: the runtime raises BorrowError at the later download of the kept
# view in main(), not at the store.)
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]
View = nx.DeviceArray[nx.Lent, np.float32]

_EXPORTED: dict[str, View] = {}


@cuda.jit
def ramp(a: Any) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = i


def describe(view: View) -> str:
    return f"shape={view.shape} dtype={view.dtype} device={view.device}"


def export(s: nx.Stream[nx.Owned], name: str, view: View) -> None:
    """Keep ``view`` under ``name`` (zero-copy)."""
    _EXPORTED[name] = view  # E: lend-escape "\"view\""


def main(n: int = 32) -> None:
    s = nx.stream()
    dev = nx.device_array(n, np.float32)
    s.launch(ramp, 1, 32, dev)
    with dev.lend() as view:
        print(describe(view))
        export(s, "ramp", view)
    s.launch(ramp, 1, 32, dev)  # the owner may write again: the lend has ended
    out = s.download(_EXPORTED["ramp"], into=nx.pinned_array(n, np.float32)).wait()
    s.close()
    assert np.array_equal(out.read(), np.arange(n, dtype=np.float32))


if __name__ == "__main__":
    main()
