# Frontier: a module-level move, read by a module-level function called afterwards.
# RUN: raises UseAfterTransferError via-call
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)


def total() -> float:
    return float(host.read().sum())


print(total())
up = s.upload(host, to=dev)
print(total())  # E: use-after-transfer "read by \"total()\""
host = up.wait()
