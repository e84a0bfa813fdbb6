# RUN: warns ResourceWarning anywhere
import numpy as np

import numbaxfer as nx


def f() -> None:
    s = nx.stream()
    src, out = nx.pinned_array(8, np.float32), nx.pinned_array(8, np.float32)
    dev = nx.device_array(8, np.float32)
    with nx.capture(s) as cap:
        up = s.upload(src, to=dev)
        down = s.download(dev, into=out)
    src, out = up.wait(), down.wait()
    run = cap.graph.replay(src, out)  # E: unfinished-transfer "\"run\"" "is never completed"


f()
