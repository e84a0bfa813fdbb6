# Resources managed with contextlib.ExitStack, as in code that opens a variable number
# of them: numpy inputs are pinned in place with stack.enter_context(nx.pinned(...)),
# a pinned reference array is lent with stack.enter_context(ref.lend()), and the
# stream is closed by a stack callback. Every transfer completes inside the stack's
# block and the lent view is only read there.
# Bug: a final summary reads the lent view after the ExitStack block ended the lend.
# RUN: raises BorrowError
from __future__ import annotations

import contextlib

import numpy as np
from numpy.typing import NDArray

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def compare(inputs: list[NDArray[np.float32]], ref: Host) -> list[float]:
    n = ref.shape[0]
    diffs: list[float] = []
    with contextlib.ExitStack() as stack:
        s = nx.stream()
        stack.callback(s.close)
        dev = nx.device_array(n, np.float32)
        view = stack.enter_context(ref.lend())
        expected = view.read()
        for arr in inputs:
            h = stack.enter_context(nx.pinned(arr))
            up = s.upload(h, to=dev)
            h = up.wait()
            diffs.append(float(np.abs(h.read() - expected).max()))
    diffs.append(float(view.read().sum()))  # E: lend-escape "view"
    return diffs


def main(n: int = 8) -> list[float]:
    ref = nx.pinned_copy(np.ones(n, np.float32))
    inputs = [np.ones(n, np.float32), np.full(n, 3.0, np.float32)]
    got = compare(inputs, ref)
    with ref.write() as a:
        a[:] = 0.0
    assert got == [0.0, 2.0, float(n)], got
    return got


main()
