"""symshape.verify's constraint comparison: an ExportedProgram's range constraints and
runtime asserts against the engine's ranges and guards for the same graph and spec.

Both sides are keyed to input positions ("x.size()[2]"), so symbol names never matter.
Ranges are compared exactly (None = unbounded above, torch's int_oo). Guards are compared
by meaning, not text: a guard of one side is reported when some sizes near the example
(each dynamic dim swept alone, and all of them together) satisfy everything the other side
requires (its ranges and guards/asserts) but not that guard."""
import re
from dataclasses import dataclass

from .fxjson import spec_leaf

_SRC = re.compile(r"L\['([^']+)'\]\.size\(\)\[(\d+)\]")


@dataclass
class ConstraintDiff:
    kind: str        # "range" / "guard" / "not_compared"
    where: str       # "x.size()[2]" for a range; the guard's text for a guard
    torch: object    # (lo, hi) / True when torch has the guard / the reason
    symshape: object

    def __str__(self):
        if self.kind == "range":
            return f"range of {self.where}: torch {_fmt(self.torch)} != symshape {_fmt(self.symshape)}"
        if self.kind == "guard":
            side = "symshape" if self.symshape else "torch"
            return f"guard only in {side}: {self.where}"
        return f"constraints not compared: {self.where}"


def _fmt(r):
    return "none" if r is None else f"[{r[0]}, {'int_oo' if r[1] is None else r[1]}]"


def _bound(v):
    if str(v) in ("oo", "-oo", "int_oo", "-int_oo") or getattr(v, "is_finite", True) is False:
        return None
    return int(v)


def torch_constraints(ep, names):
    """(ranges {source: (lo, hi)}, asserts [(text, sympy expr)], symbols {sym: source}) of an
    ExportedProgram; `names`: the user inputs' names in placeholder order."""
    user = [n for n in ep.graph_module.graph.nodes if n.op == "placeholder"]
    specs = getattr(ep.graph_signature, "input_specs", None)
    if specs is not None:
        kinds = {s.arg.name: s.kind.name for s in specs if hasattr(s.arg, "name")}
        user = [n for n in user if kinds.get(n.name) == "USER_INPUT"]
    symbols = {}
    for name, node in zip(names, user):
        val = node.meta.get("val")
        for i, s in enumerate(getattr(val, "shape", ())):
            e = getattr(getattr(s, "node", None), "expr", None)
            if e is not None and e.is_Symbol and e not in symbols:
                symbols[e] = f"{name}.size()[{i}]"
    ranges = {}
    rc = dict(ep.range_constraints)
    for sym, vr in rc.items():
        if sym in symbols:
            ranges[symbols[sym]] = (_bound(vr.lower), _bound(vr.upper))
    # a derived dim's input size (`s0 + 1`, `2*s0`): its own entry of range_constraints, or
    # fn(root's range)
    for name, node in zip(names, user):
        val = node.meta.get("val")
        for i, s in enumerate(getattr(val, "shape", ())):
            e = getattr(getattr(s, "node", None), "expr", None)
            src = f"{name}.size()[{i}]"
            if e is None or e.is_Symbol or e.is_number or len(e.free_symbols) != 1 or src in ranges:
                continue
            if e in rc:
                ranges[src] = (_bound(rc[e].lower), _bound(rc[e].upper))
                continue
            sym = next(iter(e.free_symbols))
            mul, add = e.coeff(sym, 1), e.subs(sym, 0)
            if sym in rc and mul.is_Integer and add.is_Integer and mul > 0:
                lo, hi = _bound(rc[sym].lower), _bound(rc[sym].upper)
                ranges[src] = (None if lo is None else int(mul * lo + add), None if hi is None else int(mul * hi + add))
    asserts = []
    # a size the program writes over another input's symbol (`s0 + 1`, `2*s0`: a derived Dim)
    # is a relation of the program itself: an assert `src == expr` over a symbol of its own
    import sympy
    for name, node in zip(names, user):
        val = node.meta.get("val")
        for i, s in enumerate(getattr(val, "shape", ())):
            e = getattr(getattr(s, "node", None), "expr", None)
            if e is None or e.is_Symbol or e.is_number or not e.free_symbols <= set(symbols):
                continue
            own = sympy.Symbol(f"_input_{name}_{i}", integer=True)
            symbols[own] = f"{name}.size()[{i}]"
            text = str(e)
            for sym, src in symbols.items():
                text = re.sub(rf"\b{re.escape(str(sym))}\b", src, text)
            asserts.append((f"{name}.size()[{i}] == {text}", sympy.Eq(own, e)))
    for n in ep.graph_module.graph.nodes:
        if n.op == "call_function" and str(n.target) == "aten._assert_scalar.default":
            a = n.args[0]
            val = a.meta.get("val") if hasattr(a, "meta") else a
            e = getattr(getattr(val, "node", None), "expr", None)
            if e is None or not e.free_symbols <= set(symbols):
                continue  # an unbacked value's check (item()): not over input sizes
            text = str(e)
            for sym, src in symbols.items():
                text = re.sub(rf"\b{re.escape(str(sym))}\b", src, text)
            asserts.append((text, e))
    return ranges, asserts, symbols


