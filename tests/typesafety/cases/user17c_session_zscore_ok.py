# RUN: ok
"""Per-channel z-scoring of multichannel sensor data through a user context manager.

``gpu_session`` opens a stream and one pinned/device buffer pair held in a dataclass;
the helpers upload a channel, normalize it on the device and download it, each keeping
``session.host`` pointing at the handle the last transfer returned. The session frees
everything at exit, on the error path too.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np
from numba import cuda
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]


@cuda.jit
def zscore(x: Any, mean: float, inv_std: float) -> None:
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        x[i] = (x[i] - mean) * inv_std


@dataclass
class Session:
    stream: nx.Stream[nx.Owned]
    host: Host
    dev: Dev
    channels_done: int = 0


@contextmanager
def gpu_session(n: int) -> Iterator[Session]:
    s = nx.stream()
    session: Session | None = None
    try:
        session = Session(s, nx.pinned_array(n, np.float32), nx.device_array(n, np.float32))
        yield session
    finally:
        if session is not None:
            session.host.free()
            session.dev.free()
        s.close()


def upload_channel(session: Session, x: NDArray[np.float32]) -> None:
    buf = session.host
    with buf.write() as a:
        a[:] = x
    up = session.stream.upload(buf, to=session.dev)
    buf = up.wait()
    session.host = buf


def normalize_on_device(session: Session, mean: float, std: float) -> None:
    n = session.dev.size
    session.stream.launch(zscore, max(1, n // 256), 64, session.dev, mean, 1.0 / std)


def download_channel(session: Session) -> NDArray[np.float32]:
    down = session.stream.download(session.dev, into=session.host)
    session.host = down.wait()
    session.channels_done += 1
    out: NDArray[np.float32] = session.host.read().copy()
    return out


def zscore_channels(data: NDArray[np.float32]) -> NDArray[np.float32]:
    channels, n = data.shape
    result = np.empty_like(data)
    with gpu_session(n) as session:
        for c in range(channels):
            x = np.ascontiguousarray(data[c])
            mean, std = float(x.mean()), float(x.std())
            if std == 0.0:
                result[c] = 0.0  # flat channel: nothing to normalize
                continue
            upload_channel(session, x)
            normalize_on_device(session, mean, std)
            result[c] = download_channel(session)
        assert session.channels_done == channels - 1
    return result


def main() -> None:
    rng = np.random.default_rng(5)
    data = (rng.standard_normal((4, 256)) * np.array([[1.0], [3.0], [0.0], [0.5]]) + 2.0).astype(np.float32)
    out = zscore_channels(data)
    for c in (0, 1, 3):
        assert abs(float(out[c].mean())) < 1e-4 and abs(float(out[c].std()) - 1.0) < 1e-3
    assert np.all(out[2] == 0.0)
    print("session_zscore: right, 3 channels normalized, 1 flat channel skipped")


if __name__ == "__main__":
    main()
