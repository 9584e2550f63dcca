"""Writing fx-graph-json (shared/corpus/FORMAT.md): node list with unique FX-style names,
get_attr metadata, dead-code elimination, the SPEC object, and whole-or-nothing file writes."""
import os
import re
import tempfile

_DTYPES = {"float16": "float16", "half": "float16", "bfloat16": "bfloat16", "float32": "float32", "float": "float32",
           "float64": "float64", "double": "float64", "int8": "int8", "uint8": "uint8", "int16": "int16",
           "short": "int16", "int32": "int32", "int": "int32", "int64": "int64", "long": "int64", "bool": "bool",
           "complex64": "complex64", "cfloat": "complex64"}


def dtype_str(dt):
    name = str(dt).replace("torch.", "")
    if name not in _DTYPES:
        raise ValueError(f"dtype {name} is not in fx-graph-json")
    return _DTYPES[name]


def to_arg(v, ref):
    """fx-graph-json ARG of a Python value; ref(v) is the node name of a graph value
    (tensor, traced int, fx node) or None for a literal."""
    import math

    import torch
    r = ref(v)
    if r is not None:
        return {"node": r}
    if isinstance(v, (list, tuple)):
        return [to_arg(x, ref) for x in v]
    if isinstance(v, torch.dtype):
        return {"dtype": dtype_str(v)}
    if isinstance(v, torch.device):
        return {"device": v.type}
    if isinstance(v, torch.layout):
        return {"layout": "strided"}
    if isinstance(v, torch.memory_format):
        return {"memory_format": str(v).replace("torch.", "")}
    if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
        return {"float": "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise TypeError(f"cannot export an argument of type {type(v).__name__}")


def spec_json(dynamic_shapes, dims):
    return {"dynamic_shapes": dynamic_shapes, "dims": dims}


# A derived Dim's name as PyTorch prints it (Dim._derived_name, sympy's str): `b + 1`, `b - 1`,
# `2*b`, `2*b + 2` (the only form fx-graph-json's `derived` lists hold; docs/formats.md).
_DERIVED = re.compile(r"^(?:(\d+)\*)?([A-Za-z_][A-Za-z0-9_]*)(?: ([+-]) (\d+))?$")


def spec_leaf(spec, leaf):
    """(root, mul, add) of a dynamic_shapes leaf: a root Dim of `spec["dims"]` is (name, 1, 0), a
    derived Dim listed under its root is `mul*root + add`; None for anything else."""
    dims = spec.get("dims") or {}
    if leaf in dims:
        return leaf, 1, 0
    m = _DERIVED.match(leaf) if isinstance(leaf, str) else None
    if m is None or m.group(2) not in dims or leaf not in (dims[m.group(2)].get("derived") or []):
        return None
    add = int(m.group(4) or 0)
    return m.group(2), int(m.group(1) or 1), -add if m.group(3) == "-" else add


def write_whole(path, text):
    """Write `text` to `path` through a temporary file and a rename."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".symshape-", dir=d)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _refs(arg, out):
    if isinstance(arg, dict) and "node" in arg:
        out.append(arg["node"])
    elif isinstance(arg, list):
        for a in arg:
            _refs(a, out)
    elif isinstance(arg, dict):
        for a in arg.values():
            _refs(a, out)


class GraphWriter:
    def __init__(self):
        self.nodes = []
        self.names = set()
        self.attrs = {}          # dotted target -> node name
        self.attr_tensors = {}   # node name -> tensor (for the golden interpreter)
        self.input_ranges = {}
        self.kept = set()        # nodes with effects (runtime asserts): dead-code elimination keeps them

    def _unique(self, base):
        base = re.sub(r"[^A-Za-z0-9_]", "_", base) or "node"
        if base[0].isdigit():
            base = "_" + base
        name, i = base, 0
        while name in self.names:
            i += 1
            name = f"{base}_{i}"
        self.names.add(name)
        return name

    def placeholder(self, name):
        n = self._unique(name)
        self.nodes.append({"name": n, "op": "placeholder", "target": n, "meta": {}})
        return n

    def get_attr(self, target, tensor):
        if target in self.attrs:
            return self.attrs[target]
        n = self._unique(target.replace(".", "_"))
        meta = {"shape": list(tensor.shape), "dtype": dtype_str(tensor.dtype), "stride": list(tensor.stride())}
        if not tensor.dtype.is_floating_point and not tensor.dtype.is_complex:
            meta["data"] = [int(v) for v in tensor.detach().reshape(-1).tolist()]
        self.nodes.append({"name": n, "op": "get_attr", "target": target, "meta": meta})
        self.attrs[target] = n
        self.attr_tensors[n] = tensor.detach()
        return n

    def call(self, target, args, kwargs, base):
        n = self._unique(base)
        self.nodes.append({"name": n, "op": "call_function", "target": target, "args": args, "kwargs": kwargs})
        return n

    def keep_alive(self, name):
        self.kept.add(name)

    def output(self, arg):
        self.nodes.append({"name": "output", "op": "output", "target": "output", "args": [arg]})
        self.names.add("output")

    def set_input_meta(self, names, inputs, ranges):
        by_name = dict(zip(names, inputs))
        for node in self.nodes:
            if node["op"] == "placeholder":
                t = by_name[node["name"]]
                node["meta"] = {"dtype": dtype_str(t.dtype), "rank": t.dim()}
                if not t.dtype.is_floating_point and t.dtype != __import__("torch").bool:
                    lo, hi = ranges.get(node["name"], (0, max(int(t.max()) + 1, 1) if t.numel() else 1))
                    node["meta"]["range"] = [int(lo), int(hi)]

    def dead_code_elimination(self):
        """Drop call_function / get_attr nodes nothing reads (placeholders stay)."""
        used = set()
        for node in reversed(self.nodes):
            if node["op"] in ("call_function", "get_attr") and node["name"] not in used \
                    and node["name"] not in self.kept:
                node["_dead"] = True
                continue
            refs = []
            _refs(node.get("args", []), refs)
            _refs(node.get("kwargs", {}), refs)
            used.update(refs)
        self.nodes = [n for n in self.nodes if not n.pop("_dead", False)]
        live = {n["name"] for n in self.nodes}
        self.attr_tensors = {k: v for k, v in self.attr_tensors.items() if k in live}

    def document(self, name, spec):
        import torch
        try:
            import torchvision
            tv = torchvision.__version__
        except ImportError:
            tv = None
        return {"format": "fx-graph-json", "version": 1, "name": name,
                "producer": {"tool": "symshape.export", "torch": torch.__version__, "torchvision": tv},
                "nodes": self.nodes, "dynamic_shapes": spec, "examples": []}
