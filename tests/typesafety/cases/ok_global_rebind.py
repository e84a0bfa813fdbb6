# A module-level function that takes a module global back (`global host`): calling it
# rebinds the global.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
up = s.upload(host, to=dev)


def finish() -> None:
    global host
    host = up.wait()


finish()
host.read()
s.close()
