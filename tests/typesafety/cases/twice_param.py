# A transfer passed in as a parameter, waited twice.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def finish(t: nx.Transfer[Host]) -> Host:
    t.wait()
    return t.wait()  # E: transfer-completed-twice "is completed twice"
