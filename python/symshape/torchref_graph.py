"""fx-graph-json -> torch.fx.GraphModule of torch.ops.aten calls (PyTorch 2.x), for the
differential harness: the same graph symshape propagates, run by PyTorch's own code.

Parameters and buffers (`get_attr`) become attributes of the module with the recorded
shape, stride and dtype; integer and bool tables keep their exact `data`, floating ones
are zeros (fake propagation reads no values)."""
import builtins
import math

import torch
import torch.fx

from .golden import _DTYPE as DTYPES
from .golden import _OPERATORS
from .golden import _arg as _argument  # the reference interpreter's argument forms (FORMAT.md)



class GraphConversionError(Exception):
    """The document names something PyTorch 2.x does not have (an op, an overload)."""


class OpNotRegistered(GraphConversionError):
    """A custom op whose library is not imported in this process (e.g. transformers'
    `transformers::grouped_mm_fallback`): PyTorch here cannot run the graph."""


def resolve_target(name):
    """The callable of a node's target: aten and custom ops (`ns.op.overload`), and the
    Python functions of size arithmetic the exporter writes (operator., math., torch.sym_*,
    builtins.), as the reference interpreter (golden._target) resolves them."""
    if name.startswith("operator."):
        op = _OPERATORS.get(name.split(".", 1)[1])
        if op is None:
            raise GraphConversionError(f"unknown operator target '{name}'")
        return op
    for prefix, module in (("math.", math), ("builtins.", builtins), ("torch.sym_", torch)):
        if name.startswith(prefix):
            fn = getattr(module, name.split(".", 1)[1], None)
            if fn is None:
                raise GraphConversionError(f"unknown target '{name}'")
            return fn
    parts = name.split(".")
    if len(parts) != 3:
        raise GraphConversionError(f"target '{name}' is not <namespace>.<op>.<overload>")
    namespace, op, overload = parts
    packet = getattr(getattr(torch.ops, namespace), op, None)
    target = getattr(packet, overload, None) if packet is not None else None
    if target is None:
        if namespace != "aten":
            raise OpNotRegistered(f"{namespace}::{op}.{overload} is not registered in this process (the library "
                                  f"that defines it is not imported)")
        raise GraphConversionError(f"PyTorch {torch.__version__} has no {name}")
    return target


def _attribute_tensor(meta):
    dtype = DTYPES[meta["dtype"]]
    shape, stride = meta["shape"], meta["stride"]
    if "data" in meta:
        dense = torch.tensor(meta["data"], dtype=dtype).reshape(shape)
        t = torch.empty_strided(shape, stride, dtype=dtype)
        t.copy_(dense)
        return t
    return torch.empty_strided(shape, stride, dtype=dtype).zero_()


def to_graph_module(doc):
    """(GraphModule, [(placeholder name, dtype)]) for one fx-graph-json document."""
    root = torch.nn.Module()
    graph = torch.fx.Graph()
    env = {}
    placeholders = []
    for node in doc["nodes"]:
        kind, name = node["op"], node["name"]
        if kind == "placeholder":
            env[name] = graph.placeholder(name)
            placeholders.append((name, DTYPES[node.get("meta", {}).get("dtype", "float32")]))
        elif kind == "get_attr":
            attr = "attr_" + name
            root.register_buffer(attr, _attribute_tensor(node["meta"]))
            env[name] = graph.get_attr(attr)
            env[name].name = name
        elif kind == "call_function":
            try:
                target = resolve_target(node["target"])
            except OpNotRegistered as e:
                e.node = name
                raise
            args = tuple(_argument(a, env) for a in node.get("args", []))
            kwargs = {k: _argument(v, env) for k, v in node.get("kwargs", {}).items()}
            env[name] = graph.call_function(target, args, kwargs)
            env[name].name = name
        elif kind == "output":
            graph.output(_argument(node["args"][0], env))
        else:
            raise GraphConversionError(f"node '{name}': unknown op kind '{kind}'")
    return torch.fx.GraphModule(root, graph), placeholders
