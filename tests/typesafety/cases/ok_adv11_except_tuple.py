# RUN: ok
# The program's parser raises ParseError or RangeError, only after the buffer is back
# from its download; handlers (one per class, a tuple of both, a common base) read it.
from __future__ import annotations

import numpy as np

import numbaxfer as nx

Host = nx.PinnedArray[nx.Owned, np.float32]
Dev = nx.DeviceArray[nx.Owned, np.float32]
N = 8


class AppError(Exception):
    pass


class ParseError(AppError):
    pass


class RangeError(AppError):
    pass


def parse(h: Host, limit: float) -> float:
    v = h.read()
    if not np.isfinite(v).all():
        raise ParseError("non-finite values")
    if float(v.max()) > limit:
        raise RangeError(f"max {float(v.max())} over {limit}")
    return float(v.sum())


def main() -> None:
    s = nx.stream()
    dev = nx.device_array(N, np.float32)
    s.upload_staged(np.full(N, 5.0, dtype=np.float32), to=dev).wait()
    host = nx.pinned_array(N, np.float32)
    for limit in (1.0, 10.0):
        try:
            down = s.download(dev, into=host)
            host = down.wait()
            print("sum", parse(host, limit))
        except ParseError:
            print("unparsable", host.read()[:2])
        except RangeError:
            print("out of range", host.read()[:2])
        try:
            down = s.download(dev, into=host)
            host = down.wait()
            print("sum", parse(host, limit))
        except (ParseError, RangeError) as e:
            print("rejected:", e, host.read()[:2])
        try:
            down = s.download(dev, into=host)
            host = down.wait()
            print("sum", parse(host, limit))
        except AppError as e:
            print("app error:", e, host.read()[:2])
    s.close()


if __name__ == "__main__":
    main()
