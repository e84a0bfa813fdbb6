# A lend wrapped in a user @contextmanager: the handle it yields is lent for the user's
# block and expires after it (the Lent in the declared type says so).
# RUN: raises BorrowError
import contextlib
from collections.abc import Iterator

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@contextlib.contextmanager
def borrowed(host: Host) -> Iterator[nx.PinnedArray[nx.Lent, np.float32]]:
    with host.lend() as v:
        yield v


host = nx.pinned_array(8, np.float32)
with borrowed(host) as view:
    print(view.read()[0], view.shape)
print(view.shape)  # metadata stays readable
print(view.read()[0])  # E: lend-escape "\"view\" is used after its \"with borrowed(...)\" block" "lent at line 21" "use the owner \"host\""
