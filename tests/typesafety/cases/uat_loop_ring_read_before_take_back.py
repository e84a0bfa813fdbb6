# RUN: raises UseAfterTransferError
# A loop over a ring of slots that reads slot k before its own take-back of slot k
# (bufs[k] = pending.wait()) and then moves bufs[k] again: at the read the slot may
# still be in flight from an earlier iteration.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


def stream_frames(count: int) -> None:
    s = nx.stream()
    bufs = [nx.pinned_array(8, np.float32) for _ in range(2)]
    devs = [nx.device_array(8, np.float32) for _ in range(2)]
    inflight: list[nx.Transfer[Host] | None] = [None, None]
    for i in range(count):
        k = i % 2
        pending = inflight[k]
        with bufs[k].write() as v:  # E: use-after-transfer "\"bufs[k]\" may be used after it was moved into Stream.upload() at line 24 (in an earlier loop iteration)"
            v[:] = float(i)
        if pending is not None:
            bufs[k] = pending.wait()
        inflight[k] = s.upload(bufs[k], to=devs[k])
    for k, t in enumerate(inflight):
        if t is not None:
            bufs[k] = t.wait()
    s.close()


def while_ring(count: int) -> None:
    s = nx.stream()
    slots = [nx.pinned_array(8, np.float32) for _ in range(3)]
    dev = nx.device_array(8, np.float32)
    pend: list[nx.Transfer[Host] | None] = [None, None, None]
    i = 0
    while i < count:
        j = i % 3
        print(slots[j].read()[0])  # E: use-after-transfer "(in an earlier loop iteration)"
        t = pend[j]
        if t is not None:
            slots[j] = t.wait()
        pend[j] = s.download(dev, into=slots[j])
        i += 1
    for j, t in enumerate(pend):
        if t is not None:
            slots[j] = t.wait()
    s.close()


if __name__ == "__main__":
    stream_frames(5)
