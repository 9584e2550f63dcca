"""Propagation and guards against PyTorch 2.x (the differential harness, part 1).

For one graph and one example the graph is rebuilt as a GraphModule of aten calls
(torchref_graph) and interpreted under PyTorch's FakeTensorMode with a ShapeEnv. The inputs
are made as torch.export makes them: each dim the graph's spec names is a DYNAMIC symbol
with the spec's min/max (a StrictMinMaxConstraint), a name used on several inputs is one
symbol (the later inputs' sizes are built from it, so produce_guards prints their input
equalities), every other dim is static, strides contiguous and expressed in the sizes.

symshape propagates the same example under the graph's spec (its default export policy).
Then, node by node: the structure, every size, stride, storage offset, dtype and int value
(symbols matched by their sources: symshape names a symbol after its Dim, PyTorch by a
hash; the value at the example's sizes must agree, and the printed form is compared with
PyTorch's symbols renamed to symshape's), and produce_guards' lines as a set."""
import re

import sympy
import torch
import torch.fx
from torch._dispatch.python import enable_python_dispatcher
from torch._dynamo.source import LocalSource, TensorProperty, TensorPropertySource
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv, StrictMinMaxConstraint
from torch.utils._sympy.numbers import int_oo
from torch.utils._sympy.value_ranges import ValueRanges

from .torchref_graph import DTYPES, OpNotRegistered, to_graph_module
from .torchref_guard_form import canonical, same_guards

_DTYPE_NAMES = {v: k for k, v in DTYPES.items()}


class TorchRejected(Exception):
    """PyTorch itself cannot run this input (its error, at the node that raised)."""

    def __init__(self, node, error):
        super().__init__(f"{node}: {type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}")
        self.node, self.error = node, error


class _Recorder(torch.fx.Interpreter):
    """Runs every node and keeps its result (plain ints included, unlike meta['val']) and,
    for every guard the node added, where PyTorch's code took it (node, file:function)."""

    def __init__(self, gm, shape_env):
        super().__init__(gm)
        self.results = {}
        self.shape_env = shape_env
        self.origins = []  # (guard expr, node name, "file:function" of PyTorch's code)

    def run_node(self, n):
        before = len(self.shape_env.guards)
        try:
            out = super().run_node(n)
        except Exception as e:  # noqa: BLE001 - PyTorch's own rejection is the answer
            raise TorchRejected(n.name, e) from e
        for g in self.shape_env.guards[before:]:
            loc = getattr(getattr(g, "sloc", None), "framework_loc", None)
            where = f"{loc.filename.rsplit('/', 1)[-1]}:{loc.name}" if loc is not None and hasattr(loc, "name") else str(loc)
            self.origins.append((g.expr, n.name, where))
        self.results[n.name] = out
        return out


def _derived_dims(spec):
    """{derived name: _DerivedDim} of the spec's `derived` lists, as PyTorch's own loader
    reconstructs them (`_load_dynamic_shapes`: the expression divided by its root)."""
    from torch._export.serde.dynamic_shapes import DynamicShapesSpec, RootDim, _load_dynamic_shapes
    dims = spec.get("dims", {}) if spec else {}
    names = [d for v in dims.values() for d in v.get("derived", [])]
    if not names:
        return {}
    loaded = _load_dynamic_shapes(DynamicShapesSpec(dynamic_shapes={"_": names},
                                                    dims={k: RootDim(**v) for k, v in dims.items()}))
    return dict(zip(names, loaded["_"]))


