# Buffers come back from run.wait(): rebinding them makes every later use fine.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
src, out = nx.pinned_array(8, np.float32), nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
with nx.capture(s) as cap:
    up = s.upload(src, to=dev)
    down = s.download(dev, into=out)
src, out = up.wait(), down.wait()
graph = cap.graph
for _ in range(3):
    with src.write() as a:
        a[:] = 1.0
    src, out = graph.replay(src, out).wait()
    print(out.read()[0])
graph.close()
s.close()
