# `await t` on a transfer parameter, then wait(): completed twice.
from typing import Any

import numbaxfer as nx


async def finish(t: nx.Transfer[Any]) -> None:
    await t
    t.wait()  # E: transfer-completed-twice "\"t\" is completed twice" "line 8"
