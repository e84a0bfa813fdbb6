"""The direct launch path's argument bytes against numba-cuda's own marshalling, on a
CPU: numba's ``_Kernel._prepare_args`` flattens real ``DeviceNDArray`` objects (over a
stand-in pointer; nothing is allocated) and scalars, and the list it makes is packed the
way cuda.core's launch packs it (a Python int as an 8-byte intptr_t, a ctypes scalar as
its own bytes), one 8-byte slot per parameter; the direct path's block must be the same
bytes. Runs in a child process with numba in GPU mode (the suite runs the simulator);
no CUDA driver is needed, since neither side touches the device."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import ctypes, struct, types as pytypes
    import numpy as np
    from numba.cuda.cudadrv.devicearray import DeviceNDArray
    from numba.cuda.dispatcher import _Kernel
    from numba.cuda.typing.typeof import Purpose, typeof
    from numbaxfer._backend._numba import argument_format, array_argument, _scalar_types

    class Memory:  # what DeviceNDArray reads of its gpu_data: the pointer
        def __init__(self, addr):
            self.device_ctypes_pointer = ctypes.c_void_p(addr)

    def numba_bytes(types, values):
        flat = []
        for ty, v in zip(types, values):
            _Kernel._prepare_args(pytypes.SimpleNamespace(extensions=[]), ty, v, 0, [], flat)
        out = b""
        for item in flat:
            raw = struct.pack("<q", item) if type(item) is int else bytes(item)
            out += raw.ljust(8, b"\\0")
        return out

    arrays = [
        ((4, 6), (24, 4), np.float32, 0x7F00_0000_1000),  # C
        ((4, 6), (4, 16), np.float32, 0x7F00_0000_2000),  # F
        ((2, 6), (4, 16), np.float32, 0x7F00_0000_2004),  # a part of an F array: layout A
        ((10,), (8,), np.float32, 0x7F00_0000_3000),  # strided 1-D: layout A
        ((3, 5, 7), (280, 56, 8), np.float64, 0x7F00_0000_4000),  # 3-D C
        ((1000,), (8,), np.int64, 0x7F00_0000_5008),  # at an offset
        ((5, 3), (3, 1), np.uint8, 0x7F00_0000_6003),
    ]
    scalars = [3, -(2**40), 2**63 - 1, 2.5, -0.0, np.float32(1.5), np.float64(-7.25),
               np.int8(-3), np.int16(300), np.int32(-5), np.uint32(4_000_000_000),
               np.uint64(2**64 - 1), np.uint8(200), np.uint16(65535), np.int64(-1)]
    table = _scalar_types()
    checked = 0
    for shape, strides, dtype, addr in arrays:
        dev = DeviceNDArray(shape, strides, np.dtype(dtype), gpu_data=Memory(addr))
        aty = typeof(dev, Purpose.argument)
        for value in scalars:
            sty = table[type(value)]
            assert sty == typeof(value, Purpose.argument), (value, sty)
            types = (aty, sty, aty)
            fmt = argument_format(types)
            assert fmt is not None, types
            seg = array_argument(dev)
            ours = struct.pack(fmt, seg, value, seg)
            theirs = numba_bytes(types, (dev, value, dev))
            assert ours == theirs, (aty, value, ours.hex(), theirs.hex())
            checked += 1
    # what the direct path must leave to numba
    from numba.cuda import types as nt
    for ty in (nt.boolean, nt.complex64, nt.float16, nt.UniTuple(nt.int64, 2)):
        assert argument_format((ty,)) is None, ty
    print("checked", checked)
    """
)


def test_direct_packing_matches_numbas_prepare_args() -> None:
    env = {k: v for k, v in __import__("os").environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["NUMBA_ENABLE_CUDASIM"] = "0"
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "checked 105" in done.stdout
