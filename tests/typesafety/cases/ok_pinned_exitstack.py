# nx.pinned() blocks entered on a contextlib.ExitStack (and plain ones), used correctly:
# every transfer completes inside the stack's block; after it the numpy arrays are
# used, or a handle name is rebound first; a handle name the body rebinds to another
# buffer is not the block's handle any more. No report.
# RUN: ok
import contextlib

import numpy as np

import numbaxfer as nx


def roundtrip(s: nx.Stream[nx.Owned], a: np.ndarray, out: np.ndarray) -> float:
    dev = nx.device_array(a.shape[0], np.float32)
    with contextlib.ExitStack() as stack:
        ha = stack.enter_context(nx.pinned(a))
        ho = stack.enter_context(nx.pinned(out))
        ha = s.upload(ha, to=dev).wait()
        ho = s.download(dev, into=ho).wait()
        print(ho.shape)
    print(ha.shape, ho.nbytes, ha)  # metadata and formatting only
    return float(out[0]) + float(a[0])


def many(s: nx.Stream[nx.Owned], arrays: list[np.ndarray]) -> float:
    dev = nx.device_array(arrays[0].shape[0], np.float32)
    with contextlib.ExitStack() as stack:
        for arr in arrays:
            h = stack.enter_context(nx.pinned(arr))
            h = s.upload(h, to=dev).wait()
    return float(sum(float(x[0]) for x in arrays))


def rebound_after(s: nx.Stream[nx.Owned], a: np.ndarray) -> float:
    dev = nx.device_array(a.shape[0], np.float32)
    with nx.pinned(a) as h:
        h = s.upload(h, to=dev).wait()
    h = nx.pinned_copy(a)
    return float(h.read()[0])


def rebound_inside(s: nx.Stream[nx.Owned], a: np.ndarray) -> float:
    dev = nx.device_array(a.shape[0], np.float32)
    with contextlib.ExitStack() as stack:
        h = stack.enter_context(nx.pinned(a))
        h = s.upload(h, to=dev).wait()
        h = nx.pinned_copy(a)  # another buffer, not the block's
    return float(h.read()[0])


s = nx.stream()
assert roundtrip(s, np.ones(8, np.float32), np.zeros(8, np.float32)) == 2.0
assert many(s, [np.ones(4, np.float32), np.ones(4, np.float32)]) == 2.0
assert rebound_after(s, np.ones(4, np.float32)) == 1.0
assert rebound_inside(s, np.ones(4, np.float32)) == 1.0
s.close()
