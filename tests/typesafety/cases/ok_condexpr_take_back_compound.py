# Conditional-expression take-backs that keep x where no transfer holds it: the test
# is the transfer's own (`t is not None`, a bare `t`), or compound with a condition that
# the transfer being pending implies (`t is not None and not t.completed`), or the
# transfer is completed on the other paths before the read. No report.
# RUN: ok
import numpy as np

import numbaxfer as nx


def present(s: nx.Stream[nx.Owned], warm: bool) -> float:
    x = nx.pinned_copy(np.ones(8, np.float32))
    dev = nx.device_array(8, np.float32)
    t = s.upload(x, to=dev) if warm else None
    x = t.wait() if t is not None else x
    return float(x.read()[0])


def pending(s: nx.Stream[nx.Owned], warm: bool) -> float:
    x = nx.pinned_copy(np.ones(8, np.float32))
    dev = nx.device_array(8, np.float32)
    t = s.upload(x, to=dev) if warm else None
    x = t.wait() if t is not None and not t.completed else x
    return float(x.read()[0])


def finished_later(s: nx.Stream[nx.Owned], warm: bool, ready: bool) -> float:
    x = nx.pinned_copy(np.ones(8, np.float32))
    dev = nx.device_array(8, np.float32)
    t = s.upload(x, to=dev) if warm else None
    x = t.wait() if ready and t is not None else x
    if t is not None and not t.completed:
        x = t.wait()
    return float(x.read()[0])


def counter(n: int, fast: bool, slow: bool) -> int:
    n = n + 1 if fast and not slow else n
    return n


s = nx.stream()
assert present(s, True) + present(s, False) == 2.0
assert pending(s, True) + pending(s, False) == 2.0
assert finished_later(s, True, False) + finished_later(s, True, True) == 2.0
assert counter(1, True, False) == 2
s.close()
