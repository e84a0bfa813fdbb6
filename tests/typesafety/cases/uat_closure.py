# Frontier: a closure defined before the move, called after it.
# RUN: raises UseAfterTransferError via-call
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)

    def show() -> None:
        print(host.read())

    show()
    up = s.upload(host, to=dev)
    show()  # E: use-after-transfer "read by \"show()\""
    host = up.wait()


f()
