# functools.partial(s.upload, to=dev): calling the partial moves the buffer.
# RUN: raises UseAfterTransferError
import functools

import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
send = functools.partial(s.upload, to=dev)
host = nx.pinned_array(8, np.float32)
t = send(host)
host.read()  # E: use-after-transfer "moved into Stream.upload() at line 13" "host = t.wait()"
host = t.wait()
