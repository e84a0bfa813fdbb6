"""numbaxfer's typed stubs for ``numba.cuda.core`` (numba-cuda 0.30.x).

Only the ``config`` submodule is described.
"""  # noqa: PYI021
