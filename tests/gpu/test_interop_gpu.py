"""DLPack, the CUDA Array Interface and the CUDA stream protocol with CuPy and PyTorch on
a real GPU: numbaxfer arrays read by them, their arrays and streams adopted by
numbaxfer, with ordering on the device. Outcomes print and, with
NUMBAXFER_GPU_INTEROP=path, go to JSON."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import numbaxfer as nx
from tests.gpu.support import numba_backend_and_report
from tests.kernels import add_one, slow_fill

pytestmark = pytest.mark.gpu

N = 1 << 20
F32 = np.float32
OUTCOMES: dict[str, str] = {}


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield from numba_backend_and_report("interop", "NUMBAXFER_GPU_INTEROP", OUTCOMES, {"n": N})


def _written_by_slow_kernel(s: nx.Stream[nx.Owned], value: float) -> nx.DeviceArray[nx.Owned, Any]:
    """A device array a slow kernel is still writing on ``s`` (a consumer that does not
    order itself after it reads stale data)."""
    dev = nx.device_array(N, F32)
    s.launch(slow_fill, (N + 255) // 256, 256, dev, value, 20000)
    return dev


@pytest.mark.parametrize("lib", ["torch", "cupy"])
@pytest.mark.parametrize("how", ["dlpack", "cai"])
def test_a_lent_array_read_by_a_foreign_library_sees_the_finished_write(lib: str, how: str) -> None:
    mod: Any = pytest.importorskip(lib)
    s = nx.stream()
    dev = _written_by_slow_kernel(s, 7.0)
    with dev.lend() as view:
        try:
            if lib == "torch":
                t = mod.from_dlpack(view) if how == "dlpack" else mod.as_tensor(view, device="cuda")
                total = float(t.sum().item())  # on torch's current stream, ordered by numbaxfer
            else:
                a = mod.from_dlpack(view) if how == "dlpack" else mod.asarray(view)
                total = float(a.sum().get())
        except Exception as e:  # a library that refuses a read-only view says so here
            OUTCOMES[f"{lib} reads a lent array via {how}"] = f"refused: {type(e).__name__}: {e}"[
                :160
            ]
            s.synchronize()
            s.close()
            pytest.skip(f"{lib} refused the read-only {how} view: {e}")
    OUTCOMES[f"{lib} reads a lent array via {how}"] = f"sum {total:.0f} (expected {7.0 * N:.0f})"
    assert total == 7.0 * N
    s.close()


@pytest.mark.parametrize("lib", ["torch", "cupy"])
def test_a_foreign_array_is_adopted_and_written_by_numbaxfer(lib: str) -> None:
    mod: Any = pytest.importorskip(lib)
    foreign = mod.zeros(N, dtype=mod.float32) if lib == "cupy" else mod.zeros(N, device="cuda")
    dev = nx.adopt_array(foreign)
    s = nx.stream()
    host = nx.pinned_array(N, F32)
    with host.write() as a:
        a[:] = 3.0
    host = s.upload(host, to=dev).wait()
    s.launch(add_one, (N + 255) // 256, 256, dev)
    s.synchronize()
    total = float(foreign.sum().item() if lib == "torch" else foreign.sum().get())
    OUTCOMES[f"numbaxfer writes an adopted {lib} array"] = (
        f"sum {total:.0f} (expected {4.0 * N:.0f})"
    )
    assert total == 4.0 * N
    s.close()


def test_streams_both_ways_with_torch() -> None:
    torch: Any = pytest.importorskip("torch")
    # numbaxfer's stream handed to torch through the CUDA stream protocol
    s = nx.stream()
    dev = _written_by_slow_kernel(s, 2.0)
    with dev.lend() as view:
        t = torch.from_dlpack(view)  # (torch refuses a read-only __cuda_array_interface__)
        with torch.cuda.stream(torch.cuda.ExternalStream(s.__cuda_stream__()[1])):
            doubled = t * 2  # enqueued on numbaxfer's stream: after the kernel
        torch.cuda.synchronize()
        total = float(doubled.sum().item())
    OUTCOMES["torch enqueues on a numbaxfer stream (__cuda_stream__)"] = f"sum {total:.0f}"
    assert total == 4.0 * N
    # torch's stream adopted by numbaxfer: copies enqueued on it, never closed by numbaxfer
    ts = torch.cuda.Stream()
    ls = nx.adopt_stream(ts)
    host = nx.pinned_array(N, F32)
    with host.write() as a:
        a[:] = 5.0
    dev2 = nx.device_array(N, F32)
    host = ls.upload(host, to=dev2).wait()
    back = ls.download(dev2, into=nx.pinned_array(N, F32)).wait()
    with pytest.raises(nx.BorrowError):
        ls.close()  # type: ignore[misc]
    OUTCOMES["numbaxfer enqueues on an adopted torch stream"] = f"first {back.read()[0]}"
    assert (back.read() == 5.0).all()
    s.close()
