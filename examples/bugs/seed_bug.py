"""The seed bug written with numbaxfer: a host write while the upload still reads.

Both checkers refuse it: mypy with numbaxfer's plugin reports the line statically
([use-after-transfer]); running it raises nx.UseAfterTransferError at the same line.
(This file is excluded from the project's own type check: the bug is the point.)
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
    with host.write() as a:  # BUG: the copy may still be reading host
        a[-1] = 2.0
    host = up.wait()
    out = s.download(dev, into=host).wait()
    return float(out.read()[-1])


if __name__ == "__main__":
    print(main())
