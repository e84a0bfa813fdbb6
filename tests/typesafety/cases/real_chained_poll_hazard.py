# Upload, then a download chained onto the pending upload: the code polls done() and
# reads the buffer without wait() (done() gives nothing back), then also waits the
# upload the download took over.
# XFAIL: wrong fix: a buffer read after a download chained onto its upload (down = s.download(dev, into=up)) is reported with the fix "host = up.wait()", which is itself an error; it must name the download: "host = down.wait()"
# (RUN header left out while this is a strict xfail: the runtime already agrees with the line mypy flags, checked on the simulator.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main() -> float:
    s = nx.stream()
    host = nx.pinned_array(16, np.float32)
    dev = nx.device_array(16, np.float32)
    up = s.upload(host, to=dev)
    down = s.download(dev, into=up)
    while not down.done():
        pass
    total = float(host.read().sum())  # E: use-after-transfer "host" "host = down.wait()"
    host = up.wait()  # E: use-after-transfer "up" "host = down.wait()"
    host = down.wait()
    s.close()
    return total


main()
