# An optional transfer taken back by a conditional expression: each arm sees its side
# of the test (`is None`, `is not None`, a bare truth test, either order), as the
# branches of an `if` statement do.
# RUN: ok
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def not_none_first(s: nx.Stream[nx.Owned], warm: bool) -> float:
    seed = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(seed, to=dev) if warm else None
    seed = up.wait() if up is not None else seed
    return float(seed.read().sum())


def none_first(s: nx.Stream[nx.Owned], warm: bool) -> float:
    seed = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(seed, to=dev) if warm else None
    seed = seed if up is None else up.wait()
    return float(seed.read().sum())


def truth_test(s: nx.Stream[nx.Owned], warm: bool) -> float:
    seed = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = None if not warm else s.upload(seed, to=dev)
    seed = up.wait() if up else seed
    return float(seed.read().sum())


def negated_truth_test(s: nx.Stream[nx.Owned], warm: bool) -> float:
    seed = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up: nx.Transfer[Host] | None = None
    if warm:
        up = s.upload(seed, to=dev)
    seed = seed if not up else up.wait()
    return float(seed.read().sum())


def deferred_in_loop(s: nx.Stream[nx.Owned], rounds: int) -> float:
    seed = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    pending: nx.Transfer[Host] | None = None
    for _ in range(rounds):
        seed = pending.wait() if pending is not None else seed
        with seed.write() as a:
            a[:] += 1.0
        pending = s.upload(seed, to=dev)
    seed = pending.wait() if pending is not None else seed
    return float(seed.read().sum())


s = nx.stream()
for flag in (True, False):
    assert not_none_first(s, flag) == 0.0
    assert none_first(s, flag) == 0.0
    assert truth_test(s, flag) == 0.0
    assert negated_truth_test(s, flag) == 0.0
assert deferred_in_loop(s, 3) == 24.0
assert deferred_in_loop(s, 0) == 0.0
s.close()
