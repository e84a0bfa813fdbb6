# Formatting a moved handle is fine (its repr reads no memory), but formatting its data
# is a use: print(host.read()) reads the buffer the upload is copying.
# RUN: raises UseAfterTransferError
from __future__ import annotations

import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
print(f"copying {host}")
print(repr(host), str(host))
print(host.read()[0])  # E: use-after-transfer "host" "host = up.wait()"
host = up.wait()
s.close()
