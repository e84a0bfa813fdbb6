# Lent on one path only.
import numpy as np

import numbaxfer as nx


def f(c: bool) -> None:
    host = nx.pinned_array(8, np.float32)
    view: nx.PinnedArray[nx.Lent, np.float32] = host
    if c:
        with host.lend() as view:
            pass
    view.read()  # E: lend-escape "may be used"
