# Test code: a call refused inside `with pytest.raises(...)` moves nothing (the runtime
# refuses before it enqueues), and the block ends by that exception, so the buffer is
# still owned after the block: reading it, or moving it for real, is correct.
# RUN: ok
import numpy as np
import pytest

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def test_a_closed_stream_refuses_and_keeps_the_buffer() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    host = nx.pinned_copy(np.full(8, 3.0, np.float32))
    closed = nx.stream()
    closed.close()
    with pytest.raises(nx.StreamClosedError):
        closed.upload(host, to=dev)
    assert host.read()[0] == 3.0
    host = s.upload(host, to=dev).wait()
    with pytest.raises(nx.StreamClosedError, match="closed"):
        closed.download(dev, into=host).wait()
    assert host.read()[0] == 3.0
    host.free()
    s.close()


def test_a_lent_owner_refuses_to_move() -> None:
    s = nx.stream()
    dev = nx.device_array(8, np.float32)
    host = nx.pinned_array(8, np.float32)
    view = host.lend()
    with view:
        with pytest.raises(nx.BorrowError):
            s.upload(host, to=dev)
    host = s.upload(host, to=dev).wait()
    print(host.shape)
    s.close()


test_a_closed_stream_refuses_and_keeps_the_buffer()
test_a_lent_owner_refuses_to_move()
