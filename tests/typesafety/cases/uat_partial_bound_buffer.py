# functools.partial(s.upload, host, to=dev): the buffer is bound inside the partial and
# moves when the partial is called; a use after the call, or a second call, is a use of
# a moved buffer.
# RUN: raises UseAfterTransferError
import functools

import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
send = functools.partial(s.upload, host, to=dev)
print(host.read()[0])  # not moved yet: the partial only holds it
t = send()
host.read()  # E: use-after-transfer "\"host\" is used after it was moved into Stream.upload() at line 16" "host = t.wait()"
host = t.wait()
