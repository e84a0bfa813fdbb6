# Upload, kernel-free round trip into the same buffer: the download takes the upload over.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)
down = s.download(dev, into=up)
host = down.wait()
host.read()
s.close()
