"""`make demo`: the async-copy race, what numbaxfer says about it, and the fix.

On a GPU host it runs on the GPU; elsewhere on numbaxfer's lazy CPU emulator, where a
copy touches host memory only when something forces it, as on a GPU, so the race
gives the wrong number on a CPU too, every time.
"""

from __future__ import annotations

import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from numbaxfer._backend import gpu_present  # noqa: E402  (numba is not imported yet)

ON_GPU = gpu_present() and os.environ.get("NUMBA_ENABLE_CUDASIM") != "1"
if not ON_GPU:
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    os.environ["NUMBAXFER_BACKEND"] = "emulator"

import numpy as np  # noqa: E402

import numbaxfer as nx  # noqa: E402
from numbaxfer._backend import get_backend  # noqa: E402

N = 1_000_000
TRIALS = 20


def raw_cuda() -> Any:
    """numba.cuda on a GPU; the same calls on the lazy emulator, unchecked, elsewhere."""
    if ON_GPU:
        from numba import cuda

        return cuda
    from numbaxfer._backend._emulator import EmulatorBackend, RawEmulatedCuda

    backend = get_backend()
    assert isinstance(backend, EmulatorBackend)
    return RawEmulatedCuda(backend)


def raw_numba_program(cuda: Any) -> float:
    """The seed program, the numba way: nothing stops the write racing the copy."""
    s = cuda.stream()
    host = cuda.pinned_array(N, np.float32)
    dev = cuda.device_array(N, np.float32)
    host[:] = 1.0
    dev.copy_to_device(host, stream=s)  # async: the copy reads host later
    host[-1] = 2.0  # the CPU runs on and writes
    s.synchronize()
    return float(dev.copy_to_host()[-1])  # should be 1.0


def static_check() -> list[str]:
    """mypy with numbaxfer's plugin on examples/bugs/seed_bug.py."""
    try:
        from mypy import api
    except ImportError:
        return ["(mypy is not installed: `make demo` installs it in .venv)"]
    out, err, _ = api.run(
        [
            "--config-file",
            str(ROOT / "mypy.ini"),
            "--no-incremental",
            str(HERE / "bugs" / "seed_bug.py"),
        ]
    )
    lines = [ln.replace(str(ROOT) + os.sep, "") for ln in (out + err).splitlines()]
    return [ln for ln in lines if ln.strip()]


def run_bug() -> tuple[str, str]:
    """Run examples/bugs/seed_bug.py; return where it raised and the message."""
    try:
        runpy.run_path(str(HERE / "bugs" / "seed_bug.py"), run_name="seed_bug")["main"]()
    except nx.UseAfterTransferError as e:
        frame = traceback.extract_tb(e.__traceback__)
        mine = [f for f in frame if f.filename.endswith("seed_bug.py")]
        where = f"examples/bugs/seed_bug.py:{mine[-1].lineno}" if mine else "?"
        return where, str(e).replace(str(ROOT) + os.sep, "")
    return "(not raised)", ""


def main() -> int:
    device = get_backend().describe()
    print(f"numbaxfer demo: an async copy races the CPU\n  on: {device}\n")

    print("1. The bug, written the numba way (no numbaxfer)")
    print("     host[:] = 1.0")
    print("     dev.copy_to_device(host, stream=s)   # returns at once; the copy reads later")
    print("     host[-1] = 2.0                       # the CPU writes while it copies")
    cuda = raw_cuda()
    values = [raw_numba_program(cuda) for _ in range(TRIALS)]
    wrong = sum(v != 1.0 for v in values)
    print(
        f"   device's last element should be 1.0; it was {values[0]} in trial 1 and wrong in "
        f"{wrong} of {TRIALS} trials. No error, no warning.\n"
    )

    print("2. The same program with numbaxfer, checked by mypy (the static check)")
    print("     up = s.upload(host, to=dev)          # host MOVES into the transfer")
    print("     with host.write() as a: ...          # use of a moved buffer")
    report = static_check()
    for line in report:
        print(f"   {line}")
    flagged = any("use-after-transfer" in ln for ln in report)
    print()

    print("3. ...and run (the runtime check, for code mypy never saw)")
    where, message = run_bug()
    print(f"   nx.UseAfterTransferError at {where}:\n   {message}\n")

    print("4. The corrected program (examples/seed_fixed.py): host = up.wait(), then write")
    fixed = runpy.run_path(str(HERE / "seed_fixed.py"), run_name="seed_fixed")["main"]
    results = [fixed(N) for _ in range(TRIALS)]
    right = sum(r == 1.0 for r in results)
    print(f"   device's last element: {results[0]}; right in {right} of {TRIALS} trials\n")

    rows = [
        ("raw numba", f"wrong in {wrong}/{TRIALS}", "silent"),
        ("numbaxfer + mypy", "not run", "flagged" if flagged else "NOT flagged"),
        ("numbaxfer at run time", "not run", f"raised at {where}"),
        ("numbaxfer, corrected", f"right in {right}/{TRIALS}", "clean"),
    ]
    width = max(len(r[0]) for r in rows)
    print("Summary (" + ("GPU" if ON_GPU else "CPU emulator") + f", {N:,} float32)")
    print(f"  {'program':<{width}}  {'result':<16}  checkers")
    for name, result, checkers in rows:
        print(f"  {name:<{width}}  {result:<16}  {checkers}")
    ok = wrong > 0 and where != "(not raised)" and right == TRIALS
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
