# A helper returns the lent handle from inside its `with host.lend()` block: the lend
# ends as the function returns, and the caller reads through an expired handle; another
# helper keeps an alias of the lent handle past the block.
# XFAIL: miss: a lent handle returned from inside its with host.lend() block (return view) is not reported (lend-escape)
# (No RUN header: the runtime raises where the caller reads the returned handle, not at `return view`, and the alias read raises first, on a line mypy flags today.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]


def readonly_view(host: Host) -> View:
    with host.lend() as view:
        return view  # E: lend-escape "view"


def first_of(host: Host) -> float:
    with host.lend() as view:
        kept = view
    return float(kept.read()[0])  # E: lend-escape "kept"


def main() -> float:
    host = nx.pinned_array(32, np.float32)
    first = first_of(host)
    v = readonly_view(host)
    return first + float(v.read()[0])


main()
