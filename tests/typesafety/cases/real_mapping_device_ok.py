# Mapped (zero-copy) arrays: device work uses mapping.device, and the host array is
# read only after mapping.wait() gave it back; the device view is not used after. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main(n: int = 32) -> float:
    s = nx.stream()
    inp = nx.mapped_array(n, np.float32)
    with inp.write() as a:
        a[:] = np.arange(n, dtype=np.float32)
    scratch = nx.device_array(n, np.float32)
    mp = s.map(inp)
    print(inp.shape, inp.nbytes)  # metadata of the moved mapped array: no memory touched
    s.copy(mp.device, to=scratch)
    inp = mp.wait()
    total = float(inp.read().sum())
    mp = s.map(inp)
    s.copy(scratch, to=mp.device)
    inp = mp.wait()
    total += float(inp.read()[-1])
    scratch.free()
    s.close()
    return total


main()
