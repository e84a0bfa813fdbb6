# At module level too (a module-level transfer lives until the interpreter exits).
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
out = nx.pinned_array(8, np.float32)
down = s.download(dev, into=out)  # E: unfinished-transfer "is never completed" "out = down.wait()"