def _single_dim_bounds(guard):
    """{source: (lo, hi)} when `guard` only bounds single input sizes by constants, else None."""
    out = {}
    for part in guard.split(" and "):
        part = part.strip()
        m = re.fullmatch(r"(-?\d+) (<=|<|>=|>|==) (L\['[^']+'\]\.size\(\)\[\d+\])", part)
        if m:
            c, op, x = int(m.group(1)), {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "==": "=="}[m.group(2)], m.group(3)
        else:
            m = re.fullmatch(r"(L\['[^']+'\]\.size\(\)\[\d+\]) (<=|<|>=|>|==) (-?\d+)", part)
            if not m:
                return None
            x, op, c = m.group(1), m.group(2), int(m.group(3))
        src = _SRC.sub(r"\1.size()[\2]", x)
        lo, hi = out.get(src, (None, None))
        if op in (">=", ">", "=="):
            v = c + (op == ">")
            lo = v if lo is None else max(lo, v)
        if op in ("<=", "<", "=="):
            v = c - (op == "<")
            hi = v if hi is None else min(hi, v)
        out[src] = (lo, hi)
    return out


def engine_constraints(graph, sizes):
    """(ranges {source: (lo, hi)}, guards [text]) of the engine: the graph's spec ranges
    narrowed by its single-size guards when propagated at `sizes`, and every other guard
    and runtime assert over input sizes (strides and storage offsets left out)."""
    spec = graph.spec
    ranges = {}
    for name, row in spec["dynamic_shapes"].items():
        for i, d in enumerate(row):
            leaf = spec_leaf(spec, d) if isinstance(d, str) else None
            if leaf is not None:  # a derived Dim's range is fn(root's range)
                root, mul, add = leaf
                lo, hi = spec["dims"][root]["min"], spec["dims"][root]["max"]
                ranges[f"{name}.size()[{i}]"] = (mul * lo + add, None if hi is None else mul * hi + add)
    # torch.export traces with the backend flags off: its conv asks no mkldnn question
    p = graph.propagate(sizes=sizes, host="export")
    guards = []
    for g in list(p.guards) + list(p.runtime_asserts):
        if "stride()" in g or "storage_offset()" in g:
            continue
        bounds = _single_dim_bounds(g)
        if bounds is None:
            guards.append(g)
            continue
        for src, (lo, hi) in bounds.items():
            if src not in ranges:
                continue  # a static size's equality: no range to compare
            old_lo, old_hi = ranges[src]
            if lo == 2 and old_lo is not None and old_lo < 2:
                lo = None  # 0/1 are allowed at runtime: range_constraints keep the Dim's min (make_constraints)
            lo = old_lo if lo is None else (lo if old_lo is None else max(lo, old_lo))
            hi = old_hi if hi is None else (hi if old_hi is None else min(hi, old_hi))
            ranges[src] = (lo, hi)
    return ranges, guards


