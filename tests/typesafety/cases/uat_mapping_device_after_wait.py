# mapping.device used after mapping.wait(): the device view ended with the mapping.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
m = nx.mapped_array(8, np.float32)
out = nx.pinned_array(8, np.float32)
mp = s.map(m)
print(mp.device.shape)
m = mp.wait()
print(mp.device.shape, mp.device.nbytes)  # metadata touches no memory
down = s.download(mp.device, into=out)  # E: use-after-transfer "\"mp.device\" (mapped by Stream.map() at line 10) is used after its mapping ended" "a mapping that ended at line 12 (mapping.wait())" "Map the array again"
out = down.wait()
s.close()
