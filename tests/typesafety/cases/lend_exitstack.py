# A lend entered on a contextlib.ExitStack ends with the stack's block: a read of the
# view (or of an alias of it) after the block is a use of an expired lent handle, and
# writing the owner while the stack holds the lend is a BorrowError.
# RUN: raises BorrowError
import contextlib

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def after_block(ref: Host) -> float:
    with contextlib.ExitStack() as stack:
        view = stack.enter_context(ref.lend())
        kept = view
    total = float(kept.read().sum())  # E: lend-escape "kept"
    return total + float(view.read().sum())  # E: lend-escape "is used after its \"with contextlib.ExitStack() as stack\" block"


def owner_written(ref: Host) -> None:
    with contextlib.ExitStack() as stack:
        view = stack.enter_context(ref.lend())
        print(view.shape)
        with ref.write() as a:  # E: owner-borrowed "ref.write()"
            a[:] = 0.0


ref = nx.pinned_copy(np.ones(8, np.float32))
after_block(ref)