class _Sizes:
    def __init__(self, sizes):
        self.sizes = sizes

    def size(self):
        return self.sizes


def _eval_engine(guard, sizes):
    env = {"L": {k: _Sizes(v) for k, v in sizes.items()}, "max": max, "min": min, "Max": max, "Min": min,
           "abs": abs, "__builtins__": {}}
    try:
        return bool(eval(guard, env))  # noqa: S307 - the engine's own guard text over plain ints
    except Exception:  # noqa: BLE001 - e.g. a division by zero at a swept size: no verdict
        return None


def _eval_torch(expr, symbols, sizes):
    try:
        sub = {}
        for sym, src in symbols.items():
            name, dim = src.split(".size()[")
            sub[sym] = sizes[name][int(dim[:-1])]
        r = expr.xreplace({k: __import__("sympy").Integer(v) for k, v in sub.items()})
        return bool(r) if r in (True, False) or getattr(r, "is_Boolean", False) else None
    except Exception:  # noqa: BLE001
        return None


def _in(ranges, sizes):
    for src, (lo, hi) in ranges.items():
        name, dim = src.split(".size()[")
        v = sizes[name][int(dim[:-1])]
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            return False
    return True


def _points(example, sources, limit=64):
    """The example, each dynamic size swept over 0..limit alone, and all of them together."""
    def at(changes):
        s = {k: list(v) for k, v in example.items()}
        for src, v in changes.items():
            name, dim = src.split(".size()[")
            s[name][int(dim[:-1])] = v
        return s
    pts = [at({})]
    for src in sources:
        pts += [at({src: v}) for v in range(limit + 1)]
    pts += [at({src: v for src in sources}) for v in range(limit + 1)]
    return pts


def compare(torch_side, engine_side, example):
    """Differences between torch's (ranges, asserts, symbols) and the engine's (ranges,
    guards), both over input positions, near `example` ({input: sizes})."""
    t_ranges, t_asserts, symbols = torch_side
    e_ranges, e_guards = engine_side
    diffs = []
    for src in sorted(set(t_ranges) | set(e_ranges)):
        if t_ranges.get(src) != e_ranges.get(src):
            diffs.append(ConstraintDiff("range", src, t_ranges.get(src), e_ranges.get(src)))
    sources = sorted(set(t_ranges) | set(e_ranges))
    limit = max([64] + [2 * v for vs in example.values() for v in vs])
    points = [p for p in _points(example, sources, min(limit, 256)) if _in(t_ranges, p) and _in(e_ranges, p)]
    t_ok = [all(_eval_torch(e, symbols, p) is not False for _, e in t_asserts) for p in points]
    e_ok = [all(_eval_engine(g, p) is not False for g in e_guards) for p in points]
    for g in e_guards:
        if any(ok and _eval_engine(g, p) is False for ok, p in zip(t_ok, points)):
            diffs.append(ConstraintDiff("guard", _SRC.sub(r"\1.size()[\2]", g), False, True))
    for text, e in t_asserts:
        if any(ok and _eval_torch(e, symbols, p) is False for ok, p in zip(e_ok, points)):
            diffs.append(ConstraintDiff("guard", text, True, False))
    return diffs


def constraint_differences(ep, graph, names, example):
    """Every difference between the ExportedProgram `ep` and the engine's `graph` (loaded
    from its conversion) at the export example `example` ({input: sizes})."""
    try:
        return compare(torch_constraints(ep, names), engine_constraints(graph, example), example)
    except Exception as e:  # noqa: BLE001 - e.g. the engine rejects the example: said, not hidden
        return [ConstraintDiff("not_compared", f"{type(e).__name__}: {e}", None, None)]
