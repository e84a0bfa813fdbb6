# A conditional-expression take-back whose test needs more than the transfer
# (`x = t.wait() if ready and t is not None else x`): where the other condition is
# false the else arm keeps x as it was, moved, so a read of x after the assignment may
# use a moved buffer. (The arm itself, `else x`, touches no memory: no report there.)
import numpy as np

import numbaxfer as nx


def ready_and_present(s: nx.Stream[nx.Owned], warm: bool, ready: bool) -> float:
    x = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    t = s.upload(x, to=dev) if warm else None  # E: unfinished-transfer "may be left unfinished"
    x = t.wait() if ready and t is not None else x
    return float(x.read()[0])  # E: use-after-transfer "\"x\" may be used after it was moved into Stream.upload() at line 13 on some path" "\"x = t.wait()\""


def only_ready(s: nx.Stream[nx.Owned], ready: bool) -> float:
    x = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    t = s.upload(x, to=dev)  # E: unfinished-transfer "may be left unfinished"
    x = t.wait() if ready else x
    return float(x.read()[0])  # E: use-after-transfer "\"x\" may be used"


def kept_first(s: nx.Stream[nx.Owned], warm: bool, ready: bool) -> float:
    x = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    t = s.upload(x, to=dev) if warm else None  # E: unfinished-transfer "may be left unfinished"
    x = x if t is None or not ready else t.wait()
    with x.write() as a:  # E: use-after-transfer "\"x\" may be used"
        a[0] = 1.0
    return float(x.read()[0])  # E: use-after-transfer "\"x\" may be used"
