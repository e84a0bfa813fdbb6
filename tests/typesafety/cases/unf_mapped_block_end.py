# An nx.mapped() block ending while a mapping of its handle is not waited: the exit
# raises UnfinishedTransferError; several arrays pinned at once are checked one by one.
# RUN: raises UnfinishedTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(16, np.float32)
a = np.zeros(16, np.float32)
b = np.ones(16, np.float32)
with nx.pinned(a, b) as (ha, hb):
    up = s.upload(hb, to=dev)
    hb = up.wait()
with nx.mapped(a) as m:  # E: unfinished-transfer "Mapping \"mp\" (started at line 16 by Stream.map() with \"m\")" "\"m = mp.wait()\""
    mp = s.map(m)
    print(mp.device.shape)
m = mp.wait()
s.close()
