# A sensor-fusion loop: every tick a measurement vector is written into a pinned buffer
# and sent to the device through `send`, a functools.partial of the stream's upload with
# the measurement's device array bound; a kernel blends it into the state kept on the
# device (a constant-gain filter). The measurement's norm is logged before it is sent.
# RUN: ok
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
        norms.append(float(np.linalg.norm(meas.read())))
        up = send(meas)
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
