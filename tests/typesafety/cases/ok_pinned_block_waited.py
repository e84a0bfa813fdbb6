# Transfers and mappings of pinned-in-place handles completed inside their blocks (also
# through a finally, and into another name), and a transfer of a buffer that is not the
# block's: the blocks end cleanly.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(16, np.float32)
a = np.arange(16, dtype=np.float32)
b = np.zeros(16, np.float32)
other = nx.pinned_array(16, np.float32)
with nx.pinned(a) as h:
    up = s.upload(h, to=dev)
    h = up.wait()
with nx.pinned(b) as hb:
    down = s.download(dev, into=hb)
    try:
        print(down.done())
    finally:
        back = down.wait()
    print(back.read()[3])
    t = s.upload(other, to=dev)
with nx.mapped(a) as m:
    mp = s.map(m)
    m = mp.wait()
other = t.wait()
print(b[3])
s.close()
