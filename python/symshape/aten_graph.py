"""ATen-level graphs into fx-graph-json: a torch.fx.GraphModule whose call_function
targets are ATen overloads (make_fx output), or an ExportedProgram of newer PyTorch
(duck-typed: .graph_module, .range_constraints, .graph_signature, .state_dict)."""
import math
import operator

import torch

from . import schema as sch
from .fxjson import GraphWriter, spec_json, to_arg


class _Converter:
    def __init__(self, writer):
        self.w = writer
        self.names = {}  # fx node -> emitted name

    def arg(self, v):
        return to_arg(v, lambda x: self.names[x] if isinstance(x, torch.fx.Node) else None)

    def call(self, node):
        t = node.target
        if getattr(t, "__module__", None) == "_operator" or t in vars(operator).values():
            return self.w.call(f"operator.{t.__name__}", [self.arg(a) for a in node.args], {}, base=t.__name__)
        if isinstance(t, torch._ops.OpOverloadPacket) and t.__name__ == "sym_size" or \
                str(t) in ("aten.sym_size", "aten.sym_size.default", "aten.sym_size.int"):
            return self.w.call("aten.sym_size.int", [self.arg(a) for a in node.args], {}, base="sym_size")
        if t in (math.ceil, math.floor):  # math.ceil(SymFloat): the size arithmetic of a program
            return self.w.call(f"math.{t.__name__}", [self.arg(a) for a in node.args], {}, base=t.__name__)
        if getattr(t, "__name__", "").startswith("sym_") and getattr(t, "__module__", None) == "torch":
            return self.w.call(f"torch.{t.__name__}", [self.arg(a) for a in node.args], {}, base=t.__name__)
        if not isinstance(t, torch._ops.OpOverload):
            raise RuntimeError(f"node '{node.name}': target {t} is not an ATen overload or operator")
        params = sch.parse_params(t._schema)
        given = dict(zip([p.name for p in params if not p.kwarg_only], node.args))
        given.update(node.kwargs)
        filled = sch.fill_arguments(params, given)
        if filled is None:
            missing = [p.name for p in params if p.name not in given and not p.has_default]
            raise RuntimeError(f"node '{node.name}' ({t}): argument '{missing[0]}' missing")
        pos = [self.arg(v) for v in filled[0]]
        kw = {k: self.arg(v) for k, v in filled[1].items()}
        packet = t.overloadpacket.__name__
        # the op's own namespace (a library's custom op stays `transformers.grouped_mm_fallback`,
        # named as unsupported, never mistaken for an ATen op)
        return self.w.call(f"{t.namespace}.{packet}.{t._overloadname}", pos, kw, base=packet)

    def output(self, node):
        self.w.output(self.arg(node.args[0]))


def _attr(gm, target):
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


# Higher-order ops of torch.export 2.x graphs that only change a mode around a subgraph
# (a `torch.no_grad()` / `torch.autocast(enabled=False)` region, e.g. transformers' rotary
# embeddings): name -> index of the subgraph argument, the operands follow it. Gradient mode
# changes no shape, stride or dtype and a disabled autocast casts nothing, so the subgraph's
# ATen nodes are inlined at the call; an enabled autocast (whose casts are not in the
# subgraph) is refused by name.
_MODE_HOPS = {"wrap_with_set_grad_enabled": 1, "wrap_with_autocast": 4}


def in_module(node):
    """` in module 'encoder.layers.0.attn'` from the node's nn_module_stack, or ''."""
    stack = node.meta.get("nn_module_stack") or {}
    if not stack:
        return ""
    path = list(stack.values())[-1]
    path = path[0] if isinstance(path, (tuple, list)) else path
    return f" in module '{path}'" if path else ""


def _mode_hop(node):
    """The subgraph argument's index when `node` calls a mode-only higher-order op, else None."""
    hop = getattr(torch._ops, "HigherOrderOperator", None)  # PyTorch 2.x
    if node.op != "call_function" or hop is None or not isinstance(node.target, hop):
        return None
    name = node.target.name()
    if name not in _MODE_HOPS:
        why = (": a branch taken at run time (each branch would need its own graph; a Python `if` on sizes "
               "exports as one branch with its guard)" if name == "cond" else
               ": a loop whose trip count is data" if name == "while_loop" else "")
        raise RuntimeError(f"node '{node.name}'{in_module(node)} calls the higher-order op torch.{name}, which "
                           f"fx-graph-json cannot hold{why}")
    if name == "wrap_with_autocast" and node.args[2]:
        raise RuntimeError(f"node '{node.name}' runs its subgraph under an enabled torch.autocast "
                           f"({node.args[0]}, {node.args[1]}): its casts are not ATen nodes of the graph")
    return _MODE_HOPS[name]


