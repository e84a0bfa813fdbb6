# Progress logging while copies run: the moved handles are formatted (f-string, repr(),
# print()), which touches no memory; the runtime prints "<PinnedArray#1[...]: moved>".
# The buffers are taken back before any data is read.
# XFAIL: false positive (policy, for the lead): formatting a moved handle (f"{host}", repr(host), print(host)) is reported as a use, while the runtime allows it (its repr shows "moved")
# (RUN: ok left out while this is a strict xfail: the program runs clean on the simulator, checked.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main() -> float:
    s = nx.stream()
    host = nx.pinned_array(16, np.float32)
    dev = nx.device_array(16, np.float32)
    out = nx.pinned_array(16, np.float32)
    up = s.upload(host, to=dev)
    print(f"uploading {host} on {s.label}")
    status = repr(host)
    down = s.download(dev, into=out)
    print("downloading into", out)
    host = up.wait()
    out = down.wait()
    s.close()
    return float(out.read().sum()) + len(status)


main()
