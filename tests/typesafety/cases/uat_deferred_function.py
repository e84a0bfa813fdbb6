# A function mypy defers (it uses a global whose type is inferred later) is checked once.
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    up = s.upload(host, to=DEV)
    host.read()  # E: use-after-transfer "is used"
    host = up.wait()


DEV = nx.device_array(8, np.float32)
