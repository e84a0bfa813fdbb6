"""Guard mode end to end: programs that touch host memory a transfer owns stop at the
access (SIGSEGV, faulthandler names the line); the same programs without guard mode run
and, on the lazy emulator, give the wrong answer (the known hole)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .support import assert_stopped_at_access, run_program

PRELUDE = """
import numpy as np
import numbaxfer as nx

N = 4096 * 4  # float32: 16 pages
s = nx.stream()
dev = nx.device_array(N, np.float32)
up = s.upload(nx.pinned_copy(np.full(N, 7, np.float32)), to=dev)
"""

KEPT_READ_UNDER_DOWNLOAD = (
    PRELUDE
    + """
out = nx.pinned_array(N, np.float32)
view = out.read()                  # kept past the move: the known hole
down = s.download(dev, into=out)
print("read under the download:", view[N // 2])  # ACCESS
out = down.wait()
print("after wait:", out.read()[N // 2])
up.wait()
"""
)

KEPT_WRITE_UNDER_UPLOAD = """
import numpy as np
import numbaxfer as nx

N = 4096 * 4
s = nx.stream()
dev = nx.device_array(N, np.float32)
host = nx.pinned_copy(np.full(N, 7, np.float32))
with host.write() as a:
    kept = a
kept.setflags(write=True)          # deliberately defeats the read-only-at-exit rule
up = s.upload(host, to=dev)
kept[N // 2] = -1.0  # ACCESS
host = up.wait()
out = nx.pinned_array(N, np.float32)
out = s.download(dev, into=out).wait()
print("device got:", out.read()[N // 2])
"""

READ_UNDER_UPLOAD = """
import numpy as np
import numbaxfer as nx

N = 4096 * 4
s = nx.stream()
dev = nx.device_array(N, np.float32)
host = nx.pinned_copy(np.full(N, 7, np.float32))
view = host.read()
up = s.upload(host, to=dev)
print("read under the upload:", view.sum())  # reading along with the DMA is harmless
host = up.wait()
with host.write() as a:             # and the memory is writable again after wait()
    a[:] = 3.0
out = s.download(dev, into=nx.pinned_array(N, np.float32)).wait()
print("device got:", out.read()[0], "host now:", host.read()[0], "view:", view[0])
"""


def test_kept_read_view_under_a_download_stops_at_the_access(tmp_path: Path) -> None:
    run = run_program(KEPT_READ_UNDER_DOWNLOAD, tmp_path)
    assert_stopped_at_access(run)
    assert "read under the download" not in run.stdout


def test_kept_read_view_without_guard_reads_stale_data(tmp_path: Path) -> None:
    run = run_program(KEPT_READ_UNDER_DOWNLOAD, tmp_path, guard=False)
    assert run.returncode == 0, run.describe()
    assert "read under the download: 0.0" in run.stdout  # wrong: the copy brings 7
    assert "after wait: 7.0" in run.stdout


def test_kept_writable_view_under_an_upload_stops_at_the_access(tmp_path: Path) -> None:
    run = run_program(KEPT_WRITE_UNDER_UPLOAD, tmp_path)
    assert_stopped_at_access(run)


def test_kept_writable_view_without_guard_corrupts_the_upload(tmp_path: Path) -> None:
    run = run_program(KEPT_WRITE_UNDER_UPLOAD, tmp_path, guard=False)
    assert run.returncode == 0, run.describe()
    assert "device got: -1.0" in run.stdout  # the write landed in the copy


def test_reading_an_uploads_source_is_allowed_and_views_work_after_wait(
    tmp_path: Path,
) -> None:
    run = run_program(READ_UNDER_UPLOAD, tmp_path)
    assert run.returncode == 0, run.describe()
    assert f"read under the upload: {7.0 * 4096 * 4}" in run.stdout
    assert "device got: 7.0 host now: 3.0 view: 3.0" in run.stdout


def test_views_work_again_after_wait(tmp_path: Path) -> None:
    run = run_program(
        PRELUDE
        + """
out = nx.pinned_array(N, np.float32)
with out.write() as a:
    kept = a
kept.setflags(write=True)
view = out.read()
out = s.download(dev, into=out).wait()
print("view:", view[0], view[-1])
kept[0] = 5.0                        # writable again: the transfer is over
print("after write:", out.read()[0])
host = up.wait()
""",
        tmp_path,
    )
    assert run.returncode == 0, run.describe()
    assert "view: 7.0 7.0" in run.stdout
    assert "after write: 5.0" in run.stdout


@pytest.mark.parametrize("backend", ["emulator", "simulator"])
def test_await_restores_access(tmp_path: Path, backend: str) -> None:
    run = run_program(
        PRELUDE
        + """
import asyncio
out = nx.pinned_array(N, np.float32)
view = out.read()
async def main():
    return await s.download(dev, into=out)
out = asyncio.run(main())
print("view:", view[3])
up.wait()
""",
        tmp_path,
        backend=backend,
    )
    assert run.returncode == 0, run.describe()
    assert "view: 7.0" in run.stdout


def test_the_simulator_is_guarded_too(tmp_path: Path) -> None:
    # numba's simulator copies at once, so no stale data shows there; the access is
    # still a use of memory a transfer owns, and guard mode stops it.
    run = run_program(KEPT_READ_UNDER_DOWNLOAD, tmp_path, backend="simulator")
    assert_stopped_at_access(run)


def test_a_dropped_download_stays_protected_until_its_copy_is_reaped(tmp_path: Path) -> None:
    run = run_program(
        PRELUDE
        + """
import gc, warnings
from numbaxfer import _guard, _lifetime
warnings.simplefilter("ignore", ResourceWarning)
out = nx.pinned_array(N, np.float32)
view = out.read()
s.download(dev, into=out)          # dropped: kept alive until its copy has finished
del out
gc.collect()
print("protected while kept alive:", _guard.active_count(), flush=True)
s.synchronize()
print("orphans:", _lifetime.orphan_count())   # reaps the finished copy
print("after the reap:", view[0], _guard.active_count())
up.wait()
""",
        tmp_path,
    )
    assert run.returncode == 0, run.describe()
    assert "protected while kept alive: 2" in run.stdout  # the upload's and the download's
    assert "orphans: 0" in run.stdout
    assert "after the reap: 7.0 1" in run.stdout


def test_a_dropped_download_still_guards_its_memory(tmp_path: Path) -> None:
    run = run_program(
        PRELUDE
        + """
import gc, warnings
warnings.simplefilter("ignore", ResourceWarning)
out = nx.pinned_array(N, np.float32)
view = out.read()
s.download(dev, into=out)
del out
gc.collect()
print(view[0])  # ACCESS
""",
        tmp_path,
    )
    assert_stopped_at_access(run)


def test_a_mapped_array_under_kernels_is_no_access(tmp_path: Path) -> None:
    run = run_program(
        """
import numpy as np
import numbaxfer as nx
from numba import cuda

@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1

k = nx.kernel(writes=["a"])(add_one)
N = 4096 * 2
s = nx.stream()
m = nx.mapped_array(N, np.float32)
view = m.read()
mapping = s.map(m)
s.launch(k, N // 256, 256, mapping.device)
print("peek:", mapping.racy_peek()[0], flush=True)  # lazy: the kernel has not run
m = mapping.wait()
print("after wait:", view[0], m.read()[-1], flush=True)
mapping = s.map(m)
s.launch(k, N // 256, 256, mapping.device)
print(view[1])  # ACCESS
""",
        tmp_path,
    )
    assert_stopped_at_access(run)
    assert "peek: 0.0" in run.stdout
    assert "after wait: 1.0 1.0" in run.stdout


def test_chained_download_parts_and_pipeline_run_guarded(tmp_path: Path) -> None:
    run = run_program(
        """
import numpy as np
import numbaxfer as nx

N = 4096 * 8
s = nx.stream()
dev = nx.device_array(N, np.float32)
host = nx.pinned_copy(np.arange(N, dtype=np.float32))
up = s.upload(host, to=dev)
host = s.download(dev, into=up).wait()         # chained: the download takes it over
print("chained:", host.read()[N - 1] == N - 1)

# parts: one part downloads while its neighbour is written; they share edge pages
parts = nx.split(host, bounds=[0, 1000, N])
left, right = parts
dleft = nx.device_array(1000, np.float32)
with left.write() as a:
    a[:] = 2.0
t = s.upload(left, to=dleft)
with right.write() as b:                        # the shared page is not protected
    b[:] = 3.0
left = t.wait()
whole = nx.join([left, right])
print("parts:", whole.read()[999], whole.read()[1000])
""",
        tmp_path,
    )
    assert run.returncode == 0, run.describe()
    assert "chained: True" in run.stdout
    assert "parts: 2.0 3.0" in run.stdout


def _gpu() -> bool:
    """Is there a GPU? Probed in a fresh interpreter without the simulator."""
    import subprocess
    import sys

    try:
        probe = "from numba import cuda; raise SystemExit(0 if cuda.is_available() else 1)"
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
        return subprocess.run([sys.executable, "-c", probe], env=env, timeout=120).returncode == 0
    except Exception:
        return False


gpu = pytest.mark.skipif(not _gpu(), reason="needs a CUDA GPU")


@gpu
@pytest.mark.parametrize(
    "program", [KEPT_READ_UNDER_DOWNLOAD, KEPT_WRITE_UNDER_UPLOAD], ids=["read", "write"]
)
def test_on_the_gpu_a_stray_access_stops_at_the_line(tmp_path: Path, program: str) -> None:
    assert_stopped_at_access(run_program(program, tmp_path, backend="gpu"))


@gpu
def test_on_the_gpu_dma_through_protected_pages_gives_the_right_data(tmp_path: Path) -> None:
    run = run_program(READ_UNDER_UPLOAD, tmp_path, backend="gpu")
    assert run.returncode == 0, run.describe()
    assert "device got: 7.0 host now: 3.0 view: 3.0" in run.stdout
