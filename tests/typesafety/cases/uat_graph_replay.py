# A replay moves every host buffer it takes; using one before run.wait() is an error.
# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
src, out = nx.pinned_array(8, np.float32), nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
with nx.capture(s) as cap:
    up = s.upload(src, to=dev)
    down = s.download(dev, into=out)
src, out = up.wait(), down.wait()
run = cap.graph.replay(src, out)
src.read()  # E: use-after-transfer "moved into Graph.replay() at line 14" "src, out = run.wait()"
src, out = run.wait()
