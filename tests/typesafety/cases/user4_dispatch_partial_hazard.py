# A dispatch table: a dict of functools.partial copy functions, one per destination,
# picked by a route name read from the request. The bug: the transfer the table call
# returns is dropped (the author took the partial for a blocking copy).
# RUN: warns ResourceWarning
from __future__ import annotations

import functools

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 32


def make_request(route: str, value: float) -> tuple[str, Host]:
    buf = nx.pinned_array(N, np.float32)
    with buf.write() as a:
        a[:] = value
    return route, buf


def main() -> None:
    s = nx.stream()
    devs = {name: nx.device_array(N, np.float32) for name in ("weights", "bias")}
    table = {
        "weights": functools.partial(s.upload, to=devs["weights"]),
        "bias": functools.partial(s.upload, to=devs["bias"]),
    }
    requests = [make_request("weights", 1.0), make_request("bias", 2.0)]
    returned: list[Host] = []
    for route, buf in requests:
        send = table[route]
        send(buf)  # E: unfinished-transfer
        returned.append(nx.pinned_array(N, np.float32))
    check = nx.pinned_array(N, np.float32)
    check = s.download(devs["bias"], into=check).wait()
    assert float(check.read()[0]) == 2.0
    print("dispatched", len(returned), "buffers")
    s.close()


main()
