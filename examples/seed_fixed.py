"""The seed program, corrected: take the buffer back from the transfer, then write.

`up.wait()` blocks on this upload's own event only; after it the copy has read
everything, so the host write cannot reach the device.
"""

from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main(n: int = 1_000_000) -> float:
    s = nx.stream()
    host = nx.pinned_array(n, np.float32)
    dev = nx.device_array(n, np.float32)
    with host.write() as a:
        a[:] = 1.0
    up = s.upload(host, to=dev)  # host moves into the transfer
    # ... kernels on s could use dev here: stream order protects it ...
    host = up.wait()  # ownership comes back once the copy has finished
    with host.write() as a:
        a[-1] = 2.0  # safe: the device keeps 1.0
    out = nx.pinned_array(n, np.float32)
    down = s.download(dev, into=out)  # out moves
    out = down.wait()
    s.close()
    return float(out.read()[-1])  # 1.0


if __name__ == "__main__":
    print(main())
