# Leaving the with-block by break still ends the lend.
import numpy as np

import numbaxfer as nx


def f() -> None:
    host = nx.pinned_array(8, np.float32)
    for _ in range(3):
        with host.lend() as view:
            if view.read()[0] > 0:
                break
    view.read()  # E: lend-escape
