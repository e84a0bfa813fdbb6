# An nx.pinned() block entered on a contextlib.ExitStack ends when the stack's block
# ends: a transfer still pending on its handle there makes that exit raise
# UnfinishedTransferError, as a `with nx.pinned(a) as h:` block ending under it does.
# RUN: raises UnfinishedTransferError
import contextlib

import numpy as np

import numbaxfer as nx


def upload_all(s: nx.Stream[nx.Owned], a: np.ndarray, b: np.ndarray) -> None:
    dev_a = nx.device_array(a.shape[0], np.float32)
    dev_b = nx.device_array(b.shape[0], np.float32)
    with contextlib.ExitStack() as stack:  # E: unfinished-transfer "Transfer \"up_b\" (started at line 19 by Stream.upload() with \"hb\") is still unfinished when the \"with contextlib.ExitStack() as stack\" block that the pin at line 17 was entered on ends (line 20)" "\"hb = up_b.wait()\""
        ha = stack.enter_context(nx.pinned(a))
        hb = stack.enter_context(nx.pinned(b))
        up_a = s.upload(ha, to=dev_a)
        up_b = s.upload(hb, to=dev_b)
        ha = up_a.wait()
    hb = up_b.wait()


s = nx.stream()
upload_all(s, np.ones(8, np.float32), np.zeros(8, np.float32))
s.close()
