# A move inside an assignment expression.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
if (up := s.upload(host, to=dev)) is not None:
    host.read()  # E: use-after-transfer "host = up.wait()"
host = up.wait()
