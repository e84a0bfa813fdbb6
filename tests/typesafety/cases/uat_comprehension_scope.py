# A comprehension variable with the same name is another variable.
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    others = [nx.pinned_array(8, np.float32) for _ in range(2)]
    sums = [float(host.read().sum()) for host in others]
    print(sums)
    host.read()  # E: use-after-transfer "is used"
    host = up.wait()
