# XFAIL: an alias of an object whose attribute was moved (p = o; move o.buf; p.buf)
import numpy as np

import numbaxfer as nx



class Box:
    def __init__(self) -> None:
        self.buf = nx.pinned_array(8, np.float32)


s = nx.stream()
dev = nx.device_array(8, np.float32)
o = Box()
p = o
up = s.upload(o.buf, to=dev)
p.buf.read()  # E: use-after-transfer
o.buf = up.wait()
