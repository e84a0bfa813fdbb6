# RUN: ok
# The upload completed through an alias (t = job.upload) before the close; the later wait is under `if not job.upload.completed`. (Found by an adversarial review.)
"""Dataclass job: the upload completed through an alias before the close; the field
then replaced by the completed result check."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]


@dataclass
class Job:
    stream: nx.Stream[nx.Owned]
    upload: nx.Transfer[Host]


def main() -> None:
    dev = nx.device_array(8, np.float32)
    s = nx.stream()
    job = Job(stream=s, upload=s.upload(nx.pinned_array(8, np.float32), to=dev))
    t = job.upload
    h = t.wait()
    job.stream.close()
    if not job.upload.completed:
        h = job.upload.wait()
    print(h.read()[0])


if __name__ == "__main__":
    main()
