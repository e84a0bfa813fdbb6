# mapping.device used while the mapping is live (also through a name), its metadata
# after wait(), and a new mapping's device after mapping again (in a loop too).
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
m = nx.mapped_array(8, np.float32)
out = nx.pinned_array(8, np.float32)
mp = s.map(m)
d = mp.device
down = s.download(d, into=out)
out = down.wait()
m = mp.wait()
print(mp.device.shape, d.size)
for _ in range(3):
    mp = s.map(m)
    down = s.download(mp.device, into=out)
    out = down.wait()
    m = mp.wait()
mp = s.map(m)
d = mp.device
m = mp.wait()
d = nx.device_array(8, np.float32)
down = s.download(d, into=out)
out = down.wait()
s.close()
