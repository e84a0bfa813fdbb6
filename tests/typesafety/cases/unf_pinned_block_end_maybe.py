# A transfer of a pinned-in-place handle completed on one path only; and a block left
# early by return while its download is pending. Both blocks raise at their exit.
import numpy as np

import numbaxfer as nx

Dev = nx.DeviceArray[nx.Owned, np.float32]


def send(s: nx.Stream[nx.Owned], dev: Dev, a: np.ndarray, now: bool) -> None:
    up: nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]] | None
    with nx.pinned(a) as h:  # E: unfinished-transfer "Transfer \"up\"" "may still be unfinished when this block ends" "on some path"
        up = s.upload(h, to=dev)
        if now:
            h = up.wait()
            up = None
    if up is not None:
        h = up.wait()


def fetch(s: nx.Stream[nx.Owned], dev: Dev, out: np.ndarray) -> nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]]:
    with nx.pinned(out) as h:  # E: unfinished-transfer "Transfer \"down\"" "is still unfinished"
        down = s.download(dev, into=h)
        return down