def _inline(c, gm, node, index):
    """The subgraph of a mode-only higher-order op converted in place; its outputs' names."""
    body = _attr(gm, node.args[index].target)
    operands = iter(node.args[index + 1:])
    for n in body.graph.nodes:
        if n.op == "placeholder":
            c.names[n] = c.names[next(operands)]
        elif n.op == "output":
            return [c.names[x] for x in n.args[0]]
        else:
            _convert_node(c, body, n)
    raise RuntimeError(f"node '{node.name}': its subgraph has no output")


def _convert_node(c, gm, node, hint=""):
    if node.op == "get_attr":
        value = _attr(gm, node.target)
        # a higher-order op's subgraph: inlined where it is called
        c.names[node] = None if isinstance(value, torch.nn.Module) else c.w.get_attr(node.target, value)
    elif node.op == "call_function":
        index = _mode_hop(node)
        if index is not None:
            c.names[node] = _inline(c, gm, node, index)
        elif node.target is operator.getitem and isinstance(node.args[0], torch.fx.Node) and \
                isinstance(c.names.get(node.args[0]), list):  # an output of an inlined subgraph
            c.names[node] = c.names[node.args[0]][node.args[1]]
        else:
            c.names[node] = c.call(node)
    else:
        raise RuntimeError(f"node '{node.name}': {node.op} nodes are not ATen-level{hint}")


def _convert_nodes(c, gm, lifted, hint):
    """Every node of `gm` through the converter `c`; returns the user inputs' emitted names.
    Placeholders in `lifted` (name -> (dotted name, tensor)) become get_attr nodes."""
    names = []
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            if node.name in lifted:
                target, tensor = lifted[node.name]
                c.names[node] = c.w.get_attr(target, tensor)
            else:
                c.names[node] = c.w.placeholder(node.name)
                names.append(c.names[node])
        elif node.op in ("get_attr", "call_function"):
            _convert_node(c, gm, node, hint)
        elif node.op == "output":
            c.output(node)
        else:
            raise RuntimeError(f"node '{node.name}': {node.op} nodes are not ATen-level{hint}")
    return names


def convert_graph_module(gm, example_inputs, lifted=None):
    """(GraphWriter, input names). `lifted`: placeholder name -> (dotted name, tensor) for
    parameters an ExportedProgram passes as inputs (they become get_attr nodes)."""
    c = _Converter(GraphWriter())
    names = _convert_nodes(c, gm, lifted or {}, " (use an nn.Module instead)")
    if len(names) != len(example_inputs):
        raise RuntimeError(f"the graph has {len(names)} inputs but {len(example_inputs)} example inputs were given")
    return c.w, names


# Asserts torch.export leaves in the graph (runtime checks of sizes and unbacked values).
# They have no users, so they are kept past dead-code elimination when the engine knows
# them, and refused by name when it does not: a check on sizes never disappears.
_ASSERTS = {"aten._assert_scalar.default", "aten._assert_async.msg", "aten.sym_constrain_range.default",
            "aten.sym_constrain_range_for_size.default"}
# Checks of dtype/device only (torch.export's `.to()` bookkeeping): no size is involved.
_METADATA_CHECKS = {"aten._assert_tensor_metadata.default"}


def _lifted_inputs(ep):
    """placeholder name -> (dotted name, tensor) for every non-user input of the program.
    Real ExportedPrograms list them in graph_signature.input_specs (parameters, buffers,
    lifted constant tensors; non-persistent buffers live in ep.constants); older duck-typed
    objects give inputs_to_parameters / inputs_to_buffers."""
    sig = ep.graph_signature
    state = dict(ep.state_dict)
    constants = dict(getattr(ep, "constants", None) or {})
    specs = getattr(sig, "input_specs", None)
    if specs is None:
        return {ph: (name, state[name]) for mapping in ("inputs_to_parameters", "inputs_to_buffers")
                for ph, name in dict(getattr(sig, mapping, {}) or {}).items()}
    lifted = {}
    for spec in specs:
        kind = spec.kind.name
        if kind == "USER_INPUT":
            continue
        if kind not in ("PARAMETER", "BUFFER", "CONSTANT_TENSOR"):
            raise RuntimeError(f"input '{spec.arg.name}' is a {kind} input of the ExportedProgram; "
                               f"fx-graph-json has tensors only")
        t = state[spec.target] if spec.target in state else constants[spec.target]
        lifted[spec.arg.name] = (spec.target, t)
    return lifted


def _user_outputs(ep):
    """Indices of the USER_OUTPUT values in the output tuple (mutated buffers are left out:
    their new values have the shapes the buffers already have)."""
    specs = getattr(ep.graph_signature, "output_specs", None)
    return None if specs is None else [i for i, s in enumerate(specs) if s.kind.name == "USER_OUTPUT"]


