# A consuming call nested in the argument of an overloaded call.
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
ups = list([s.upload(host, to=dev)])
host.read()  # E: use-after-transfer "is used"
host = ups[0].wait()
