"""Ordinary cuda.core code (cuda-python's pythonic layer)."""

from typing import reveal_type

from cuda.core import Buffer, Device, LaunchConfig, Program, ProgramOptions, Stream, launch

SRC = 'extern "C" __global__ void k(float* x) { x[threadIdx.x] = 1.0f; }'


def main() -> None:
    dev = Device(0)
    dev.set_current()
    s: Stream = dev.create_stream()
    prog = Program(SRC, code_type="c++", options=ProgramOptions(arch="sm_90"))
    mod = prog.compile("cubin")
    ker = mod.get_kernel("k")
    buf: Buffer = dev.allocate(1024, stream=s)
    launch(s, LaunchConfig(grid=1, block=256), ker, buf)
    s.sync()
    buf.close(s)


reveal_type(Device)
reveal_type(Stream)
reveal_type(Buffer)
reveal_type(launch)
