# A command-line tool: main(argv) parses arguments, uploads the input, runs a kernel and
# downloads the result, with early exits for --dry-run and for a failed sanity check.
# BUG: the --dry-run exit returns without waiting the upload (the run time refuses the
# s.close() there with StreamClosedError, on a line the checker need not flag: no RUN).
from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from numba import cuda

import numbaxfer as nx


@cuda.jit
def clip(a: Any, lo: float, hi: float) -> None:
    i = cuda.grid(1)
    if i < a.size:
        a[i] = min(max(a[i], lo), hi)


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="clipper")
    p.add_argument("--n", type=int, default=16)
    p.add_argument("--lo", type=float, default=2.0)
    p.add_argument("--hi", type=float, default=10.0)
    p.add_argument("--dry-run", action="store_true")
    return p.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse(argv)
    if args.n <= 0 or args.lo > args.hi:
        print("nothing to do")
        return 2
    s = nx.stream()
    host = nx.pinned_copy(np.arange(args.n, dtype=np.float32))
    dev = nx.device_array(args.n, np.float32)
    up = s.upload(host, to=dev)  # E: unfinished-transfer "up" "on some path"
    if args.dry_run:
        print(f"would clip {args.n} values to [{args.lo}, {args.hi}]")
        s.close()  # E: unfinished-transfer "is closed"
        return 0
    s.launch(clip, 1, args.n, dev, args.lo, args.hi)
    host = up.wait()
    host = s.download(dev, into=host).wait()
    values = host.read()
    if values.min() < args.lo:
        print("clip failed")
        s.close()
        return 1
    print(f"clipped: min {values.min()} max {values.max()}")
    s.close()
    return 0


assert main(["--n", "16"]) == 0
assert main(["--dry-run"]) == 0
assert main(["--lo", "5", "--hi", "1"]) == 2
