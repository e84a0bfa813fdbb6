# A checkpoint restore verified by download (see user5_checkpoint_verify_ok.py). The
# bug, kind "a pinned block ending under a pending transfer": the verify download's
# wait() is written after the `with nx.pinned(...)` block, so the block ends (and would
# unpin the scratch array) while the download still writes into it.
# RUN: raises UnfinishedTransferError
from __future__ import annotations

import io

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


def save(params: dict[str, NDArray[np.float32]]) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **params)  # type: ignore[arg-type]
    return buf.getvalue()


def restore(blob: bytes, s: nx.Stream[nx.Lent], model: dict[str, Dev]) -> list[str]:
    restored: list[str] = []
    with np.load(io.BytesIO(blob)) as z:
        for name in z.files:
            arr = np.ascontiguousarray(z[name], dtype=np.float32)
            host = nx.pinned_copy(arr)
            up = s.upload(host, to=model[name])
            host = up.wait()
            host.free()
            check = np.empty_like(arr)
            with nx.pinned(check) as h:  # E: unfinished-transfer "down"
                down = s.download(model[name], into=h)
            down.wait()
            if not np.array_equal(check, arr):
                raise RuntimeError(f"checkpoint: {name} did not round-trip")
            restored.append(name)
    return restored


def main() -> list[str]:
    rng = np.random.default_rng(11)
    params = {
        "w1": rng.standard_normal((8, 4)).astype(np.float32),
        "b1": rng.standard_normal(8).astype(np.float32),
    }
    s = nx.stream()
    model = {name: nx.device_array(p.shape, np.float32) for name, p in params.items()}
    names = restore(save(params), s, model)
    s.close()
    return names


if __name__ == "__main__":
    assert main() == ["w1", "b1"]
    print("checkpoint ok")
