# A sensor-fusion loop sending measurements through a functools.partial of the upload
# (see user5_sensor_partial_ok.py). The bug, kind "use after upload before wait, through
# a partial": the norm is logged after `send(meas)`, to overlap the logging with the copy.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import functools
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def blend(state: Any, z: Any, gain: float) -> None:
    for i in range(cuda.grid(1), state.size, cuda.gridsize(1)):
        state[i] += gain * (z[i] - state[i])


def fuse(measurements: list[NDArray[np.float32]], gain: float = 0.5) -> tuple[NDArray[np.float32], list[float]]:
    n = measurements[0].size
    s = nx.stream()
    d_state = nx.device_array(n, np.float32)
    s.upload_staged(np.zeros(n, np.float32), to=d_state)
    d_z = nx.device_array(n, np.float32)
    send = functools.partial(s.upload, to=d_z)
    meas = nx.pinned_array(n, np.float32)
    norms: list[float] = []
    for z in measurements:
        with meas.write() as a:
            a[:] = z
        up = send(meas)
        norms.append(float(np.linalg.norm(meas.read())))  # E: use-after-transfer "meas"
        s.launch(blend, 1, 32, d_state, d_z, gain)
        meas = up.wait()
    out = nx.pinned_array(n, np.float32)
    out = s.download(d_state, into=out).wait()
    state: NDArray[np.float32] = out.read().copy()
    s.close()
    return state, norms


if __name__ == "__main__":
    zs = [np.full(16, 4.0, np.float32) for _ in range(3)]
    state, norms = fuse(zs)
    assert np.allclose(state, 4.0 * (1 - 0.5**3)) and norms == [16.0] * 3, (state, norms)
    print("fusion ok")
