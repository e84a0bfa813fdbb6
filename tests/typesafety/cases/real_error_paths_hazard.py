# Error paths: a download with the wrong shape fails after the upload was enqueued, and
# the handler "resets" the buffer that the upload still owns (the state after the
# upload reaches the handler: the statement that raised is a later one).
# RUN: raises UseAfterTransferError via-call
from __future__ import annotations

import numpy as np

import numbaxfer as nx


def main() -> float:
    s = nx.stream()
    host = nx.pinned_array(16, np.float32)
    dev = nx.device_array(16, np.float32)
    wrong = nx.pinned_array(17, np.float32)
    try:
        up = s.upload(host, to=dev)
        wrong = s.download(dev, into=wrong).wait()  # ValueError: shape mismatch
    except ValueError:
        with host.write() as a:  # E: use-after-transfer "host" "may be used"
            a[:] = 0.0
        raise
    host = up.wait()
    return float(host.read().sum())


main()