def _fake_inputs(shape_env, mode, placeholders, spec, sizes):
    """Fake tensors for the placeholders, export's way (see the module docstring), and the
    EqualityConstraint of the spec's derived dims (None without any): a derived dim's input
    size is its own symbol with the derived range, related to its root (the first input dim
    using the root directly, or a phantom symbol made after every input, as
    torch.export.dynamic_shapes._process_equalities does) when produce_guards checks it."""
    dims = spec.get("dims", {}) if spec else {}
    rows = spec.get("dynamic_shapes", {}) if spec else {}
    derived = _derived_dims(spec)
    by_name = {}
    root_source = {}
    uses = []  # (source, derived Dim, size)
    inputs = []
    for name, dtype in placeholders:
        row = rows.get(name) or []
        shape = []
        for d, value in enumerate(sizes[name]):
            entry = row[d] if d < len(row) else value
            if not isinstance(entry, str):
                shape.append(value)
                continue
            if entry in by_name:
                shape.append(by_name[entry])
                continue
            source = TensorPropertySource(LocalSource(name), TensorProperty.SIZE, d)
            if entry in derived:
                dim = derived[entry]
                lo, hi = dim.min, dim.max
                uses.append((source, dim, value))
            else:
                rng = dims.get(entry, {})
                lo, hi = rng.get("min", 0), rng.get("max")
                hi = int_oo if hi is None else hi
                root_source.setdefault(entry, source)
            constraint = StrictMinMaxConstraint(vr=ValueRanges(lower=lo, upper=hi), warn_only=False)
            sym = shape_env.create_symbol(value, source, dynamic_dim=DimDynamic.DYNAMIC, constraint_dim=constraint)
            symint = shape_env.create_symintnode(sym, hint=value, source=source)
            by_name[entry] = symint
            shape.append(symint)
        with mode:
            inputs.append(torch.empty(shape, dtype=dtype))
    if not uses:
        return inputs, None
    from torch._dynamo.source import ConstantSource
    from torch.fx.experimental.symbolic_shapes import EqualityConstraint
    phantoms, derived_equalities = {}, []
    for source, dim, value in uses:
        root_name = dim.root.__name__
        root = root_source.get(root_name)
        if root is None:
            if root_name not in phantoms:
                # _PhantomRoot: the root's range, the value solved from the first derived use
                x = sympy.Symbol(root_name, integer=True)
                val = int(sympy.solve(dim.fn(x) - value, x)[0])
                hi = int_oo if dim.root.max is int_oo else dim.root.max
                phantoms[root_name] = shape_env.create_symbol(
                    val, ConstantSource(root_name), dynamic_dim=DimDynamic.DYNAMIC,
                    constraint_dim=StrictMinMaxConstraint(vr=ValueRanges(lower=dim.root.min, upper=hi),
                                                          warn_only=False))
            root = phantoms[root_name]
        derived_equalities.append((source, root, dim.fn))
    return inputs, EqualityConstraint(source_pairs=[], derived_equalities=derived_equalities,
                                      phantom_symbols=list(phantoms.values()), relaxed_sources=set(),
                                      warn_only=False)


def torch_propagate(doc, example):
    """PyTorch 2.x's answer for one example: {"values": {node: value}, "guards": [...],
    "sources": {sympy symbol: first source name}}; raises TorchRejected."""
    try:
        gm, placeholders = to_graph_module(doc)
    except OpNotRegistered as e:
        raise TorchRejected(e.node, e) from e
    shape_env = ShapeEnv()
    mode = FakeTensorMode(shape_env=shape_env, allow_non_fake_inputs=True)
    inputs, equalities = _fake_inputs(shape_env, mode, placeholders, doc.get("dynamic_shapes"), example["inputs"])
    rec = _Recorder(gm, shape_env)
    # torch.export and Dynamo trace under the Python dispatcher, where CompositeImplicitAutograd
    # ops with Python decompositions (dropout, the interpolations, ...) and the Python metas
    # (the _to_copy decomposition, im2col) run instead of their C++ kernels: the guards users
    # get are those, so the reference runs the same way.
    with enable_python_dispatcher(), mode:
        rec.run(*inputs)
    # ignore_static=False: symshape's guard text also checks static sizes and strides
    guards = shape_env.produce_guards(inputs, [LocalSource(n) for n, _ in placeholders], ignore_static=False,
                                      equalities_inputs=equalities)
    sources = {sym: srcs[0].name for sym, srcs in shape_env.var_to_sources.items() if srcs}
    return {"values": rec.results, "guards": guards, "sources": sources, "env": shape_env,
            "origins": _printed_origins(shape_env, rec.origins)}


