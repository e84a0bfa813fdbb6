# Mapped (zero-copy) arrays: after mapping.wait() gave the host array back, device work
# is still enqueued on mapping.device (the mapping has ended); and the mapped array is
# read while the mapping holds it.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main(n: int = 32) -> float:
    s = nx.stream()
    inp = nx.mapped_array(n, np.float32)
    scratch = nx.device_array(n, np.float32)
    mp = s.map(inp)
    s.copy(mp.device, to=scratch)
    inp = mp.wait()
    s.copy(scratch, to=mp.device)  # E: use-after-transfer "mp.device" "wait()"
    total = float(inp.read().sum())
    mp = s.map(inp)
    total += float(inp.read()[0])  # E: use-after-transfer "inp" "mp.wait()"
    inp = mp.wait()
    s.close()
    return total


main()
