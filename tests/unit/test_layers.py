"""The library's private modules form layers: each imports only from the layers below it.

Shared state (stream cores, device-order tracking, keep-alive) lives in low modules, so
that no handle module needs another handle module above it. Every import counts: at
module level, under ``TYPE_CHECKING`` and inside functions.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "numbaxfer"

#: Lowest first. A module may import modules of its own layer only where listed together
#: here with a reason; none is.
LAYERS: list[set[str]] = [
    {"_errors", "_wording"},
    {"_ownership", "_util", "_trace"},
    {"_guard"},
    {
        "_backend",
        "_backend._numba",
        "_backend._emulator",
        "_backend._simkernel",
        "_backend._record",
    },
    {"_lifetime", "_staging"},
    {"_order"},
    {"_host"},
    {"_device"},
    {"_mapped"},
    {"_checks", "_parts"},
    {"_transfer"},
    {"_scope"},
    {"_stream"},
    {"_interop", "_graph"},
    {"_pool", "_pipeline"},
    {"__init__"},
    {"testing"},
]

#: The mypy plugin's package, lowest first; it imports nothing of the library above.
PLUGIN_LAYERS: list[set[str]] = [
    {"_wording"},  # the wording shared with the runtime: plain strings, no imports
    {"_mypy.memo"},
    {"_mypy", "_mypy.names", "_mypy.rules.codes"},
    {"_mypy.state"},
    {"_mypy.paths"},
    {"_mypy.syntax", "_mypy.facts"},
    {
        "_mypy.fields",
        "_mypy.blocks",
        "_mypy.elements",
        "_mypy.module_globals",
        "_mypy.guards",
        "_mypy.flags",
        "_mypy.iterations",
    },
    {"_mypy.scope", "_mypy.held", "_mypy.raising"},
    {"_mypy.flow"},
    {"_mypy.inputs"},
    {"_mypy.classes"},
    {"_mypy.wording"},
    {
        "_mypy.rules.use_after_transfer",
        "_mypy.rules.lend_escape",
        "_mypy.rules.completed_twice",
        "_mypy.rules.unfinished_transfer",
        "_mypy.rules.owner_borrowed",
    },
    {"_mypy.rules.scope_ended", "_mypy.rules.mapping_ended", "_mypy.rules.pinned_ended"},
    {"_mypy.rules"},
    {"_mypy.plugin"},
    {"mypy_plugin"},
]


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" and len(rel.parts) > 1 else rel.parts
    return ".".join(parts)


def _imports(path: Path, name: str) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    package = name.split(".")[:-1] if path.name != "__init__.py" else name.split(".")
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join([*base, node.module] if node.module else base)
                if node.module is None:
                    found.update(".".join([*base, a.name]) for a in node.names)
                else:
                    found.add(target)
            elif node.module and node.module.startswith("numbaxfer."):
                found.add(node.module.removeprefix("numbaxfer."))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("numbaxfer."):
                    found.add(alias.name.removeprefix("numbaxfer."))
    return {f.strip(".") for f in found if f.strip(".")}


def _layer_of(layers: list[set[str]] | None = None) -> dict[str, int]:
    return {module: i for i, layer in enumerate(layers or LAYERS) for module in layer}


def _is_plugin(name: str) -> bool:
    return name == "mypy_plugin" or name == "_mypy" or name.startswith("_mypy.")


def test_the_shared_wording_imports_nothing() -> None:
    """``_wording`` is shared by the runtime and the plugin: plain strings only."""
    tree = ast.parse((PACKAGE / "_wording.py").read_text())
    imported = {
        a.name if isinstance(n, ast.Import) else (n.module or "")
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert imported <= {"typing"}


def test_every_module_has_a_layer() -> None:
    layer = _layer_of()
    plugin = _layer_of(PLUGIN_LAYERS)
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    assert {m for m in modules if not _is_plugin(m)} - set(layer) == set(), "add to LAYERS"
    assert {m for m in modules if _is_plugin(m)} - set(plugin) == set(), "add to PLUGIN_LAYERS"


def test_modules_import_only_from_lower_layers() -> None:
    layer = _layer_of()
    bad = []
    for path in PACKAGE.rglob("*.py"):
        name = _module_name(path)
        if _is_plugin(name):
            continue
        own = layer[name]
        for target in _imports(path, name):
            if target.startswith("_backend") and name.startswith("_backend"):
                continue  # the backend package: its __init__ selects its implementations
            if target not in layer:
                continue
            if layer[target] >= own:
                bad.append(f"{name} (layer {own}) imports {target} (layer {layer[target]})")
    assert not bad, "\n".join(bad)


def test_the_mypy_plugin_imports_nothing_of_the_library() -> None:
    """The plugin's modules import mypy, the standard library and each other, lower
    layers only: no runtime module of numbaxfer (mypy loads the plugin without CUDA)."""
    layer = _layer_of(PLUGIN_LAYERS)
    bad = []
    for path in PACKAGE.rglob("*.py"):
        name = _module_name(path)
        if not _is_plugin(name):
            continue
        for target in _imports(path, name):
            if not _is_plugin(target) and target != "_wording":
                bad.append(f"{name} imports the library module {target}")
            elif layer[target] >= layer[name]:
                bad.append(f"{name} (layer {layer[name]}) imports {target} ({layer[target]})")
    assert not bad, "\n".join(bad)
