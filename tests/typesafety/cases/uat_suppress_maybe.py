# `contextlib.suppress` may end its block at any statement: after it, a buffer moved
# inside the block may or may not be moved ("may be used"), and one moved before the
# first statement that can raise stays moved. (The take-back wait() is not a statement
# that ends the block: only the device or an interrupt makes it fail.)
import contextlib

import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
host = nx.pinned_array(8, np.float32)
other = nx.pinned_array(8, np.float32)

up = None
with contextlib.suppress(ValueError):
    up = s.upload(host, to=dev)
    int("not a number")
print(host.read())  # E: use-after-transfer "\"host\" may be used" "on some path"
if up is not None:
    host = up.wait()

with contextlib.suppress(KeyError):
    t = s.upload(other, to=dev)
    print({"a": 1}["b"])
    other = t.wait()
print(other.read())  # E: use-after-transfer "\"other\" may be used"
