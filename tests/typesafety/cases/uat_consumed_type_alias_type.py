# Consumed behind a typing.TypeAliasType: the parameter still takes ownership.
# (A PEP 695 `type` statement needs python_version 3.12; the cases run at 3.11.)
# RUN: raises UseAfterTransferError
import numpy as np
from typing_extensions import TypeAliasType

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Buf = TypeAliasType("Buf", nx.Consumed[Host])
s = nx.stream()
dev = nx.device_array(8, np.float32)


def stage(buf: Buf) -> nx.Transfer[Host]:
    return s.upload(buf, to=dev)


host = nx.pinned_array(8, np.float32)
t = stage(host)
host.read()  # E: use-after-transfer "moved into stage() at line 20" "host = t.wait()"
host = t.wait()
