"""ATen schemas for the exporter: parse an overload's declared argument types, match
Python call arguments against them, and fill every positional argument (defaults
included), as fx-graph-json wants (FORMAT.md "Argument conventions").

The schemas come from PyTorch itself (torch._C._jit_get_schemas_for_operator); nothing
here is a hand-written table of ops."""
import re
from dataclasses import dataclass

import torch

INT64_MAX = 9223372036854775807  # an omitted slice end (FORMAT.md)


@dataclass
class Param:
    name: str
    base: str          # Tensor, int, SymInt, float, bool, Scalar, str, ScalarType, ...
    is_list: bool
    list_n: int        # int[2] -> 2, 0 when unsized
    optional: bool     # T? (or T[]? : the list is optional)
    elem_optional: bool  # Tensor?[]
    kwarg_only: bool
    has_default: bool
    default: object


def _split_top(text):
    depth, cur, out = 0, "", []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


_TYPE_RE = re.compile(r"^(\w+)(\([^)]*\))?(\?)?(\[(\d*)\])?(\?)?$")


def parse_params(schema):
    """The overload's parameters with declared types (ScalarType, Layout, ... included,
    which the Argument objects of 1.13 report as int)."""
    text = str(schema)
    inner = text[text.index("(") + 1: text.rindex(") ->")] if ") ->" in text else text[text.index("(") + 1: -1]
    params, kwarg_only, args = [], False, list(schema.arguments)
    i = 0
    for piece in _split_top(inner):
        if piece == "*":
            kwarg_only = True
            continue
        decl = piece.split("=", 1)[0].strip()
        type_text, name = decl.rsplit(" ", 1)
        m = _TYPE_RE.match(type_text.replace(" ", ""))
        if not m:
            raise ValueError(f"cannot parse schema type {type_text!r} in {text}")
        base, _alias, q1, lst, n, q2 = m.groups()
        a = args[i]
        i += 1
        has_default = "=" in piece
        params.append(Param(name=name, base=base, is_list=lst is not None, list_n=int(n) if n else 0,
                            optional=bool(q2) or (bool(q1) and lst is None), elem_optional=bool(q1) and lst is not None,
                            kwarg_only=kwarg_only, has_default=has_default,
                            default=a.default_value if has_default else None))
    return params


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _match_scalar(base, v, number_as_tensor):
    if base == "Tensor":
        return isinstance(v, torch.Tensor) or (number_as_tensor and _is_number(v))
    if base in ("int", "SymInt"):
        return _is_int(v)
    if base == "float":
        return _is_number(v)
    if base == "bool":
        return isinstance(v, bool)
    if base == "Scalar":
        return isinstance(v, (int, float, bool))
    if base == "str":
        return isinstance(v, str)
    if base == "ScalarType":
        return isinstance(v, torch.dtype)
    if base == "Layout":
        return isinstance(v, torch.layout)
    if base == "Device":
        return isinstance(v, (torch.device, str))
    if base == "MemoryFormat":
        return isinstance(v, torch.memory_format)
    return False  # Dimname, Generator, Storage, ...: never produced by the models we export


def match(p, v, number_as_tensor=False):
    """Does value `v` fit parameter `p`? Returns the value normalised (int[N] from one int)."""
    if v is None:
        return p.optional or p.base in ("Generator",), None
    if p.is_list:
        if isinstance(v, (list, tuple)):
            ok = all((x is None and p.elem_optional) or _match_scalar(p.base, x, False) for x in v)
            return ok, list(v)
        if p.base in ("int", "SymInt", "bool") and _match_scalar(p.base, v, False):
            return True, [v] * max(p.list_n, 1)
        return False, None
    return _match_scalar(p.base, v, number_as_tensor), v


_schema_cache = {}


def overloads(op_name):
    """[(overload name, schema, params)] of aten::op_name, out= and named-tensor variants left out."""
    if op_name not in _schema_cache:
        found = []
        for s in torch._C._jit_get_schemas_for_operator("aten::" + op_name):
            ov = s.overload_name or "default"
            if "out" in ov.split("_") or "dimname" in ov.lower() or "names" in ov.lower() or ov.endswith("_out"):
                continue
            try:
                params = parse_params(s)
            except ValueError:
                continue
            if any(p.base == "Dimname" for p in params):
                continue
            found.append((ov, s, params))
        _schema_cache[op_name] = found
    return _schema_cache[op_name]


# Binary arithmetic with a Python scalar uses the .Tensor overload (FORMAT.md).
_SCALAR_AS_TENSOR = {"add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"}


def bind(op_name, args, kwargs, pack_varargs, prefer=None):
    """(overload, positional values, kwarg-only values that differ from their defaults)
    for a call, or None when no overload fits. `prefer(overload)` ranks candidates (the
    engine's supported targets first)."""
    cands = overloads(op_name)
    if prefer:
        cands = sorted(cands, key=lambda c: 0 if prefer(c[0]) else 1)
    passes = [True, False] if op_name in _SCALAR_AS_TENSOR else [False]
    for number_as_tensor in passes:
        for ov, schema, params in cands:
            r = _bind_one(params, args, kwargs, pack_varargs, number_as_tensor)
            if r is not None:
                return ov, schema, params, r[0], r[1]
    return None


def _bind_one(params, args, kwargs, pack_varargs, number_as_tensor):
    kwargs = dict(kwargs)
    if "input" in kwargs and not any(p.name == "input" for p in params):
        kwargs["self"] = kwargs.pop("input")
    positional = [p for p in params if not p.kwarg_only]
    values = {}
    args = list(args)
    ai = 0
    for p in positional:
        if ai >= len(args):
            break
        v = args[ai]
        if (pack_varargs and p.is_list and p.list_n == 0 and _is_int(v)
                and all(_is_int(x) for x in args[ai:])):
            v = tuple(args[ai:])
            ai = len(args)
        else:
            ai += 1
        ok, nv = match(p, v, number_as_tensor and p.base == "Tensor" and p is not positional[0])
        if not ok:
            return None
        values[p.name] = nv
    if ai < len(args):
        return None
    for k, v in kwargs.items():
        p = next((q for q in params if q.name == k), None)
        if p is None or k in values:
            return None
        ok, nv = match(p, v, False)
        if not ok:
            return None
        values[k] = nv
    return fill_arguments(params, values)


def fill_arguments(params, values):
    """(positional values, kwarg-only values that differ from their defaults): every
    positional schema argument present, defaults filled (int[N] defaults as lists); None
    when a required argument is missing."""
    pos_out, kw_out = [], {}
    for p in params:
        if p.name in values:
            v = values[p.name]
        elif p.has_default:
            v = p.default
            if p.is_list and _is_int(v):
                v = [v] * max(p.list_n, 1)
        else:
            return None
        if p.kwarg_only:
            if p.name in values and not _same(v, p.default):
                kw_out[p.name] = v
        else:
            pos_out.append(v)
    return pos_out, kw_out


def _same(a, b):
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) == type(b) and a == b  # noqa: E721 - 1 != True here

