# The buffer passed when calling a partial of an overloaded method moves (here the
# download's destination, `fetch(into=seed)`), and so does a keyword that replaces the
# bound one.
# RUN: raises UseAfterTransferError
import functools

import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
a = nx.pinned_array(8, np.float32)
b = nx.pinned_array(8, np.float32)
into_a = functools.partial(s.download, dev, into=a)
t = into_a(into=b)
a.read()
print(b.read())  # E: use-after-transfer "is used after it was moved into Stream.download()"
b = t.wait()
s.close()
