"""Generated example sets for the dynamism comparison (torchref_dynamism): each value built
twice, as the Python value PyTorch tracks and in symshape's NDJSON examples form
(docs/dynamism.md), from one random shape per argument that later examples vary (sizes,
numbers, lengths, a tensor turning into a number)."""
import collections
import random

import torch

Pair = collections.namedtuple("Pair", ["w", "z"])  # pytree flattens it with attribute keys (.w)
_TAGS = {"tensor", "list", "dict", "attrs", "module"}
_STR_KEYS = ["a", "b", "k", "weird key", "it's", "tensor", "x.y", "ü"]
_NUMBERS = [0, 1, 2, 3, 7, 1.0, 2.5, -4, True, False, 10**12]


class _Module(torch.nn.Module):
    pass


class _Opaque:
    """An object pytree does not look into (a leaf that contributes nothing)."""


# --- a template: one random shape of a value, instantiated once per example ---------------

def _template(rng, depth, top):
    r = rng.random()
    if depth < 3 and r < 0.35:
        kind = rng.choice(["list", "tuple", "strdict", "intdict", "pair"])
        n = 2 if kind == "pair" else rng.randint(0, 3)
        return (kind, [_template(rng, depth + 1, False) for _ in range(n)],
                rng.sample(_STR_KEYS, n) if kind == "strdict" else rng.sample(range(5), n))
    if r < 0.65:
        return ("tensor", rng.randint(0, 3))
    if r < 0.85:
        return ("number",)
    return ("other", rng.choice(["str", "none", "opaque", "module"]))


def _instance(rng, t, vary):
    """(torch value, NDJSON value below the top level) of template t in one example."""
    kind = t[0]
    if kind == "tensor":
        if vary and rng.random() < 0.05:
            return _instance(rng, ("number",), vary)
        rank = t[1] + (1 if vary and rng.random() < 0.05 else 0)
        sizes = [rng.choice([1, 2, 3]) if vary and rng.random() < 0.5 else 2 for _ in range(rank)]
        return torch.empty(sizes, device="meta"), {"tensor": sizes}
    if kind == "number":
        v = rng.choice(_NUMBERS) if vary and rng.random() < 0.6 else 3
        return v, v
    if kind == "other":
        what = t[1]
        if what == "str":
            return "text", "text"
        if what == "none":
            return None, None
        if what == "opaque":
            return _Opaque(), "opaque"  # a leaf contributing nothing, as a string is
        return _random_module(rng, rng, 1, vary)  # a module away from "self": an opaque leaf
    children, keys = t[1], t[2]
    if vary and kind in ("list", "tuple") and rng.random() < 0.2:
        children = children + children[:1]  # a longer sequence in this example
    values = [_instance(rng, c, vary) for c in children]
    if kind == "list":
        return [v for v, _ in values], [j for _, j in values]
    if kind == "tuple":
        return tuple(v for v, _ in values), [j for _, j in values]
    if kind == "pair":
        return Pair(values[0][0], values[1][0]), {"attrs": {"w": values[0][1], "z": values[1][1]}}
    if kind == "strdict":
        pyv = {k: v for k, (v, _) in zip(keys, values)}
        if len(keys) == 1 and keys[0] in _TAGS:
            return pyv, {"dict": [[k, j] for k, (_, j) in zip(keys, values)]}
        return pyv, {k: j for k, (_, j) in zip(keys, values)}
    return {k: v for k, (v, _) in zip(keys, values)}, {"dict": [[k, j] for k, (_, j) in zip(keys, values)]}


def _top_json(t, j):
    """The NDJSON form at the top level, where a plain list is a tensor's sizes."""
    if isinstance(j, dict) and "tensor" in j and len(j) == 1:
        return j["tensor"]
    if isinstance(j, list):
        return {"list": j}
    return j


# --- modules -------------------------------------------------------------------------------

_ATTR_NAMES = ["n_input", "n_output", "scale", "_hidden", "Alpha", "eps", "flag", "label", "t"]


def _random_module(layout, sizes_rng, depth, vary):
    """(nn.Module, NDJSON {"module": ...}): names and kinds drawn from `layout` (the same seed
    gives the same layout in every example), sizes and numbers from `sizes_rng`."""
    m = _Module()
    spec = {"attributes": {}, "parameters": {}, "buffers": {}, "modules": {}}

    def size():
        return sizes_rng.choice([2, 3, 5]) if vary and sizes_rng.random() < 0.5 else 4

    for name in layout.sample(_ATTR_NAMES, layout.randint(0, 4)):
        kind = layout.choice(["int", "float", "bool", "str", "tensor", "none"])
        if kind == "tensor":
            sizes = [size(), 2]
            setattr(m, name, torch.empty(sizes, device="meta"))
            spec["attributes"][name] = {"tensor": sizes}
            continue
        v = {"int": size, "float": lambda: float(size()) / 2, "bool": lambda: sizes_rng.random() < 0.5,
             "str": lambda: "s", "none": lambda: None}[kind]()
        setattr(m, name, v)
        spec["attributes"][name] = v
    for name in layout.sample(["weight", "bias", "gain"], layout.randint(0, 2)):
        if layout.random() < 0.15:
            m.register_parameter(name, None)
            spec["parameters"][name] = None
        else:
            sizes = [size(), 3]
            m.register_parameter(name, torch.nn.Parameter(torch.empty(sizes, device="meta")))
            spec["parameters"][name] = {"tensor": sizes}
    for name in layout.sample(["running_mean", "steps"], layout.randint(0, 2)):
        sizes = [size()]
        m.register_buffer(name, torch.empty(sizes, device="meta"))
        spec["buffers"][name] = {"tensor": sizes}
    if depth < 3:
        for name in layout.sample(["y", "compress", "0", "block"], layout.randint(0, 2)):
            child, child_spec = _random_module(layout, sizes_rng, depth + 1, vary)
            m.add_module(name, child)
            spec["modules"][name] = child_spec
    return m, {"module": {k: v for k, v in spec.items() if v or layout.random() < 0.3}}


# --- an example set ------------------------------------------------------------------------

def random_example_set(rng):
    """(PyTorch's examples, symshape's NDJSON objects, a key naming the case's kind)."""
    n_args = rng.randint(1, 4)
    names = rng.sample(["x", "y", "mask", "cfg", "ids", "state", "lr"], n_args)
    templates = {n: _template(rng, 0, True) for n in names}
    with_self = rng.random() < 0.3
    layout_seed = rng.random()
    n_examples = rng.randint(2, 5)
    torch_examples, lines = [], []
    for e in range(n_examples):
        vary = e > 0
        ex, line = {}, {}
        if with_self and rng.random() < 0.5:
            ex["self"], line["self"] = _module_instance(rng, layout_seed, e)
        for n in names:
            v, j = _instance(rng, templates[n], vary)
            ex[n], line[n] = v, _top_json(templates[n], j)
        if with_self and "self" not in ex:
            ex["self"], line["self"] = _module_instance(rng, layout_seed, e)
        torch_examples.append(ex)
        lines.append(line)
    return torch_examples, lines, "modules" if with_self else "nested"


def _module_instance(rng, layout_seed, e):
    # The same module layout in every example of a set, sizes varying after the first.
    return _random_module(random.Random(layout_seed), rng, 0, e > 0)
