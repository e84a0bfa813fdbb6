# A transfer handed on to a chained one (``s.download(dev, into=up)``) may still be
# asked whether it is done: the runtime answers (True) without touching it.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
up = s.upload(host, to=dev)
down = s.download(dev, into=up)
print(up.done(), up.completed, up.label)
host = down.wait()
print(float(host.read()[0]))
s.close()
