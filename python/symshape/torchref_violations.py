"""Part 4 of the differential harness: torch.export's constraint checks against
`symshape spec check`, spec by spec (issue 22).

For one corpus graph, specs are built from its own spec by general rules (`spec_variants`):

- `own`: the graph's spec as the corpus gives it;
- `corrected`: symshape's corrected spec of `own` (its suggested fixes applied), which both
  sides should accept;
- `widened`: the corrected spec with one narrowed dim widened again (min back to 2, or its
  max removed);
- `static_to_dynamic`: a static dim the graph specialises given a Dim of its own;
- `unrelated`: a dim that needs a relation (a derived use, a second use of a name, or a
  second static dim of the same size) given a fresh Dim, so the relation is missing;
- `zero_one`: every Dim's min lowered to 0, checked at an example with a size of 1 when the
  graph has one (a 0/1 size is specialised);
- `static_to_dynamic_hint`: `static_to_dynamic` with `Dim.DYNAMIC` in place of the new Dim;
- `unrelated_hint`: `unrelated` with `Dim.AUTO` in place of the fresh Dim (a hint a named Dim
  relates: export refuses one that must derive from it);
- `dynamic_hints`: every Dim leaf `Dim.DYNAMIC`.

Each spec is checked by `symshape.check_spec` and exported by `torch.export.export` at the
example symshape chose. Compared: refused or not, the violated Dim names, the "Suggested
fixes:" lines (Dim name -> fix), and on success the exported program's range constraints
per spec'd dim against the spec's ranges. A case torch cannot trace for another reason is
not a difference: it goes to `torch_rejected`."""
import json
import os
import re
import signal
import tempfile

VARIANT_KINDS = ("own", "corrected", "widened", "static_to_dynamic", "unrelated", "zero_one",
                 "static_to_dynamic_hint", "unrelated_hint", "dynamic_hints")
# The spec leaves of torch.export's dim hints, as the DynamicShapesSpec serializer writes them.
HINTS = {"_DimHint.AUTO": "AUTO", "_DimHint.DYNAMIC": "DYNAMIC", "_DimHint.STATIC": "STATIC"}
DEFAULT_LIMIT = 4
# torch.export's solver can run for many minutes on one spec (sympy's reduce_inequalities over
# a deep conv stack): a case over this many seconds is reported as torch_rejected, not waited for
CASE_SECONDS = 300

# Cases torch.export refused for a reason that is not a constraint (an op it cannot trace, ...):
# {"graph", "case", "error"}; the driver reads and clears it.
torch_rejected = []

_INT_OO = float("inf")
_HINT_CONFLICTS = "Found the following conflicts between user-specified ranges and inferred ranges"
_HINT_CONFLICT = "- Received user-specified"
_LINEAR = re.compile(r"^\s*(?:(\d+)\s*\*\s*)?([A-Za-z_]\w*)\s*(?:([+-])\s*(\d+))?\s*$")
_CONSTRAINT_WORDS = ("Constraints violated", "Specializations unexpectedly required", "Suggested fixes",
                     "is not equal to", "Expected input", "not in range")


# --- specs -----------------------------------------------------------------------------------

def parse_linear(name):
    """'32*_h - 31' -> ('_h', 32, -31); a plain name -> (name, 1, 0)."""
    m = _LINEAR.match(name)
    if not m:
        raise ValueError(f"not a linear dim expression: {name!r}")
    mul = int(m.group(1) or 1)
    add = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return m.group(2), mul, add


def entry_range(spec, entry):
    """[min, max] of a spec entry (a root or a derived name), max inf when unbounded."""
    root, mul, add = parse_linear(entry)
    d = spec["dims"][root]
    hi = _INT_OO if d["max"] is None else d["max"]
    return [mul * d["min"] + add, mul * hi + add if hi != _INT_OO else _INT_OO]


def _copy(spec):
    return json.loads(json.dumps(spec))


