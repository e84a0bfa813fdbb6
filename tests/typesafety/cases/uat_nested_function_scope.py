# Moves and uses inside a nested function are checked there.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx


def outer() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)

    def inner() -> None:
        host = nx.pinned_array(8, np.float32)
        up = s.upload(host, to=dev)
        host.read()  # E: use-after-transfer
        host = up.wait()

    inner()


outer()
