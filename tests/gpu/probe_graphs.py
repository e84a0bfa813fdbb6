"""Probe (not a test): what the GPU capture finds in a graph (copy nodes per parameter)."""

import numpy as np

import numbaxfer as nx
from tests.kernels import affine

s1, s2 = nx.stream(), nx.stream()
n = 1 << 16
h, o = nx.pinned_array(n, np.float32), nx.pinned_array(n, np.float32)
d, e = nx.device_array(n, np.float32), nx.device_array(n, np.float32)
s1.launch(affine, 256, 256, d, e)
s1.synchronize()
with nx.capture(s1, s2) as cap:
    up = s2.upload(h, to=d)
    s1.launch(affine, 256, 256, d, e)
    dn = s1.download(e, into=o)
g = cap.graph
h, o = up.wait(), dn.wait()
print("backend", nx.current_backend().describe())
exe = g._exe
print("slots", [len(x) for x in exe.slots], g._params)
for slot in exe.slots:
    for _node, p, field, rel in slot:
        print(" ", field, rel, p.srcMemoryType, p.dstMemoryType, p.WidthInBytes)
with h.write() as a:
    a[:] = 3
h, o = g.replay(h, o).wait()
print("replay right:", bool((o.read() == 7).all()))
g.close()
