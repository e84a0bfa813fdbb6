# RUN: raises UseAfterTransferError
# Planted bug: the first channel's download is waited early as a dtype probe, then the comprehension waits it again.
"""Per-channel gain over a bank of pinned buffers, with chained upload -> download."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

Channel = nx.PinnedArray[nx.Owned, np.float32]
Pending = nx.Transfer[Channel]
Bank = dict[str, Channel]
DevBank = dict[str, nx.DeviceArray[nx.Owned, np.float32]]

GAINS = {"left": 0.5, "right": 2.0, "centre": 1.0, "sub": 4.0}


@cuda.jit
def gain(a: Any, g: float) -> None:
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] *= g


def load_bank(n: int) -> Bank:
    return {name: nx.pinned_copy(np.full(n, i + 1, np.float32)) for i, name in enumerate(GAINS)}


def apply_gains(bank: Bank, devs: DevBank, s: nx.Stream[nx.Lent]) -> Bank:
    uploads: dict[str, Pending] = {name: s.upload(buf, to=devs[name]) for name, buf in bank.items()}
    for name, g in GAINS.items():
        s.launch(gain, 1, 64, devs[name], g)
    downloads: dict[str, Pending] = {
        name: s.download(devs[name], into=up) for name, up in uploads.items()
    }
    probe = downloads[next(iter(downloads))].wait()
    assert probe.dtype == np.float32
    return {name: t.wait() for name, t in downloads.items()}  # E: transfer-completed-twice


def levels(bank: Bank) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, buf in bank.items():
        with buf.lend() as view:
            out[name] = float(view.read().mean())
    return out


def main(n: int = 64) -> dict[str, float]:
    s = nx.stream()
    bank = load_bank(n)
    devs: DevBank = {name: nx.device_array(n, np.float32) for name in bank}
    with s.lend() as ls:
        bank = apply_gains(bank, devs, ls)
    result = levels(bank)
    expected = {name: (i + 1) * g for i, (name, g) in enumerate(GAINS.items())}
    assert result == expected, (result, expected)
    for buf, dev in zip(bank.values(), devs.values()):
        buf.free()
        dev.free()
    s.close()
    return result


if __name__ == "__main__":
    main()
