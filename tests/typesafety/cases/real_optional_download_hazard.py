# A download made only when the caller asks for it (an Optional transfer): the output
# buffer is read before the `is not None` branch that takes it back.
# XFAIL: wrong fix and false positive: the read before the take-back is reported with the fix "out = <transfer>.wait()" instead of "out = down.wait()" (the conditional-expression transfer is not tied to `down`), and the correct read after `if down is not None: out = down.wait()` is reported
# (RUN header left out while this is a strict xfail: the runtime already agrees with the line mypy flags, checked on the simulator.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def step(
    s: nx.Stream[nx.Owned], dev: nx.DeviceArray[nx.Owned, np.float32], out: Host, want: bool
) -> tuple[Host, float]:
    down = s.download(dev, into=out) if want else None
    value = float(out.read()[0])  # E: use-after-transfer "out" "may be used" "out = down.wait()"
    if down is not None:
        out = down.wait()
    return out, value


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    out = nx.pinned_array(16, np.float32)
    total = 0.0
    for i in range(4):
        out, v = step(s, dev, out, want=i % 2 == 1)
        total += v
    s.close()
    return total


main()
