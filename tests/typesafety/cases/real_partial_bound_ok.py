# functools.partial with the buffer bound inside: `send = partial(s.upload, host, to=dev)`
# is called once, and its transfer gives the buffer back before any read. Correct.
# RUN: ok
from __future__ import annotations

from functools import partial

import numpy as np

import numbaxfer as nx


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    with host.write() as a:
        a[:] = 2.0
    send = partial(s.upload, host, to=dev)
    t = send()
    host = t.wait()
    total = float(host.read().sum())
    out = nx.pinned_array(16, np.float32)
    fetch = partial(s.download, dev, into=out)
    down = fetch()
    out = down.wait()
    s.close()
    return total + float(out.read()[0])


main()