class _ProgramConverter(_Converter):
    def __init__(self, writer, supported, user_outputs):
        super().__init__(writer)
        self.supported = supported
        self.user_outputs = user_outputs

    def call(self, node):
        target = str(node.target)
        if target in _METADATA_CHECKS and node.kwargs.get("size") is None and node.kwargs.get("stride") is None:
            return None
        if target in _ASSERTS:
            if self.supported is not None and target not in self.supported:
                msg = next((a for a in list(node.args[1:]) + list(node.kwargs.values()) if isinstance(a, str)), "")
                raise RuntimeError(f"node '{node.name}'{in_module(node)} is a runtime assert of the ExportedProgram ({target} "
                                   f"{msg!r}) the engine does not support; dropping it would lose a check on sizes")
            name = super().call(node)
            self.w.keep_alive(name)
            return name
        if self.supported is not None and isinstance(node.target, torch._ops.OpOverload) and target not in self.supported:
            raise RuntimeError(f"node '{node.name}'{in_module(node)} calls {target}, which the engine does not support")
        return super().call(node)

    def output(self, node):
        out = node.args[0]
        if self.user_outputs is not None:
            out = [out[i] for i in self.user_outputs]
        self.w.output(self.arg(out))


def convert_exported_program(ep, example_inputs, dynamic_shapes, supported=None):
    """An ExportedProgram: lifted parameters/buffers/constants become get_attr nodes; the spec
    comes from the user placeholders' symbolic sizes and ep.range_constraints (a branch on a
    size is a range there). Symbols are named after the user's Dims where dynamic_shapes
    gives one for that dim; derived sizes (`2*s0`, `s0 + 1`) are derived dims of their root."""
    lifted = _lifted_inputs(ep)
    c = _ProgramConverter(GraphWriter(), supported, _user_outputs(ep))
    names = _convert_nodes(c, ep.graph_module, lifted, "")
    if len(names) != len(example_inputs):
        raise RuntimeError(f"the program has {len(names)} user inputs but {len(example_inputs)} example inputs "
                           f"were given")
    by_name = {n.name: n for n in ep.graph_module.graph.nodes if n.op == "placeholder"}
    shapes = {}
    for name, t in zip(names, example_inputs):
        if not isinstance(t, torch.Tensor):
            raise RuntimeError(f"user input '{name}' is a {type(t).__name__}; fx-graph-json inputs are tensors")
        val = by_name[name].meta.get("val")
        shapes[name] = list(val.shape if val is not None else t.shape)
    return c.w, names, _program_spec(shapes, dict(ep.range_constraints), _user_dim_names(names, shapes,
                                                                                        dynamic_shapes))


def _expr(s):
    """sympy expression of a SymInt (None for a duck-typed size that only prints)."""
    node = getattr(s, "node", None)
    return getattr(node, "expr", None)


def _linear(e, sym):
    """(mul, add) of e == mul*sym + add with integer mul and add, else None."""
    import sympy
    e = sympy.expand(e)
    if e.free_symbols - {sym}:
        return None
    mul, add = e.coeff(sym, 1), e.subs(sym, 0)
    if not (mul.is_Integer and add.is_Integer) or sympy.expand(mul * sym + add - e) != 0:
        return None
    return int(mul), int(add)


