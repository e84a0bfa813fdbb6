# Near misses of a conditional-expression take-back: completed into another name (the
# buffer stays moved where the transfer was), a test that also needs another condition
# (the other arm keeps it moved: a read after it may use the moved buffer), and a
# second wait() after the take-back.
import numpy as np

import numbaxfer as nx


def into_other_name(s: nx.Stream[nx.Owned], warm: bool) -> None:
    seed = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(seed, to=dev) if warm else None
    other = up.wait() if up is not None else None
    print(other)
    seed.read()  # E: use-after-transfer "may be used"


def needs_both(s: nx.Stream[nx.Owned], warm: bool, fast: bool) -> None:
    seed = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(seed, to=dev) if warm else None
    seed = up.wait() if up is not None and fast else seed  # the else arm keeps seed as it is
    print(seed.read())  # E: use-after-transfer "may be used"
    if up is not None:
        seed = up.wait()  # E: transfer-completed-twice "may be completed twice"


def waited_again(s: nx.Stream[nx.Owned], warm: bool) -> None:
    seed = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(seed, to=dev) if warm else None
    seed = up.wait() if up is not None else seed
    if up is not None:
        seed = up.wait()  # E: transfer-completed-twice "is completed twice"
