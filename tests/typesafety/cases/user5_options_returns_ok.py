# An options-dict driven device job, the way a CLI or a config file drives it: many
# early returns (dry run, empty input, upload only, validate only), optional kernels.
# Every return that follows the upload has taken the buffer back first.
# RUN: ok
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def scale(a: Any, k: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= k


@cuda.jit
def clip(a: Any, lo: float, hi: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = min(max(a[i], lo), hi)


def run_job(s: nx.Stream[nx.Lent], dev: Dev, data: NDArray[np.float32], opts: dict[str, Any]) -> NDArray[np.float32] | None:
    if opts.get("dry_run"):
        return None
    if data.size == 0 or data.size > dev.size:
        return None
    host = nx.pinned_copy(data)
    up = s.upload(host, to=dev)
    if opts.get("upload_only"):  # the caller keeps the data on the device
        host = up.wait()
        host.free()
        return None
    if opts.get("validate_only"):
        host = up.wait()
        return None if bool(np.isfinite(host.read()).all()) else host.read().copy()
    if (k := opts.get("scale")) is not None:
        s.launch(scale, 1, 32, dev, float(k))
    if opts.get("clip"):
        lo, hi = opts["clip"]
        s.launch(clip, 1, 32, dev, float(lo), float(hi))
    host = up.wait()
    if opts.get("no_download"):
        return None
    down = s.download(dev, into=host)
    host = down.wait()
    return host.read().copy()


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(32, np.float32)
    data = np.linspace(-2.0, 2.0, 32, dtype=np.float32)
    assert run_job(s, dev, data, {"dry_run": True}) is None
    assert run_job(s, dev, data, {"upload_only": True}) is None
    assert run_job(s, dev, data, {"validate_only": True}) is None
    out = run_job(s, dev, data, {"scale": 2.0, "clip": (-1.0, 3.0)})
    assert out is not None and np.allclose(out, np.clip(2.0 * data, -1.0, 3.0))
    assert run_job(s, dev, data, {"no_download": True}) is None
    s.close()


if __name__ == "__main__":
    main()
    print("options ok")