def _printed_origins(shape_env, origins):
    """[(printed guard, node, PyTorch function)] for the guards recorded during the run,
    each simplified and printed as produce_guards prints (symbols as their sources)."""
    from torch.fx.experimental.symbolic_shapes import ShapeGuardPythonPrinter
    printer = ShapeGuardPythonPrinter(shape_env.var_to_sources, lambda src: src.name, shape_env.var_to_sources)
    out = []
    for expr, node, where in origins:
        try:
            out.append((printer.doprint(shape_env.simplify(expr)), node, where))
        except Exception:  # noqa: BLE001 - a guard that no longer prints has no line to explain
            continue
    return out


def _torch_scalar(v, rename):
    """(printed form with symshape's symbol names, value at the example) of an int/SymInt."""
    if isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        expr = v.node.expr
        text = str(expr.xreplace(rename)) if rename else str(expr)
        hint = v.node.hint
        return text, (None if hint is None else hint)
    return str(v), v


def _flatten(v, path, out):
    if isinstance(v, (list, tuple)):
        for i, x in enumerate(v):
            _flatten(x, f"{path}[{i}]", out)
    else:
        out.append((path, v))
    return out


def _torch_fields(v, rename):
    """[(field, printed, value)] of one PyTorch result, in the order symshape's are listed."""
    out = []
    for path, x in _flatten(v, "", []):
        if isinstance(x, torch.Tensor):
            for i, s in enumerate(x.shape):
                out.append((f"{path}.shape[{i}]",) + _torch_scalar(s, rename))
            for i, s in enumerate(x.stride()):
                out.append((f"{path}.stride[{i}]",) + _torch_scalar(s, rename))
            out.append((f"{path}.storage_offset",) + _torch_scalar(x.storage_offset(), rename))
            out.append((f"{path}.dtype", _DTYPE_NAMES.get(x.dtype, str(x.dtype)), _DTYPE_NAMES.get(x.dtype)))
            out.append((f"{path}.rank", str(x.dim()), x.dim()))
        elif isinstance(x, (bool, torch.SymBool)):
            out.append((path,) + _torch_scalar(x, rename))
        elif isinstance(x, (int, torch.SymInt)):
            out.append((path,) + _torch_scalar(x, rename))
        elif isinstance(x, (float, torch.SymFloat)):
            out.append((path,) + _torch_scalar(x, rename))
        else:
            out.append((path, "None" if x is None else type(x).__name__, None))
    return out


def _symshape_fields(sym, conc):
    out = []
    for (path, s), (_, c) in zip(_flatten(sym, "", []), _flatten(conc, "", [])):
        if isinstance(s, dict):
            for i, (e, v) in enumerate(zip(s["shape"], c["shape"])):
                out.append((f"{path}.shape[{i}]", e, v))
            for i, (e, v) in enumerate(zip(s["stride"], c["stride"])):
                out.append((f"{path}.stride[{i}]", e, v))
            out.append((f"{path}.storage_offset", s["storage_offset"], c["storage_offset"]))
            out.append((f"{path}.dtype", s["dtype"], s["dtype"]))
            out.append((f"{path}.rank", str(len(s["shape"])), len(s["shape"])))
        else:
            out.append((path, "None" if s is None else str(s), c))
    return out


def _same_value(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, (bool, int, float)) and isinstance(b, (bool, int, float)):
        return a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)
    return str(a) == str(b)


_SYMBOL = re.compile(r"\b([a-z_][A-Za-z0-9_]*)\b")


