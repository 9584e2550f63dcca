"""fx-graph-json -> torch.fx.GraphModule of torch.ops.aten calls (PyTorch 2.x), for the
differential harness: the same graph symshape propagates, run by PyTorch's own code.

Parameters and buffers (`get_attr`) become attributes of the module with the recorded
shape, stride and dtype; integer and bool tables keep their exact `data`, floating ones
are zeros (fake propagation reads no values)."""
import torch
import torch.fx

from .golden import _DTYPE as DTYPES
from .golden import _OPERATORS
from .golden import _arg as _argument  # the reference interpreter's argument forms (FORMAT.md)



class GraphConversionError(Exception):
    """The document names something PyTorch 2.x does not have (an op, an overload)."""


def resolve_target(name):
    if name.startswith("operator."):
        op = _OPERATORS.get(name.split(".", 1)[1])
        if op is None:
            raise GraphConversionError(f"unknown operator target '{name}'")
        return op
    parts = name.split(".")
    if len(parts) != 3 or parts[0] != "aten":
        raise GraphConversionError(f"target '{name}' is not aten.<op>.<overload>")
    packet = getattr(torch.ops.aten, parts[1], None)
    overload = getattr(packet, parts[2], None) if packet is not None else None
    if overload is None:
        raise GraphConversionError(f"PyTorch {torch.__version__} has no {name}")
    return overload


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
            target = resolve_target(node["target"])
            args = tuple(_argument(a, env) for a in node.get("args", []))
            kwargs = {k: _argument(v, env) for k, v in node.get("kwargs", {}).items()}
            env[name] = graph.call_function(target, args, kwargs)
            env[name].name = name
        elif kind == "output":
            graph.output(_argument(node["args"][0], env))
        else:
            raise GraphConversionError(f"node '{name}': unknown op kind '{kind}'")
    return torch.fx.GraphModule(root, graph), placeholders
