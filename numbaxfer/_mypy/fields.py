"""Record classes: which field of a dataclass or NamedTuple an argument of its
constructor becomes (``Slot(host=h)``: ``slot.host`` is ``h``, the same object)."""

from __future__ import annotations

from mypy.nodes import ARG_NAMED, ARG_POS, CallExpr, Expression, RefExpr, TypeInfo


def record_fields(info: TypeInfo) -> list[str] | None:
    """The constructor's parameters, in order, of a dataclass or NamedTuple (None for
    other classes: what their ``__init__`` does with an argument is not known here)."""
    data = info.metadata.get("dataclass")
    if isinstance(data, dict):
        attrs = data.get("attributes")
        if isinstance(attrs, list):
            return [
                str(a["name"])
                for a in attrs
                if isinstance(a, dict)
                and isinstance(a.get("name"), str)
                and a.get("is_in_init", True)
                and not a.get("kw_only", False)
            ] + [
                str(a["name"])
                for a in attrs
                if isinstance(a, dict)
                and isinstance(a.get("name"), str)
                and a.get("is_in_init", True)
                and a.get("kw_only", False)
            ]
        return None
    tup = info.metadata.get("namedtuple")
    if isinstance(tup, dict):
        fields = tup.get("fields")
        if isinstance(fields, list) and all(isinstance(f, str) for f in fields):
            return [str(f) for f in fields]
    return None


def constructor_fields(call: CallExpr) -> list[tuple[str, Expression]]:
    """``Slot(h, dev=d)`` -> [("host", h), ("dev", d)] for a record class ``Slot``."""
    callee = call.callee
    if not isinstance(callee, RefExpr) or not isinstance(callee.node, TypeInfo):
        return []
    names = record_fields(callee.node)
    if not names:
        return []
    out: list[tuple[str, Expression]] = []
    pos = 0
    for arg, kind, name in zip(call.args, call.arg_kinds, call.arg_names, strict=True):
        if kind == ARG_POS:
            if pos < len(names):
                out.append((names[pos], arg))
            pos += 1
        elif kind == ARG_NAMED and name in names:
            out.append((name, arg))
        else:
            return []  # *args / **kwargs: not mapped
    return out