def compare_example(graph_name, doc, graph, example_index, known):
    """(nodes compared, fields equal in printed form, node diffs, guard diffs) for one
    example; raises TorchRejected when PyTorch cannot run it."""
    example = doc["examples"][example_index]
    ref = torch_propagate(doc, example)
    # FakeTensorMode's strides where they differ from the eager kernels' (a view's size-1 dims)
    prop = graph.propagate(example=example_index, strides="fake")
    # symbols matched by source: PyTorch's symbol -> symshape's symbol of the same source
    ours = {}
    for name, srcs in prop.symbol_sources.items():
        for s in srcs:
            ours.setdefault(s, name)
    rename = {sym: sympy.Symbol(ours[src], integer=True) for sym, src in ref["sources"].items() if src in ours}
    node_diffs, compared, same_text = [], 0, 0
    symbolic = {n["name"]: n["value"] for n in prop.nodes}
    concrete = {n["name"]: n["value"] for n in prop.concrete_nodes()}
    differing = set()
    for node in doc["nodes"]:
        name = node["name"]
        if node["op"] == "output" or name not in ref["values"]:
            continue
        compared += 1
        theirs = _torch_fields(ref["values"][name], rename)
        mine = _symshape_fields(symbolic.get(name), concrete.get(name))
        found = []
        if len(theirs) != len(mine) or any(t[0] != m[0] for t, m in zip(theirs, mine)):
            found.append(("structure", [t[0] for t in theirs], [m[0] for m in mine]))
        else:
            for (field, t_text, t_val), (_, m_text, m_val) in zip(theirs, mine):
                if t_text == m_text:
                    same_text += 1
                elif field.endswith(".dtype") or field.endswith(".rank") or not _same_value(t_val, m_val) or \
                        (t_val is None and m_val is None):
                    found.append((field, t_text, m_text))
        if not found:
            continue
        differing.add(name)
        # a difference that only carries an input's difference forward is reported with it,
        # not counted again (a view of an op whose strides differ has the same difference)
        cause = next((a for a in _input_names(node) if a in differing), None)
        for field, t_text, m_text in found:
            d = _diff("node", graph_name, example_index, name, field, t_text, m_text, known)
            d["target"] = node.get("target")
            if cause:
                d["inherited_from"] = cause
            node_diffs.append(d)
    missing, extra = same_guards(ref["guards"], list(prop.guards))
    guard_diffs = []
    origins = [(text, canonical(text), node, where) for text, node, where in ref["origins"]] if missing else []
    for g in missing:
        node, where = origin_of(g, origins)
        d = _diff("guard", graph_name, example_index, node, "missing", g, None, known)
        d["torch_origin"] = where
        guard_diffs.append(d)
    guard_diffs += [_diff("guard", graph_name, example_index, "", "extra", None, g, known) for g in extra]
    return compared, same_text, node_diffs, guard_diffs


def origin_of(line, origins):
    """(node, PyTorch function) that recorded the guard printed as `line`; `origins` holds
    (printed, canonical form, node, function) per recorded guard. A line no recorded guard
    prints as comes from produce_guards itself (input equalities, ranges)."""
    form = canonical(line)
    for text, text_form, node, where in origins:
        if text == line or text_form == form:
            return node, where
    return "", "produce_guards"


def _input_names(node):
    out = []

    def walk(a):
        if isinstance(a, dict) and "node" in a:
            out.append(a["node"])
        elif isinstance(a, list):
            for x in a:
                walk(x)
    walk(node.get("args", []))
    walk(list(node.get("kwargs", {}).values()))
    return out


def _diff(kind, graph, example, node, field, torch_value, symshape_value, known):
    key = f"{kind}:{graph}:{node}" if kind == "node" else f"{kind}:{graph}:{torch_value or symshape_value}"
    return {"kind": kind, "graph": graph, "example": example, "node": node, "field": field,
            "torch": torch_value, "symshape": symshape_value, "key": key, "known": known.get(key)}