def _user_dim_names(names, shapes, dynamic_shapes):
    """symbol -> (name of the user's root Dim, a, c): the symbol is a*R + c over that Dim R
    (top-level inputs; dict by name or by position). A Dim the program's size is
    (`s0` for Dim('b')) gives (b, 1, 0); a derived Dim too (`s0 + 1` for b + 1 gives s0 = b), and
    so does a size export rewrote over the smaller derived input (b's input is `s1 + 1` when
    `b - 1` is s1: s1 = b - 1)."""
    import sympy
    rename = {}
    if dynamic_shapes is None:
        return rename
    for pos, name in enumerate(names):
        spec = dynamic_shapes.get(name) if isinstance(dynamic_shapes, dict) else \
            (dynamic_shapes[pos] if isinstance(dynamic_shapes, (list, tuple)) and pos < len(dynamic_shapes) else None)
        if isinstance(spec, (list, tuple)):
            spec = dict(enumerate(spec))
        if not isinstance(spec, dict):
            continue
        for d, dim in spec.items():
            root = getattr(dim, "root", dim)  # a derived Dim names its root's symbol
            label = getattr(root, "__name__", None)
            e = _expr(shapes[name][d]) if isinstance(d, int) and d < len(shapes[name]) else None
            if not (label and label.isidentifier() and e is not None and len(e.free_symbols) == 1):
                continue
            sym = next(iter(e.free_symbols))
            r = sympy.Symbol(label, integer=True)
            user = _linear(dim.fn(r), r) if hasattr(dim, "fn") and hasattr(dim, "root") else (1, 0)
            prog = _linear(e, sym)
            if user is None or prog is None or str(sym) in rename:
                continue
            # prog_mul*sym + prog_add == user_mul*R + user_add: sym = a*R + c when integral
            (m, k), (p, q) = user, prog
            if m % p or (k - q) % p or m // p < 1:
                continue
            rename[str(sym)] = (label, m // p, (k - q) // p)
    return rename


def _bound(v):
    """An int range bound; None for PyTorch's infinities (int_oo claims is_finite, so by name)."""
    if str(v) in ("oo", "-oo", "int_oo", "-int_oo") or getattr(v, "is_finite", True) is False:
        return None
    return int(v)


def _program_spec(shapes, range_constraints, rename):
    """The DynamicShapesSpec of the program's input sizes: a symbol (or an integral linear
    function of it, `s0 + 1`, `2*s0`) is a Dim / a derived Dim of its root, named after the
    user's Dim where `rename` (_user_dim_names) has one; the root's range from
    range_constraints. A size in two or more symbols (OPT's `past + q`) has no Dim form:
    refused by name."""
    import sympy
    ranges = {str(k): v for k, v in range_constraints.items()}
    # a derived Dim's entry (`2*s0 + 1: [1, int_oo]`) keeps the user's range where the root's
    # own entry is the traced one ([2, int_oo] for a phantom root): the root's min is the lower
    # of the two
    derived_lo = {}
    for k, v in range_constraints.items():
        if getattr(k, "is_Symbol", True) or len(getattr(k, "free_symbols", ())) != 1:
            continue
        sym = next(iter(k.free_symbols))
        lin, lo = _linear(k, sym), _bound(v.lower)
        if lin is not None and lin[0] >= 1 and lo is not None:
            cand = -((lin[1] - lo) // lin[0])  # ceil((lo - add) / mul)
            derived_lo[str(sym)] = min(cand, derived_lo.get(str(sym), cand))
    dyn, dims = {}, {}

    def root_entry(sym):
        """(root name, a, c) with sym == a*root + c; the root's dims entry made on first use."""
        label, a, c = rename.get(sym, (sym, 1, 0))
        if label not in dims:
            r = ranges.get(sym)
            lo = _bound(r.lower) if r is not None else 1
            if sym in derived_lo and (lo is None or derived_lo[sym] < lo):
                lo = max(derived_lo[sym], 0)
            hi = _bound(r.upper) if r is not None else None
            # sym in [lo, hi] and sym == a*root + c: root in [ceil((lo - c)/a), floor((hi - c)/a)]
            lo = -((c - lo) // a) if lo is not None else None
            hi = (hi - c) // a if hi is not None else None
            dims[label] = {"min": max(lo, 0) if lo is not None else 0, "max": hi, "derived": []}
        return label, a, c

    for name, shape in shapes.items():
        row = []
        for d, s in enumerate(shape):
            if isinstance(s, int):
                row.append(int(s))
                continue
            e = _expr(s)
            if e is None or e.is_Symbol:
                sym = str(e if e is not None else s)
                e = sympy.Symbol(sym, integer=True)
            if e.is_number:
                row.append(int(e))
                continue
            if len(e.free_symbols) != 1:
                roots = " and ".join(sorted({rename.get(str(x), (str(x),))[0] for x in e.free_symbols}))
                raise RuntimeError(f"input '{name}' has size {e} (dim {d}, over {roots}): a size in several "
                                   f"Dims has no DynamicShapesSpec form (a Dim or a derived Dim of one root)")
            sym = next(iter(e.free_symbols))
            label, a, c = root_entry(str(sym))
            lin = _linear(e, sym)
            if lin is None:
                raise RuntimeError(f"input '{name}' has size {e} (dim {d}), not a Dim or a derived Dim of one")
            mul, add = lin[0] * a, lin[0] * c + lin[1]  # over the root: mul*root + add
            if mul < 1:
                raise RuntimeError(f"input '{name}' has size {e} (dim {d}), a decreasing function of "
                                   f"{label}: derived Dims are increasing")
            if (mul, add) == (1, 0):
                row.append(label)
                continue
            # PyTorch's name of the derived Dim: str(fn(sympify(root))) (Dim._derived_name)
            text = str(mul * sympy.Symbol(label) + add)
            entry = dims[label]
            if mul * entry["min"] + add < 0:
                raise RuntimeError(f"input '{name}' has size {e} (dim {d}) = {text} whose min "
                                   f"{mul * entry['min'] + add} is negative for {label} >= {entry['min']}")
            if text not in entry["derived"]:
                entry["derived"] = sorted(entry["derived"] + [text])
            row.append(text)
        dyn[name] = row
    return spec_json(dyn, dims)
