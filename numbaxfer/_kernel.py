"""``nx.kernel``: a numba kernel with declared intents (which parameters it reads and
which it writes), so launches can order cross-stream work precisely and accept
``Lent`` device arrays where the kernel only reads."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from ._stream import Stream

__all__ = ["Kernel", "kernel"]

READ: Final = 1
WRITE: Final = 2


class Kernel:
    """A ``numba.cuda.jit`` dispatcher plus, for each parameter, whether the kernel
    reads it, writes it (a write may also read), or neither (scalars).

    Launch with ``stream.launch(k, grid, block, *args)`` or, numba style,
    ``k[grid, block, stream](*args)``: the stream must be a numbaxfer stream. Device
    arrays passed for ``reads`` parameters may be ``Lent``; ``writes`` parameters need
    an ``Owned`` array. Passing a device array for an undeclared parameter is refused.
    """

    __slots__ = ("dispatcher", "intents", "name", "params")

    def __init__(self, dispatcher: Any, reads: Iterable[str], writes: Iterable[str]) -> None:
        py_func = getattr(dispatcher, "py_func", None) or getattr(dispatcher, "fn", None)
        if py_func is None:
            raise TypeError(
                f"nx.kernel() wraps a numba.cuda.jit kernel, got {type(dispatcher).__name__}"
            )
        self.dispatcher = dispatcher
        self.name: str = py_func.__name__
        self.params: tuple[str, ...] = tuple(inspect.signature(py_func).parameters)
        reads, writes = tuple(reads), tuple(writes)
        unknown = [p for p in reads + writes if p not in self.params]
        if unknown:
            raise ValueError(
                f"nx.kernel({self.name}): {', '.join(unknown)} not among its parameters "
                f"({', '.join(self.params)})"
            )
        both = set(reads) & set(writes)
        if both:
            raise ValueError(
                f"nx.kernel({self.name}): {', '.join(sorted(both))} declared in both reads "
                "and writes; a written parameter may also be read: list it in writes only."
            )
        self.intents: tuple[int, ...] = tuple(
            WRITE if p in writes else READ if p in reads else 0 for p in self.params
        )

    def __repr__(self) -> str:
        rw = {READ: "reads", WRITE: "writes"}
        parts = [f"{p}: {rw[i]}" for p, i in zip(self.params, self.intents, strict=True) if i]
        return f"<nx.kernel {self.name}({', '.join(parts)})>"

    def __getitem__(self, config: tuple[Any, ...]) -> Callable[..., None]:
        """``k[grid, block, stream](*args)``: launch on a numbaxfer stream."""
        from ._stream import Stream

        if len(config) != 3 or not isinstance(config[2], Stream):
            raise TypeError(
                f"{self.name}[grid, block, stream]: the third item must be a numbaxfer "
                "stream (nx.stream()); numbaxfer launches only on explicit streams."
            )
        griddim, blockdim, stream = config
        launch_on: Stream[Any] = stream

        def launch(*args: Any) -> None:
            launch_on.launch(self, griddim, blockdim, *args)

        return launch


def kernel(*, reads: Iterable[str] = (), writes: Iterable[str] = ()) -> Callable[[Any], Kernel]:
    """Declare a kernel's intents::

    @nx.kernel(reads=["src"], writes=["dst"])
    @cuda.jit
    def affine(src, dst): ...

    s.launch(affine, grid, block, src_dev, dst_dev)   # or affine[grid, block, s](...)
    """
    reads, writes = tuple(reads), tuple(writes)

    def wrap(dispatcher: Any) -> Kernel:
        return Kernel(dispatcher, reads, writes)

    return wrap
