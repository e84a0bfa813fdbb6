# `t.completed` is a fact about the transfer: where it is True, no path that left it
# pending gets there (the buffer it took back is usable); where it is False, no path
# that waited gets there (a wait() there is the first).
# RUN: ok
import numpy as np

import numbaxfer as nx


def handler_then_finally(s: nx.Stream[nx.Owned], fail: bool) -> float:
    host = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    try:
        if fail:
            raise ValueError("bad input")
    except ValueError:
        host = up.wait()
    finally:
        if not up.completed:
            host = up.wait()
    return float(host.read().sum())


def read_where_completed(s: nx.Stream[nx.Owned], early: bool) -> float:
    host = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if early:
        host = up.wait()
    total = 0.0
    if up.completed:
        total = float(host.read().sum())
    else:
        host = up.wait()
    return total + float(host.read().sum())


def else_branch_of_completed(s: nx.Stream[nx.Owned], early: bool) -> None:
    host = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if early:
        host = up.wait()
    if up.completed:
        pass
    else:
        host = up.wait()
    host.read()


def guarded_optional(s: nx.Stream[nx.Owned], warm: bool) -> None:
    host = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev) if warm else None
    if up is not None and not up.completed:
        host = up.wait()
    host.read()


def poll_then_wait(s: nx.Stream[nx.Owned]) -> None:
    # done() polls: it says nothing about completion, so the wait() stays needed
    host = nx.pinned_copy(np.zeros(8, np.float32))
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if up.done() and not up.completed:
        host = up.wait()
    else:
        host = up.wait()
    host.read()


s = nx.stream()
assert handler_then_finally(s, True) == 0.0
assert handler_then_finally(s, False) == 0.0
assert read_where_completed(s, True) == 0.0
assert read_where_completed(s, False) == 0.0
else_branch_of_completed(s, True)
else_branch_of_completed(s, False)
guarded_optional(s, True)
guarded_optional(s, False)
poll_then_wait(s)
s.close()
