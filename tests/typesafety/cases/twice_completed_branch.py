# Near misses of the `t.completed` narrowing: a wait() where it is True completes a
# second time; a read where it is False reads a moved buffer; a completion into another
# name leaves the buffer moved where `completed` is True.
import numpy as np

import numbaxfer as nx


def wait_where_completed(s: nx.Stream[nx.Owned], early: bool) -> None:
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if early:
        host = up.wait()
    if up.completed:
        host = up.wait()  # E: transfer-completed-twice "is completed twice"
    else:
        host = up.wait()
    host.read()


def read_where_not_completed(s: nx.Stream[nx.Owned], early: bool) -> None:
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if early:
        host = up.wait()
    if not up.completed:  # (the analysis keeps no link from host to that path: "may")
        host.read()  # E: use-after-transfer "may be used"
        host = up.wait()


def completed_into_other_name(s: nx.Stream[nx.Owned], early: bool) -> None:
    host = nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    up = s.upload(host, to=dev)
    if early:
        other = up.wait()
        other.read()
    if up.completed:
        host.read()  # E: use-after-transfer "is used"
    else:
        host = up.wait()
