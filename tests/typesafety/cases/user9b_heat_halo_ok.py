# RUN: ok
"""1-D heat equation on two subdomains, halo cells exchanged through pinned host buffers."""
from __future__ import annotations

from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx

N_LOCAL = 64
ALPHA = 0.2
F32 = np.float32


@cuda.jit
def step(u: Any, ghosts: Any, out: Any, alpha: float) -> None:
    i = cuda.grid(1)
    n = u.size
    if i < n:
        left = ghosts[0] if i == 0 else u[i - 1]
        right = ghosts[1] if i == n - 1 else u[i + 1]
        out[i] = u[i] + alpha * (left - 2.0 * u[i] + right)


@cuda.jit
def pack_edges(u: Any, edges: Any) -> None:
    if cuda.grid(1) == 0:
        edges[0] = u[0]
        edges[1] = u[u.size - 1]


class Subdomain:
    def __init__(self, init: np.ndarray[Any, Any]) -> None:
        self.stream = nx.stream()
        self.u = nx.device_array(N_LOCAL, F32)
        self.tmp = nx.device_array(N_LOCAL, F32)
        self.edges_dev = nx.device_array(2, F32)
        self.ghost_dev = nx.device_array(2, F32)
        host = nx.pinned_copy(init.astype(F32))
        host = self.stream.upload(host, to=self.u).wait()
        host.free()

    def start_edges(self, edges: nx.Consumed[nx.PinnedArray[nx.Owned, np.float32]]) -> nx.Transfer[nx.PinnedArray[nx.Owned, np.float32]]:
        self.stream.launch(pack_edges, 1, 32, self.u, self.edges_dev)
        return self.stream.download(self.edges_dev, into=edges)

    def advance(self, ghosts: nx.Consumed[nx.PinnedArray[nx.Owned, np.float32]]) -> nx.PinnedArray[nx.Owned, np.float32]:
        up = self.stream.upload(ghosts, to=self.ghost_dev)
        self.stream.launch(step, 2, 32, self.u, self.ghost_dev, self.tmp, ALPHA)
        self.stream.copy(self.tmp, to=self.u).wait()
        return up.wait()


def main() -> None:
    x = np.linspace(0.0, 1.0, 2 * N_LOCAL, dtype=F32)
    init = np.exp(-50.0 * (x - 0.5) ** 2)
    left, right = Subdomain(init[:N_LOCAL]), Subdomain(init[N_LOCAL:])
    le, re = nx.pinned_array(2, F32), nx.pinned_array(2, F32)
    lg, rg = nx.pinned_array(2, F32), nx.pinned_array(2, F32)
    for it in range(20):
        tl, tr = left.start_edges(le), right.start_edges(re)
        le, re = tl.wait(), tr.wait()
        l_edges, r_edges = le.read(), re.read()
        with lg.write() as g:
            g[0], g[1] = l_edges[0], r_edges[0]   # insulated left wall, neighbour right
        with rg.write() as g:
            g[0], g[1] = l_edges[1], r_edges[1]
        lg = left.advance(lg)
        rg = right.advance(rg)
    out = nx.pinned_array(N_LOCAL, F32)
    out = left.stream.download(left.u, into=out).wait()
    print(f"left half mass after 20 steps: {float(out.read().sum()):.4f}")
    left.stream.close()
    right.stream.close()


if __name__ == "__main__":
    main()
