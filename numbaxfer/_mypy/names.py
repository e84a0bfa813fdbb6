"""Full names of the numbaxfer symbols the plugin recognises, and the attribute sets
that decide what a read of a handle touches."""

from __future__ import annotations

from typing import Final

CONSUMED: Final = "numbaxfer._ownership.Consumed"
TRANSFER: Final = "numbaxfer._transfer.Transfer"
TRANSFER_WAIT: Final = "numbaxfer._transfer.Transfer.wait"
#: Calling a functools.partial: mypy's functools plugin keeps the partially applied
#: signature on the partial's type, which is what the call does.
PARTIAL_CALL: Final = "functools.partial.__call__"
LEND_SCOPE: Final = "numbaxfer._ownership.LendScope"
#: Handles whose metadata (shape, dtype, ...) may be read in any state.
HANDLES: Final = frozenset(
    {"numbaxfer._host.PinnedArray", "numbaxfer._device.DeviceArray", "numbaxfer._stream.Stream"}
)
METADATA: Final = frozenset({"shape", "dtype", "size", "nbytes", "ndim", "label", "closed"})
#: Reads of a transfer that neither complete it nor hand it on.
TRANSFER_NEUTRAL: Final = frozenset({"done", "label", "completed"})
DEBUG_ENV: Final = "NUMBAXFER_MYPY_PLUGIN_DEBUG"
MAX_LOOP_ITERATIONS: Final = 32
MAX_SCOPES: Final = 128
MAX_ALIASES: Final = 256
#: Seconds of analysis one function body (or module top level) may take in all; past
#: that, later calls in it are not re-analysed (see docs/static-checker.md).
SCOPE_BUDGET_S: Final = 5.0
