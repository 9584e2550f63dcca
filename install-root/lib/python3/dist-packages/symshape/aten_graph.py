"""ATen-level graphs into fx-graph-json: a torch.fx.GraphModule whose call_function
targets are ATen overloads (make_fx output), or an ExportedProgram of newer PyTorch
(duck-typed: .graph_module, .range_constraints, .graph_signature, .state_dict)."""
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
        return self.w.call(f"aten.{packet}.{t._overloadname}", pos, kw, base=packet)

    def output(self, node):
        self.w.output(self.arg(node.args[0]))


def _attr(gm, target):
    obj = gm
    for part in target.split("."):
        obj = getattr(obj, part)
    return obj


def convert_graph_module(gm, example_inputs, lifted=None):
    """(GraphWriter, input names). `lifted`: placeholder name -> (dotted name, tensor) for
    parameters an ExportedProgram passes as inputs (they become get_attr nodes)."""
    lifted = lifted or {}
    c = _Converter(GraphWriter())
    names = []
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            if node.name in lifted:
                target, tensor = lifted[node.name]
                c.names[node] = c.w.get_attr(target, tensor)
            else:
                c.names[node] = c.w.placeholder(node.name)
                names.append(c.names[node])
        elif node.op == "get_attr":
            c.names[node] = c.w.get_attr(node.target, _attr(gm, node.target))
        elif node.op == "call_function":
            c.names[node] = c.call(node)
        elif node.op == "output":
            c.output(node)
        else:
            raise RuntimeError(f"node '{node.name}': {node.op} nodes are not ATen-level (use an nn.Module instead)")
    if len(names) != len(example_inputs):
        raise RuntimeError(f"the graph has {len(names)} inputs but {len(example_inputs)} example inputs were given")
    return c.w, names


def convert_exported_program(ep, example_inputs, dynamic_shapes):
    """An ExportedProgram: lifted parameters/buffers become get_attr nodes; the spec comes
    from the placeholders' symbolic sizes and ep.range_constraints (dynamic_shapes, if
    given, was already applied by torch.export)."""
    sig = ep.graph_signature
    state = ep.state_dict
    lifted = {}
    for mapping in ("inputs_to_parameters", "inputs_to_buffers"):
        for ph, name in dict(getattr(sig, mapping, {}) or {}).items():
            lifted[ph] = (name, state[name])
    w, names = convert_graph_module(ep.graph_module, example_inputs, lifted)
    ranges = {str(k): v for k, v in dict(ep.range_constraints).items()}
    dyn, dims = {}, {}
    by_name = {n.name: n for n in ep.graph_module.graph.nodes if n.op == "placeholder"}
    for name, t in zip(names, example_inputs):
        val = by_name[name].meta.get("val")
        row = []
        for d, s in enumerate(val.shape if val is not None else t.shape):
            if isinstance(s, int):
                row.append(int(s))
                continue
            sym = str(s)
            r = ranges.get(sym)
            lo = int(r.lower) if r is not None else 1
            hi = int(r.upper) if r is not None and r.upper.is_finite else None
            dims[sym] = {"min": lo, "max": hi, "derived": []}
            row.append(sym)
        dyn[name] = row
    return w, names, spec_json(dyn, dims)
