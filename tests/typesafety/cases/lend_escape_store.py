# A lent handle stored where it outlives its block: an attribute of self, a container
# made before the block, a module global.
import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
View = nx.PinnedArray[nx.Lent, np.float32]
last: View | None = None


class Viewer:
    def __init__(self) -> None:
        self.view: View | None = None
        self.seen: list[View] = []
        self.by_name: dict[str, View] = {}

    def look(self, host: Host) -> None:
        with host.lend() as v:
            self.view = v  # E: lend-escape "\"v\" is stored where it outlives its block" "lent at line 19"
            self.seen.append(v)  # E: lend-escape "\"v\" is put in a container"
            self.by_name["host"] = v  # E: lend-escape "\"v\" is stored"


def remember(host: Host) -> None:
    global last
    with host.lend() as v:
        last = v  # E: lend-escape "\"v\" is stored"


def reread(host: Host) -> float:
    held: list[View] = []
    with host.lend() as v:
        held.append(v)  # E: lend-escape "is put in a container"
    return float(held[0].read().sum())
