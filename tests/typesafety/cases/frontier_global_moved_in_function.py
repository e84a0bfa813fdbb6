# RUN: raises UseAfterTransferError
import numpy as np

import numbaxfer as nx

s = nx.stream()
host = nx.pinned_array(8, np.float32)
dev = nx.device_array(8, np.float32)
ups: list[object] = []


def send() -> None:
    global host
    ups.append(s.upload(host, to=dev))


send()
host.read()  # E: use-after-transfer
