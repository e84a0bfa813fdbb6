# A function taking a Lent handle keeps it in a module-level registry: the registry
# outlives the caller's lend block, so the handle is expired when it is read later.
# (No RUN header: the store itself raises nothing at run time; the later read does,
# in another function.)
from __future__ import annotations

import numpy as np

import numbaxfer as nx

View = nx.DeviceArray[nx.Lent, np.float32]
_REGISTRY: dict[str, View] = {}
_RECENT: list[View] = []


def register(name: str, view: View) -> None:
    _REGISTRY[name] = view  # E: lend-escape "view" "module global"
    _RECENT.append(view)  # E: lend-escape "view" "module global"


def describe(view: View) -> str:
    local: dict[str, View] = {"v": view}  # a local container dies with the call: fine
    return str(local["v"].shape)


dev = nx.device_array(4, np.float32)
with dev.lend() as v:
    register("dev", v)
    print(describe(v))
