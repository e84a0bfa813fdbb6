# A moved buffer may be renamed: binding another name (or swapping two) touches no
# memory, and the runtime accepts it. Taken back under the new name, it is usable.
# RUN: ok
import numpy as np

import numbaxfer as nx

s = nx.stream()
dev = nx.device_array(8, np.float32)
front = nx.pinned_array(8, np.float32)
back = nx.pinned_array(8, np.float32)

down = s.download(dev, into=back)
front, back = back, front  # front now names the buffer the download holds
front = down.wait()
print(float(front.read()[0]), float(back.read()[0]))

held = nx.pinned_array(8, np.float32)
up = s.upload(held, to=dev)
alias = held  # a second name for the moved buffer
alias = up.wait()
print(float(alias.read()[0]))


class Ring:
    def __init__(self) -> None:
        self.slot = nx.pinned_array(8, np.float32)


ring = Ring()
up2 = s.upload(ring.slot, to=dev)
kept = ring.slot  # copied out of the object while moved; nothing is read
ring.slot = up2.wait()
s.close()
