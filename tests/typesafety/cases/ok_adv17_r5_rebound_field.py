# Rule 5, correct: an object built from a lent view inside the block; after the block,
# its field is rebound (by a method, or directly) to an owned buffer before a method
# reads it.
# (from the adversarial review of session 17's rules)
# RUN: ok
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Lent = nx.PinnedArray[nx.Lent, np.float32]


class Stats:
    def __init__(self, view: Lent) -> None:
        self.view = view

    def attach(self, view: Lent) -> None:
        self.view = view

    def peak(self) -> float:
        return float(self.view.read().max())


def reattached(buf: Host, spare: Host) -> float:
    with buf.lend() as view:
        st = Stats(view)
        first = st.peak()
    st.attach(spare)
    return first + st.peak()


def direct(buf: Host, spare: Host) -> float:
    with buf.lend() as view:
        st = Stats(view)
        first = st.peak()
    st.view = spare
    return first + st.peak()


def relent(buf: Host) -> float:
    with buf.lend() as view:
        st = Stats(view)
        first = st.peak()
    with buf.lend() as again:
        st.attach(again)
        second = st.peak()
    return first + second


a = nx.pinned_array(8, np.float32)
b = nx.pinned_array(8, np.float32)
reattached(a, b)
direct(a, b)
relent(a)
