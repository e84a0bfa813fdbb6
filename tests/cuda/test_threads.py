"""Two threads moving one handle at once: exactly one transfer starts."""

from __future__ import annotations

import threading

import numpy as np

import numbaxfer as nx


def race_two_uploads() -> tuple[int, int]:
    host = nx.pinned_array(256, np.float32)
    streams = [nx.stream(), nx.stream()]
    devs = [nx.device_array(256, np.float32) for _ in streams]
    barrier = threading.Barrier(2)
    started: list[nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]]] = []
    refused: list[Exception] = []

    def upload(i: int) -> None:
        barrier.wait()
        try:
            started.append(streams[i].upload(host, to=devs[i]))
        except nx.UseAfterTransferError as e:
            refused.append(e)

    threads = [threading.Thread(target=upload, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for transfer in started:
        transfer.wait()
    return len(started), len(refused)


def test_two_threads_uploading_one_array_exactly_one_succeeds() -> None:
    for _ in range(50):
        assert race_two_uploads() == (1, 1)
