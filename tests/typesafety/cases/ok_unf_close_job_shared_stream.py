# RUN: ok
# A NamedTuple job whose upload was started on a shared stream, not on job.stream: closing job.stream before job.upload.wait() is fine (the class does not say which stream the transfer is on: silence). (Found by an adversarial review.)
"""NamedTuple job whose own stream runs kernels; its upload is on a shared stream."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


class Job(NamedTuple):
    stream: nx.Stream[nx.Owned]
    upload: nx.Transfer[Host]


def main() -> None:
    shared = nx.stream()
    dev = nx.device_array(8, np.float32)
    h = nx.pinned_array(8, np.float32)
    job = Job(stream=nx.stream(), upload=shared.upload(h, to=dev))
    job.stream.close()  # nothing was started on job.stream
    h = job.upload.wait()
    print(h.read()[0])
    shared.close()


if __name__ == "__main__":
    main()
