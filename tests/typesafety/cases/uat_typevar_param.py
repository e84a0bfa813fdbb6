# Frontier: passing the moved handle to a TypeVar parameter.
import numpy as np

import numbaxfer as nx

from typing import TypeVar

T = TypeVar("T")


def keep(x: T) -> T:
    return x


s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
h2 = keep(host)  # E: use-after-transfer "is used"
host = up.wait()