def _normalise(spec):
    """Keep `dims` to the roots used, each with its derived names: what check_spec expects."""
    used = {}
    for entries in spec["dynamic_shapes"].values():
        for e in entries or []:
            if isinstance(e, str):
                if e in HINTS:
                    continue
                root, mul, add = parse_linear(e)
                used.setdefault(root, set())
                if (mul, add) != (1, 0):
                    used[root].add(e)
    spec["dims"] = {r: {"min": spec["dims"][r]["min"], "max": spec["dims"][r]["max"],
                        "derived": sorted(used[r])} for r in sorted(used)}
    return spec


def _dim_entries(spec):
    """(input, index, entry) for every Dim leaf (named or derived, not a hint), in input order."""
    return [(name, i, e) for name, entries in spec["dynamic_shapes"].items()
            for i, e in enumerate(entries or []) if isinstance(e, str) and e not in HINTS]


def _fresh(spec, base):
    name, k = base, 1
    while name in spec["dims"]:
        name, k = f"{base}{k}", k + 1
    return name


def widened(spec):
    """The first root narrowed above 2 gets min 2, else the first bounded root loses its max."""
    for root, d in sorted(spec["dims"].items()):
        if d["min"] > 2 and not root.startswith("_"):
            out = _copy(spec)
            out["dims"][root]["min"] = 2
            return out
    for root, d in sorted(spec["dims"].items()):
        if d["max"] is not None:
            out = _copy(spec)
            out["dims"][root]["max"] = None
            return out
    return None


def static_to_dynamic(spec, hint=None):
    """The first static size (>= 2: 0/1 are specialised anyway) becomes a Dim of its own, or
    the dim hint `hint` (a HINTS key)."""
    for name, entries in spec["dynamic_shapes"].items():
        for i, e in enumerate(entries or []):
            if isinstance(e, int) and e >= 2:
                out = _copy(spec)
                if hint:
                    out["dynamic_shapes"][name][i] = hint
                    return out
                dim = _fresh(out, f"{name}_{i}")
                out["dynamic_shapes"][name][i] = dim
                out["dims"][dim] = {"min": 2, "max": None, "derived": []}
                return out
    return None


def unrelated(spec, hint=None):
    """Drop a relation the spec states (a derived use or a name's second use: the entry gets a
    fresh Dim with its range, or the dim hint `hint`), or, without one, give two equal static
    sizes separate Dims (hints)."""
    seen = set()
    for name, i, e in _dim_entries(spec):
        root, mul, add = parse_linear(e)
        if (mul, add) != (1, 0) or root in seen:
            out = _copy(spec)
            if hint:
                out["dynamic_shapes"][name][i] = hint
                return _normalise(out)
            lo, hi = entry_range(spec, e)
            dim = _fresh(out, f"{name}_{i}")
            out["dynamic_shapes"][name][i] = dim
            out["dims"][dim] = {"min": max(lo, 0), "max": None if hi == _INT_OO else hi, "derived": []}
            return _normalise(out)
        seen.add(root)
    statics = [(name, i, e) for name, entries in spec["dynamic_shapes"].items()
               for i, e in enumerate(entries or []) if isinstance(e, int) and e >= 2]
    for a, (na, ia, va) in enumerate(statics):
        for nb, ib, vb in statics[a + 1:]:
            if va == vb:
                out = _copy(spec)
                for n, i in ((na, ia), (nb, ib)):
                    if hint:
                        out["dynamic_shapes"][n][i] = hint
                        continue
                    dim = _fresh(out, f"{n}_{i}")
                    out["dynamic_shapes"][n][i] = dim
                    out["dims"][dim] = {"min": 2, "max": None, "derived": []}
                return out
    return None


def dynamic_hints(spec):
    """Every Dim leaf (named or derived) becomes Dim.DYNAMIC: the spec's ranges and relations
    dropped, its dims still asked to be dynamic."""
    entries = _dim_entries(spec)
    if not entries:
        return None
    out = _copy(spec)
    for name, i, _ in entries:
        out["dynamic_shapes"][name][i] = "_DimHint.DYNAMIC"
    return _normalise(out)


def zero_one(spec):
    """Every root's min lowered to 0 (the range includes 0 and 1); a root of derived dims
    keeps its min (a negative derived min is an error on both sides, not a violation)."""
    lowered = [r for r, d in spec["dims"].items() if d["min"] != 0 and not d["derived"]]
    if not lowered:
        return None
    out = _copy(spec)
    for r in lowered:
        out["dims"][r]["min"] = 0
    return out


