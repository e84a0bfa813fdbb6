# The handle of an nx.pinned() block used after the block: its exit expired the handle
# (the memory is unpinned): at run time a use raises BorrowError. The same
# for a block entered on a contextlib.ExitStack (it ends with the stack's block), for
# several arrays and for nx.mapped().
# RUN: raises BorrowError
import contextlib

import numpy as np

import numbaxfer as nx


def after_with(s: nx.Stream[nx.Owned], a: np.ndarray) -> float:
    dev = nx.device_array(a.shape[0], np.float32)
    with nx.pinned(a) as h:
        h = s.upload(h, to=dev).wait()
    print(h.shape, h)  # metadata and formatting: no use
    return float(h.read()[0])  # E: use-after-transfer "\"h\" (pinned in place at line 15) is used after its block ended: it was the handle of an nx.pinned() block that ended at line 16; the memory is unpinned"


def after_stack(s: nx.Stream[nx.Owned], a: np.ndarray, b: np.ndarray) -> float:
    dev = nx.device_array(a.shape[0], np.float32)
    with contextlib.ExitStack() as stack:
        ha, hb = stack.enter_context(nx.pinned(a, b))
        ha = s.upload(ha, to=dev).wait()
        hb = s.download(dev, into=hb).wait()
    total = float(hb.read()[0])  # E: use-after-transfer "\"hb\" (pinned in place at line 24) is used after its block ended" "ended at line 26"
    return total + float(ha.read()[0])  # E: use-after-transfer "\"ha\" (pinned in place at line 24) is used"


def maybe_after(s: nx.Stream[nx.Owned], a: np.ndarray, again: bool) -> float:
    dev = nx.device_array(a.shape[0], np.float32)
    h = nx.pinned_copy(a)
    if again:
        with contextlib.ExitStack() as stack:
            h = stack.enter_context(nx.pinned(a))
            h = s.upload(h, to=dev).wait()
    return float(h.read()[0])  # E: use-after-transfer "\"h\" (pinned in place at line 36) may be used after its block ended on some path"


def mapped_after(s: nx.Stream[nx.Owned], a: np.ndarray) -> float:
    with nx.mapped(a) as m:
        mp = s.map(m)
        m = mp.wait()
    return float(m.read()[0])  # E: use-after-transfer "\"m\" (pinned in place at line 42) is used after its block ended"


s = nx.stream()
after_with(s, np.ones(8, np.float32))
s.close()
