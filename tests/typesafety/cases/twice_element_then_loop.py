# RUN: raises UseAfterTransferError
# One element of a container of transfers completed (by any index), then a loop or a
# comprehension completing every element: that element is completed twice ("may": which
# one the loop meets is not known).
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def probe_then_all() -> list[Host]:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    downs = [s.download(dev, into=nx.pinned_array(8, np.float32)) for _ in range(3)]
    first = downs[0].wait()
    print(first.dtype)
    out = [t.wait() for t in downs]  # E: transfer-completed-twice "Transfer \"t\" (an element of \"downs\", one of which was completed before the loop) may be completed twice: wait() was already called on it at line 16"
    s.close()
    return out


def dict_probe() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    downs = {name: s.download(dev, into=nx.pinned_array(8, np.float32)) for name in "ab"}
    probe = downs[next(iter(downs))].wait()
    print(probe.shape)
    for t in downs.values():
        t.wait()  # E: transfer-completed-twice "one of which was completed before the loop"
    s.close()


if __name__ == "__main__":
    probe_then_all()
