# Moves in match cases.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

pending: list[object] = []


def f(cmd: str) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    match cmd:
        case "send":
            pending.append(s.upload(host, to=dev))
        case "keep":
            pass
        case _:
            return
    host.read()  # E: use-after-transfer "may be used"


f("send")
