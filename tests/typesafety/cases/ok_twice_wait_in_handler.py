# A wait() that raised did not complete the transfer: a second wait() in the handler of
# the try that the first wait() ended is the retry, not a second completion.
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    t = s.upload(host, to=dev)
    try:
        host = t.wait()
    except nx.StreamClosedError:
        host = t.wait()
    host.read()
