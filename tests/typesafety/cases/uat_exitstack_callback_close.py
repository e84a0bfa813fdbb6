# RUN: raises StreamClosedError
# stack.callback(s.close) closes the stream when the ExitStack's block ends: a use of
# the stream after the block is refused (StreamClosedError); inside the block it is not.
from __future__ import annotations

from contextlib import ExitStack

import numpy as np

import numbaxfer as nx


def main() -> None:
    dev = nx.device_array(8, np.float32)
    with ExitStack() as stack:
        s = nx.stream()
        stack.callback(s.close)
        host = s.upload(nx.pinned_array(8, np.float32), to=dev).wait()
    out = s.download(dev, into=host).wait()  # E: use-after-transfer "its callback registered there"
    out.free()


if __name__ == "__main__":
    main()
