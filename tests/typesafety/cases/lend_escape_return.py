# A lent handle returned from its lend block (directly, in a tuple, or through an alias)
# escapes it: the caller gets a handle that expired when the block ended.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


def peek(host: Host) -> View:
    with host.lend() as v:
        return v  # E: lend-escape "\"v\" is returned from its block" "lent at line 12" "use the owner \"host\""


def peek_pair(host: Host) -> tuple[View, int]:
    with host.lend() as v:
        w = v
        return (w, w.shape[0])  # E: lend-escape "\"w\" is returned"


def peek_either(host: Host, other: View, first: bool) -> View:
    with host.lend() as v:
        return v if first else other  # E: lend-escape "\"v\" is returned"


def peek_late(host: Host) -> View:
    with host.lend() as v:
        pass
    return v  # E: lend-escape "\"v\" is used after its \"with ... .lend()\" block"
