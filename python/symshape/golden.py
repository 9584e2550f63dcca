"""Golden examples for exported graphs: the reference interpreter of FORMAT.md. Each
node of the fx-graph-json document is executed with torch.ops.aten.* (operator.* for
size arithmetic) at an example's inputs; every node's value is recorded, or the first
error with the node that raised it."""
import operator
import re

import torch

from .fxjson import dtype_str, spec_leaf

_OPERATORS = {"getitem": operator.getitem, "add": operator.add, "sub": operator.sub, "mul": operator.mul,
              "floordiv": operator.floordiv, "truediv": operator.truediv, "mod": operator.mod, "neg": operator.neg,
              "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt,
              "ge": operator.ge, "pow": operator.pow}
_DTYPE = {dtype_str(d): d for d in (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8,
                                    torch.uint8, torch.int16, torch.int32, torch.int64, torch.bool, torch.complex64)}


def _value(v):
    if isinstance(v, torch.Tensor):
        return {"shape": list(v.shape), "stride": list(v.stride()), "dtype": dtype_str(v.dtype)}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": int(v)}
    if isinstance(v, float):
        return {"float": v}
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return None


def _arg(a, env):
    if isinstance(a, dict):
        if "node" in a:
            return env[a["node"]]
        if "dtype" in a:
            return _DTYPE[a["dtype"]]
        if "device" in a:
            return torch.device(a["device"])
        if "layout" in a:
            return torch.strided
        if "memory_format" in a:
            return getattr(torch, a["memory_format"])
        if "float" in a:
            return float(a["float"])
    if isinstance(a, list):
        return [_arg(x, env) for x in a]
    return a


def _target(name):
    if name == "aten.sym_size.int":
        return lambda t, d: t.size(d)
    if name.startswith("operator."):
        return _OPERATORS[name.split(".", 1)[1]]
    if name.startswith("torch.sym_"):  # torch.sym_max / sym_min / sym_int / sym_float of size arithmetic
        return getattr(torch, name.split(".", 1)[1])
    if name.startswith("math."):  # math.ceil / math.floor of size arithmetic
        import math
        return getattr(math, name.split(".", 1)[1])
    if name.startswith("builtins."):
        import builtins
        return getattr(builtins, name.split(".", 1)[1])
    namespace, op, overload = name.split(".")  # aten, or a custom op's library (registered by it)
    return getattr(getattr(getattr(torch.ops, namespace), op), overload)


def run(doc, inputs, attrs):
    """(values by node name, output) or raises (exception, node name)."""
    env = {}
    by_input = dict(inputs)
    for node in doc["nodes"]:
        kind = node["op"]
        if kind == "placeholder":
            env[node["name"]] = by_input[node["name"]]
        elif kind == "get_attr":
            env[node["name"]] = attrs[node["name"]]
        elif kind == "call_function":
            fn = _target(node["target"])
            args = [_arg(a, env) for a in node["args"]]
            kwargs = {k: _arg(v, env) for k, v in node.get("kwargs", {}).items()}
            try:
                env[node["name"]] = fn(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - PyTorch's own error is the golden
                raise _NodeError(e, node["name"]) from e
        else:
            return env, _arg(node["args"][0], env)
    return env, None


class _NodeError(Exception):
    def __init__(self, error, node):
        super().__init__(str(error))
        self.error, self.node = error, node


def in_spec(doc, sizes):
    spec = doc["dynamic_shapes"]
    seen = {}
    for name, row in spec["dynamic_shapes"].items():
        s = sizes.get(name)
        if s is None or len(s) != len(row):
            return False
        for d, entry in zip(s, row):
            if isinstance(entry, int):
                if d != entry:
                    return False
                continue
            leaf = spec_leaf(spec, entry)
            if leaf is None:
                return False
            root, mul, add = leaf  # a derived Dim (`b + 1`): the root's value solved from d
            if (d - add) % mul:
                return False
            v = (d - add) // mul
            if seen.setdefault(root, v) != v:
                return False
            rng = spec["dims"][root]
            if v < rng["min"] or (rng["max"] is not None and v > rng["max"]):
                return False
    return True


# An index tensor's entry outside the indexed dim (embedding's "index out of range in self";
# gather / scatter / index / index_select's "index 128 is out of bounds for dimension 1 with
# size 128"): the failure depends on the values, not the sizes (a position-id past the
# position table, computed from the attention mask).
_VALUE_ERRORS = re.compile(r"^IndexError: index out of range in self|"
                           r"^(IndexError|RuntimeError): index -?\d+ is out of bounds for dimension \d+ with size \d+")


def error_kind(text):
    """FORMAT.md's error_kind of a failure, from its "Type: message" text."""
    return "value" if _VALUE_ERRORS.match(text) else "shape"


def _error_kind(e):
    return error_kind(f"{type(e).__name__}: {e}")


def record_example(doc, inputs, attrs, seed=0):
    """One EXAMPLE object for `inputs` ({name: tensor})."""
    sizes = {n: list(t.shape) for n, t in inputs.items()}
    ex = {"inputs": sizes, "seed": seed, "in_spec": in_spec(doc, sizes)}
    try:
        with torch.no_grad():
            env, out = run(doc, inputs, attrs)
    except _NodeError as e:
        first = str(e.error).strip().splitlines()[0] if str(e.error).strip() else ""
        ex.update(ok=False, error=f"{type(e.error).__name__}: {first}", error_kind=_error_kind(e.error),
                  error_node=e.node)
        return ex
    ex.update(ok=True, output=_value(out),
              values={n["name"]: _value(env[n["name"]]) for n in doc["nodes"] if n["op"] != "output"})
    return ex


def record_examples(doc, examples, attrs):
    names = [n["name"] for n in doc["nodes"] if n["op"] == "placeholder"]
    out = []
    for i, ex in enumerate(examples):
        if not isinstance(ex, (tuple, list)):
            ex = (ex,)
        out.append(record_example(doc, dict(zip(names, ex)), attrs, seed=i))
    return out
