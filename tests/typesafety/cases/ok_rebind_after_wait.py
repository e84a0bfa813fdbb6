# The documented pattern: no errors, and it runs.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
with host.write() as a:
    a[:] = 1.0
up = s.upload(host, to=dev)
host = up.wait()
with host.write() as a:
    a[-1] = 2.0
out = nx.pinned_array(8, np.float32)
down = s.download(dev, into=out)
out = down.wait()
print(out.read()[-1])
with host.lend() as view:
    print(view.read()[0])
s.close()
