# nx.Pipeline: the caller peeks at the destination while the run still owns it, and a
# second run is started and dropped without run.wait() (its arrays never come back).
# XFAIL: wrong fix and miss: dst read after Pipeline.map() is reported, but the fix says 'rebind "dst" to a new value' instead of taking it back with run.wait(); a discarded PipelineRun (pipe.map(...) unbound) is not reported
# (No RUN header while the fix wording is the gap: the runtime raises at the line mypy flags.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def step(
    s: nx.Stream[nx.Lent],
    chunk_in: nx.DeviceArray[nx.Owned, np.float32],
    chunk_out: nx.DeviceArray[nx.Owned, np.float32],
) -> None:
    s.copy(chunk_in, to=chunk_out)


def main(total: int = 1000, chunk: int = 256) -> float:
    src = nx.pinned_array(total, np.float32)
    with src.write() as a:
        a[:] = np.arange(total, dtype=np.float32)
    dst = nx.pinned_array(total, np.float32)
    pipe = nx.Pipeline(chunk, np.float32, slots=3)
    run = pipe.map(src, into=dst, step=step)
    progress = float(dst.read()[0])  # E: use-after-transfer "dst" "run.wait()"
    src, dst = run.wait()
    pipe.map(src, into=dst, step=step)  # E: unfinished-transfer "Pipeline.map()"
    pipe.close()
    return progress


main()
