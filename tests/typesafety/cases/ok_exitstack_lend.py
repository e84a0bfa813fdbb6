# Lends entered on a contextlib.ExitStack end when the stack's block ends: inside it the
# view is usable and the owner readable. Where the stack may outlive the block
# (pop_all(), passed to a helper) the lend is not tied to the block: silence.
# RUN: ok
import contextlib

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def inside(ref: Host) -> float:
    with contextlib.ExitStack() as stack:
        view = stack.enter_context(ref.lend())
        total = float(view.read().sum()) + float(ref.read().sum())
        total += view.shape[0]
    print(view.shape)  # metadata of an ended view: readable
    with ref.write() as a:  # the lend has ended with the stack
        a[:] = 2.0
    return total


def popped(ref: Host) -> float:
    with contextlib.ExitStack() as stack:
        view = stack.enter_context(ref.lend())
        later = stack.pop_all()
    total = float(view.read().sum())  # still lent: the stack moved to `later`
    later.close()
    return total


def enter(stack: contextlib.ExitStack, ref: Host) -> None:
    stack.enter_context(ref.lend())


def helper_stack(ref: Host) -> float:
    with contextlib.ExitStack() as stack:
        view = stack.enter_context(ref.lend())
        enter(stack, ref)
        total = float(view.read().sum())
    return total


ref = nx.pinned_copy(np.ones(8, np.float32))
assert inside(ref) == 24.0
assert popped(ref) == 16.0
assert helper_stack(ref) == 16.0
