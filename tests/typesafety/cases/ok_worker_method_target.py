# RUN: ok
# A background uploader: the thread's target is a bound method that uploads self.host,
# keeps the transfer in self.up, and the main thread takes the buffer back after join().
# A second worker uploads and takes back on its own. Correct.
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
N = 32


class Uploader:
    def __init__(self) -> None:
        self.s = nx.stream()
        self.dev = nx.device_array(N, np.float32)
        self.host: Host = nx.pinned_copy(np.ones(N, np.float32))
        self.up: nx.Transfer[Host] | None = None

    def _start(self) -> None:
        self.up = self.s.upload(self.host, to=self.dev)

    def _round(self) -> None:
        self.host = self.s.upload(self.host, to=self.dev).wait()

    def run_thread(self) -> float:
        worker = threading.Thread(target=self._start)
        worker.start()
        worker.join()
        if self.up is not None:
            self.host = self.up.wait()
            self.up = None
        return float(self.host.read().sum())

    def run_pool(self) -> float:
        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(self._round).result()
        return float(self.host.read().sum())

    def close(self) -> None:
        self.host.free()
        self.dev.free()
        self.s.close()


def main() -> None:
    u = Uploader()
    print(u.run_thread())
    print(u.run_pool())
    u.close()


main()
