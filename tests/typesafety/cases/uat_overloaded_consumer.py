# An overloaded user function whose overloads consume.
import numpy as np

import numbaxfer as nx

from typing import overload

Host = nx.PinnedArray[nx.Owned, np.float32]


@overload
def send(buf: nx.Consumed[Host], n: int) -> None: ...
@overload
def send(buf: nx.Consumed[Host], n: str) -> None: ...
def send(buf: nx.Consumed[Host], n: int | str) -> None:
    pass


host = nx.pinned_array(8, np.float32)
send(host, 1)
host.read()  # E: use-after-transfer "send()"