def example_with_size_one(doc, spec):
    """Index of an accepted example with a spec'd root dim of size 1 that fits `spec`, or None."""
    entries = _dim_entries(spec)
    for k, ex in enumerate(doc.get("examples", [])):
        if not ex.get("ok"):
            continue
        sizes = ex["inputs"]
        if not all(len(sizes.get(n, [])) == len(spec["dynamic_shapes"][n] or sizes.get(n, []))
                   for n in spec["dynamic_shapes"]):
            continue
        static_ok = all(e is None or not isinstance(e, int) or sizes[n][i] == e
                        for n, es in spec["dynamic_shapes"].items() for i, e in enumerate(es or []))
        roots, fits, has_one = {}, static_ok, False
        for n, i, e in entries:
            root, mul, add = parse_linear(e)
            fits = fits and (sizes[n][i] - add) % mul == 0
            roots.setdefault(root, set()).add((sizes[n][i] - add) // mul)
            has_one = has_one or ((mul, add) == (1, 0) and sizes[n][i] == 1)
        if fits and has_one and all(len(v) == 1 for v in roots.values()):
            return k
    return None


# --- the two sides -----------------------------------------------------------------------------

def symshape_side(path, spec):
    """{refused, dims, fixes, example, ranges, error} from `symshape.check_spec`."""
    import symshape
    try:
        r = symshape.check_spec(path, spec=spec)
    except symshape.SymshapeError as e:
        return {"refused": True, "dims": [], "fixes": {}, "example": None, "error": str(e), "ranges": None}
    report = r["report"]
    dims = violated_dims(report) if report else []
    return {"refused": not r["ok"], "dims": dims, "fixes": suggested_fixes(report), "example": r["example"],
            "report": report, "ranges": None if not r["ok"] else r["ranges"],
            "corrected": r["corrected_spec"]}


def violated_dims(message):
    """Names in 'Constraints violated (a, b)!' and 'Specializations unexpectedly required (c)!'."""
    names = set()
    # a hinted size is named by its source, `L['x'].size()[0]`: the list ends at the line's `)!`
    for m in re.finditer(r"(?:Constraints violated|Specializations unexpectedly required) \(([^\n]*)\)!", message):
        names.update(n.strip() for n in m.group(1).split(",") if n.strip())
    return sorted(names)


def violation_lines(message):
    """The report's violation lines ("  - ...") up to 'Suggested fixes:', and its hint
    conflicts ("- Received user-specified ..."), in order."""
    out = []
    for line in (message or "").split("\n"):
        if line.strip() == "Suggested fixes:":
            break
        if line.startswith("  - ") or line.startswith(_HINT_CONFLICT):
            out.append(line.rstrip())
    return out


def suggested_fixes(message):
    """'Suggested fixes:' block -> {dim name: right-hand side}."""
    fixes = {}
    lines = message.split("\n")
    for k, line in enumerate(lines):
        if line.strip() != "Suggested fixes:":
            continue
        for fix in lines[k + 1:]:
            if not fix.startswith("  ") or " = " not in fix:
                break
            name, rhs = fix.strip().split(" = ", 1)
            fixes[name] = " ".join(rhs.split())
    return fixes


def spec_ranges(spec):
    """{'input[i]': [min, max]} for every Dim leaf of an accepted spec (max None unbounded)."""
    out = {}
    for name, i, e in _dim_entries(spec):
        lo, hi = entry_range(spec, e)
        out[f"{name}[{i}]"] = [lo, None if hi == _INT_OO else hi]
    return out


def torch_dynamic_shapes(spec):
    """The DynamicShapesSpec dict as torch.export's `dynamic_shapes` (Dim objects, ints static)."""
    from torch.export import Dim
    roots = {r: Dim(r, min=d["min"]) if d["max"] is None else Dim(r, min=d["min"], max=d["max"])
             for r, d in spec["dims"].items()}
    out = {}
    for name, entries in spec["dynamic_shapes"].items():
        if entries is None:
            out[name] = None
            continue
        leaves = []
        for e in entries:
            if e in HINTS:
                leaves.append(getattr(Dim, HINTS[e]))
            elif isinstance(e, str):
                root, mul, add = parse_linear(e)
                d = roots[root]
                d = d * mul if mul != 1 else d
                leaves.append(d + add if add else d)
            else:
                leaves.append(e)
        out[name] = leaves
    return out


def example_args(doc, placeholders, index):
    """Tensors of example `index`'s sizes and the placeholders' dtypes (ints within meta range)."""
    import torch
    metas = {n["name"]: n.get("meta", {}) for n in doc["nodes"] if n["op"] == "placeholder"}
    ex = doc["examples"][index]
    gen = torch.Generator().manual_seed(ex.get("seed", 0))
    args = []
    for name, dtype in placeholders:
        size = ex["inputs"][name]
        if dtype.is_floating_point or dtype.is_complex:
            args.append(torch.randn(size, generator=gen).to(dtype))
        elif dtype == torch.bool:
            args.append(torch.rand(size, generator=gen) > 0.5)
        else:
            lo, hi = metas[name].get("range", [0, 2])
            args.append(torch.randint(lo, hi, size, generator=gen, dtype=dtype))
    return tuple(args)


def is_constraint_error(e):
    import torch._dynamo.exc as dexc
    from torch.fx.experimental.symbolic_shapes import ConstraintViolationError
    if isinstance(e, ValueError) and _HINT_CONFLICTS in str(e):
        return True  # the dim hints against the trace (make_constraints)
    if not isinstance(e, (dexc.UserError, ConstraintViolationError)):
        return False
    return any(w in str(e) for w in _CONSTRAINT_WORDS)


def torch_side(gm, placeholders, doc, spec, index):
    """{refused, dims, fixes, ranges} from torch.export.export, or {"rejected": error text}."""
    import torch
    args = example_args(doc, placeholders, index)

    def over_time(signum, frame):
        raise TimeoutError(f"torch.export ran over {CASE_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, over_time)
    signal.alarm(CASE_SECONDS)
    try:
        ep = torch.export.export(gm, args, dynamic_shapes=torch_dynamic_shapes(spec))
    except Exception as e:  # noqa: BLE001
        if not is_constraint_error(e):
            return {"rejected": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
        msg = str(e)
        return {"refused": True, "dims": violated_dims(msg), "fixes": suggested_fixes(msg), "ranges": None,
                "report": msg}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return {"refused": False, "dims": [], "fixes": {}, "ranges": exported_ranges(ep, spec)}


def _bound(b):
    """A range bound as an int, None for (int_)oo."""
    return int(b) if b.is_number and b.is_finite is not False and "oo" not in str(b) else None


def exported_ranges(ep, spec):
    """{'input[i]': [min, max]} of every spec'd Dim leaf from ep.range_constraints: the range of
    the size's expression (a symbol or a linear function of one), or 'static N'."""
    import sympy
    ranges = {sym: (_bound(vr.lower), _bound(vr.upper)) for sym, vr in ep.range_constraints.items()}
    user = set(ep.graph_signature.user_inputs)
    sizes = {n.name: n.meta["val"].shape for n in ep.graph.nodes if n.op == "placeholder" and n.name in user}
    out = {}
    for name, i, _ in _dim_entries(spec):
        s = sizes[name][i]
        expr = s.node.expr if hasattr(s, "node") else sympy.Integer(int(s))
        if expr.is_number:
            out[f"{name}[{i}]"] = f"static {int(expr)}"
            continue
        sym = next(iter(expr.free_symbols))
        lo, hi = ranges.get(sym, (0, None))
        a, b = int(expr.coeff(sym)), int(expr.subs(sym, 0))
        out[f"{name}[{i}]"] = [a * lo + b, None if hi is None else a * hi + b]
    return out


# --- comparing -----------------------------------------------------------------------------------

def _diff(graph, case, what, t, s, detail):
    return {"kind": "violation", "graph": graph, "case": case, "torch": t, "symshape": s, "detail": detail,
            "key": f"violation:{graph}:{case}:{what}"}


def compare_sides(graph, case, t, s):
    """The differences between one case's torch and symshape answers."""
    if t["refused"] != s["refused"]:
        return [_diff(graph, case, "refused", t.get("report", "exported")[:400], s.get("report") or "ok",
                      f"torch {'refuses' if t['refused'] else 'accepts'}, symshape "
                      f"{'refuses' if s['refused'] else 'accepts'}")]
    diffs = []
    if t["refused"]:
        if t["dims"] != s["dims"]:
            diffs.append(_diff(graph, case, "dims", t["dims"], s["dims"], "different violated dims"))
        if t["fixes"] != s["fixes"]:
            diffs.append(_diff(graph, case, "fixes", t["fixes"], s["fixes"], "different suggested fixes"))
        t_lines, s_lines = violation_lines(t.get("report")), violation_lines(s.get("report"))
        if t_lines != s_lines:
            diffs.append(_diff(graph, case, "lines", t_lines, s_lines, "different violation lines"))
    elif t["ranges"] != s["ranges"]:
        diffs.append(_diff(graph, case, "ranges", t["ranges"], s["ranges"], "different range constraints"))
    return diffs


def spec_variants(doc, own, corrected, kinds=VARIANT_KINDS):
    """[(kind, spec, example index or None)] built from the graph's own and corrected specs."""
    base = corrected if corrected is not None else own
    out = []
    for kind in kinds:
        if kind == "own":
            spec, example = own, None
        elif kind == "corrected":
            spec, example = corrected, None
        elif kind == "zero_one":
            spec = zero_one(base)
            example = example_with_size_one(doc, spec) if spec else None
        else:
            spec, example = {"widened": widened, "static_to_dynamic": static_to_dynamic,
                             "unrelated": unrelated, "dynamic_hints": dynamic_hints,
                             "static_to_dynamic_hint": lambda b: static_to_dynamic(b, "_DimHint.DYNAMIC"),
                             "unrelated_hint": lambda b: unrelated(b, "_DimHint.AUTO")}[kind](base), None
        if spec is not None:
            out.append((kind, spec, example))
    return out


def _graph_with_one_example(doc, index, directory):
    """A copy of the graph whose only example is `index`, so symshape checks at that example."""
    copy = dict(doc)
    copy["examples"] = [doc["examples"][index]]
    path = os.path.join(directory, "one_example.graph.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(copy, f)
    return path


def compare_graph_specs(graph_name, doc, path, limit=DEFAULT_LIMIT, kinds=VARIANT_KINDS, symshape_check=None):
    """(cases compared, differences) for one graph: at most `limit` spec variants of `kinds`.
    `symshape_check(path, spec)` replaces symshape's side (tests plant wrong answers with it)."""
    from .torchref_graph import OpNotRegistered, to_graph_module
    check = symshape_check or symshape_side
    own = doc.get("dynamic_shapes")
    if not own or not own.get("dynamic_shapes"):
        return 0, []
    own_result = check(path, own)
    corrected = own_result.get("corrected")
    corrected = corrected if corrected and corrected != own else None
    try:
        gm, placeholders = to_graph_module(doc)
    except OpNotRegistered as e:
        # an op of a library this process does not import: PyTorch cannot run the graph here,
        # as in the propagation part (TorchRejected), which is not a difference
        torch_rejected.append({"graph": graph_name, "case": "all", "error": str(e)})
        return 0, []
    cases, diffs = 0, []
    with tempfile.TemporaryDirectory(prefix="torchref_violations_") as tmp:
        for kind, spec, example in spec_variants(doc, own, corrected, kinds)[:limit]:
            spec_path = path if example is None else _graph_with_one_example(doc, example, tmp)
            s = own_result if kind == "own" else check(spec_path, spec)
            index = example if example is not None else s["example"]
            if index is None:
                continue  # symshape refused the spec itself; no example to export at
            t = torch_side(gm, placeholders, doc, spec, index)
            if "rejected" in t:
                torch_rejected.append({"graph": graph_name, "case": kind, "error": t["rejected"]})
                continue
            cases += 1
            diffs += compare_sides(graph_name, kind, t, s)
    return cases, diffs
