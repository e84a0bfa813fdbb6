# match arms that each take the buffer back.
import numpy as np

import numbaxfer as nx


def f(cmd: str) -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    match cmd:
        case "now":
            host = up.wait()
        case _:
            s.synchronize()
            host = up.wait()
    host.read()
