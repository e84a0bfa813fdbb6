# A ThreadPoolExecutor fan-out: each worker owns a stream and a pinned buffer, sends its
# chunk up, runs a kernel and brings the result back into the same buffer, returning a
# numpy copy. BUG, ported from `dev.copy_to_host(host, stream=s)`: the download names the
# buffer the upload still holds, instead of chaining onto the upload.
# (No RUN header: the run time raises UseAfterTransferError there, then the finally's
# s.close() replaces it with StreamClosedError, on a line the checker need not flag.)
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx


@cuda.jit
def relu(a: Any) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = max(a[i], 0.0)


def worker(chunk: NDArray[np.float32]) -> NDArray[np.float32]:
    s = nx.stream()
    host = nx.pinned_copy(chunk)
    dev = nx.device_array(chunk.shape, np.float32)
    try:
        up = s.upload(host, to=dev)  # E: unfinished-transfer "up" "never completed"
        s.launch(relu, 1, chunk.size, dev)
        down = s.download(dev, into=host)  # E: use-after-transfer "host" "is used"
        host = down.wait()
        return host.read().copy()
    finally:
        s.close()  # E: unfinished-transfer "is closed"


def main() -> None:
    data = np.linspace(-1.0, 1.0, 32, dtype=np.float32)
    chunks = np.split(data, 4)
    with ThreadPoolExecutor(max_workers=2) as ex:
        parts = list(ex.map(worker, chunks))
    result = np.concatenate(parts)
    assert np.array_equal(result, np.maximum(data, 0.0)), result


main()
