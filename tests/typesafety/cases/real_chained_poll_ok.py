# Upload, then a download chained onto the pending upload (no host wait between), and a
# poll loop with done() doing other work until the round trip is home. Correct.
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main() -> float:
    s = nx.stream()
    host = nx.pinned_array(16, np.float32)
    dev = nx.device_array(16, np.float32)
    with host.write() as a:
        a[:] = 4.0
    up = s.upload(host, to=dev)
    down = s.download(dev, into=up)  # takes over the buffer the upload holds
    spins = 0
    while not down.done():
        spins += 1
    host = down.wait()
    total = float(host.read().sum())
    up2 = s.upload(host, to=dev)
    if not up2.done():
        spins += 1
    host = up2.wait()
    s.close()
    return total + float(host.read()[0]) + spins


main()
