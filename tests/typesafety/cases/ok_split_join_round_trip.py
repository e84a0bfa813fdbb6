# Parts on two streams, taken back, joined: the whole array is usable again.
# RUN: ok
import numpy as np

import numbaxfer as nx

s, t = nx.stream(), nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
a, b = nx.split(host, 2)
da, db = nx.split(dev, 2)
ua = s.upload(a, to=da)
ub = t.upload(b, to=db)
a = ua.wait()
b = ub.wait()
host = nx.join([a, b])
dev = nx.join([da, db])
host.read()
host = s.download(dev, into=host).wait()
s.close()
t.close()
