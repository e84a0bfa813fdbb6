# functools.partial with the buffer bound inside: calling the partial moves the bound
# buffer, which is then read before the transfer gives it back.
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

from functools import partial

import numpy as np

import numbaxfer as nx


def main() -> float:
    s = nx.stream()
    dev = nx.device_array(16, np.float32)
    host = nx.pinned_array(16, np.float32)
    send = partial(s.upload, host, to=dev)
    t = send()
    total = float(host.read().sum())  # E: use-after-transfer "host" "host = t.wait()"
    host = t.wait()
    out = nx.pinned_array(16, np.float32)
    fetch = partial(s.download, dev, into=out)
    down = fetch()
    total += float(out.read()[0])  # E: use-after-transfer "out" "out = down.wait()"
    out = down.wait()
    s.close()
    return total


main()
