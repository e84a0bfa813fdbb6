# Consumed behind a TypeAlias: the parameter still takes ownership.
# RUN: raises UseAfterTransferError
from typing import TypeAlias

import numpy as np

import numbaxfer as nx

Host: TypeAlias = nx.PinnedArray[nx.Owned, np.float32]
Buf: TypeAlias = nx.Consumed[Host]
s = nx.stream()
dev = nx.device_array(8, np.float32)


def stage(buf: Buf) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


host = nx.pinned_array(8, np.float32)
t = stage(host)
host.read()  # E: use-after-transfer "moved into stage() at line 20" "host = t.wait()"
host = t.wait()
