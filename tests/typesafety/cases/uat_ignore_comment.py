# "# type: ignore[use-after-transfer]" silences one report.
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
print(host.read())  # type: ignore[use-after-transfer]
print(host.read())  # E: use-after-transfer
host = up.wait()
