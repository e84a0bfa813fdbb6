# The seed bug: writing the host buffer while its upload may still read it.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(1_000_000, np.float32)
dev = nx.device_array(1_000_000, np.float32)
with host.write() as a:
    a[:] = 1.0
up = s.upload(host, to=dev)
with host.write() as a:  # E: use-after-transfer "host" "is used" "line 12" "host = up.wait()"
    a[-1] = 2.0
host = up.wait()
