# A partial of an overloaded method (mypy keeps no partially applied signature for it)
# moves the buffer passed at the call, and only that one: a keyword given at the call
# replaces the one bound in the partial, which stays usable.
# RUN: ok
import functools

import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
fetch = functools.partial(s.download, dev)
out = nx.pinned_array(8, np.float32)
for _ in range(2):
    out = fetch(into=out).wait()
    out.read()

a = nx.pinned_array(8, np.float32)
b = nx.pinned_array(8, np.float32)
into_a = functools.partial(s.download, dev, into=a)
t = into_a(into=b)
a.read()
b = t.wait()
b.read()
s.close()
