# A lambda reading the buffer, called after the move.
# RUN: raises UseAfterTransferError via-call
import numpy as np

import numbaxfer as nx
from collections.abc import Callable

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
first: Callable[[], float] = lambda: float(host.read()[0])  # noqa: E731
up = s.upload(host, to=dev)
print(first())  # E: use-after-transfer "read by \"first()\""
host = up.wait()
