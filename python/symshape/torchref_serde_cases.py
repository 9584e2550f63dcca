"""Inputs for the serializer comparison (torchref_serde): random torch.export specs with their
example args, a corpus spec rebuilt as Dim objects, and the mutations that make a
DynamicShapesSpec dict malformed (or oddly spelled but valid), one per F.6 check."""
import copy
import logging

import torch
from torch._export.serde.dynamic_shapes import DynamicShapesSpec, RootDim, _load_dynamic_shapes
from torch.export import Dim

# A per-dim None is deprecated (a warning per use): expected here, not news.
logging.getLogger("torch.export.dynamic_shapes").setLevel(logging.ERROR)

# Plain identifiers, sympy names that do not sympify to a Symbol, a non-ASCII identifier.
ROOT_NAMES = ["dx", "dy", "batch", "seq", "h", "w", "n_1", "_k", "Dim2", "x0"]
ODD_ROOT_NAMES = ["gamma", "E", "I", "N", "S", "pi", "oo", "beta", "sin", "Symbol", "None", "True",
                  "print", "range", "δx"]


# --- random specs with example args --------------------------------------------------------

def _random_root(rng, used, names):
    name = rng.choice([n for n in names if n not in used] or ["zz"])
    used.add(name)
    lo = rng.choice([0, 1, 2, 2, 3, 4, 8])
    hi = None if rng.random() < 0.5 else lo + rng.randint(1, 200)
    kw = {}
    if lo != 0 or rng.random() < 0.5:
        kw["min"] = lo
    if hi is not None:
        kw["max"] = hi
    return Dim(name, **kw)


def _derived(rng, root):
    lo = root.min
    options = [lambda d: d + 1, lambda d: 2 * d, lambda d: 2 * d + 1, lambda d: (d + 1) * 2,
               lambda d: 3 + d, lambda d: d * 4 - 0]
    if lo >= 1:
        options.append(lambda d: d - 1)
    if lo >= 2:
        options += [lambda d: 3 * d - 5, lambda d: (d - 1) * 2]
    try:
        return rng.choice(options)(root)
    except Exception:  # noqa: BLE001 - a sympy name (`gamma`) cannot even be derived from in PyTorch
        return root


def _entry(rng, size, roots):
    """One dim's entry and the tensor size it needs (None: keep the drawn size)."""
    r = rng.random()
    if r < 0.30 and roots:
        return rng.choice(roots), None
    if r < 0.42 and roots:
        return _derived(rng, rng.choice(roots)), None
    if r < 0.55:
        return size, None
    if r < 0.62:
        return None, None
    hint = rng.choice(["STATIC", "AUTO", "DYNAMIC", "AUTO()", "DYNAMIC()"])
    if hint.endswith("()"):
        lo = rng.randint(0, 4)
        return getattr(Dim, hint[:-2])(min=lo, max=lo + rng.randint(0, 50)), None
    return getattr(Dim, hint), None


def _tensor_spec(rng, rank, roots):
    sizes = [rng.randint(2, 9) for _ in range(rank)]
    entries = [_entry(rng, s, roots)[0] for s in sizes]
    form = rng.random()
    if form < 0.12:
        return None, sizes
    if form < 0.30:
        return {i: e for i, e in enumerate(entries) if rng.random() < 0.6}, sizes
    return (tuple(entries) if rng.random() < 0.4 else list(entries)), sizes


def _node(rng, roots, depth):
    """(spec, arg) for one input: a tensor, a container of inputs, or a non-tensor."""
    r = rng.random()
    if depth < 3 and r < 0.25:
        kind = rng.choice(["list", "tuple", "dict"])
        children = [_node(rng, roots, depth + 1) for _ in range(rng.randint(1, 3))]
        if kind == "dict":
            keys = rng.sample(["a", "b", "c", "k1", "weird key"], len(children))
            return {k: s for k, (s, _) in zip(keys, children)}, {k: a for k, (_, a) in zip(keys, children)}
        wrap = list if kind == "list" else tuple
        return wrap(s for s, _ in children), wrap(a for _, a in children)
    if r < 0.33:
        return None, rng.choice([3, "text", 2.5, None, True])
    spec, sizes = _tensor_spec(rng, rng.randint(0, 4), roots)
    return spec, torch.empty(sizes, device="meta")


def random_spec(rng):
    """(dynamic_shapes, args, text): a spec with Dim objects mirroring random example args."""
    used = set()
    names = ODD_ROOT_NAMES + ROOT_NAMES * 4 if rng.random() < 0.15 else ROOT_NAMES
    roots = [_random_root(rng, used, names) for _ in range(rng.randint(0, 3))]
    nodes = [_node(rng, roots, 0) for _ in range(rng.randint(1, 4))]
    args = tuple(a for _, a in nodes)
    if rng.random() < 0.5:
        shapes = {f"arg{i}": s for i, (s, _) in enumerate(nodes)}
    else:
        shapes = tuple(s for s, _ in nodes) if rng.random() < 0.7 else [s for s, _ in nodes]
    return shapes, args, repr(shapes)


# --- a corpus spec as Dim objects ----------------------------------------------------------

def _example_size(dim):
    lo = max(int(dim.min), 2)
    return lo if dim.max is None or lo <= dim.max else int(dim.max)


def torch_spec_from_dict(spec):
    """The corpus spec (inputs by name, one entry per dim) as PyTorch's Dims, loaded by PyTorch's
    dataclass form, with meta tensors of sizes inside the ranges; None when it is not that form."""
    shapes = spec.get("dynamic_shapes")
    if not isinstance(shapes, dict) or not all(isinstance(v, list) for v in shapes.values()):
        return None
    dims = {k: RootDim(**v) for k, v in spec["dims"].items()}
    loaded = _load_dynamic_shapes(DynamicShapesSpec(dynamic_shapes=copy.deepcopy(shapes), dims=dims))
    args = []
    for entries in loaded.values():
        sizes = [e if isinstance(e, int) else _example_size(e) if isinstance(e, Dim) else 2 for e in entries]
        args.append(torch.empty(sizes, device="meta"))
    return loaded, tuple(args)


# --- mutations of a dict: (variant, dict) pairs, one list per F.6 check --------------------

def _first_root(d):
    dims = d.get("dims")
    return next(iter(dims), None) if isinstance(dims, dict) and dims else None


def _with_root(d, fn):
    root = _first_root(d)
    if root is None:  # give the dict a root to break
        d["dims"]["dx"] = {"min": 2, "max": None, "derived": []}
        root = "dx"
    return fn(d, root)


def _first_leaf_path(t, path=()):
    """The path to the first leaf of dynamic_shapes (None when it has none)."""
    if isinstance(t, dict):
        items = list(t.items())
    elif isinstance(t, list):
        items = list(enumerate(t))
    else:
        return path
    for k, v in items:
        p = _first_leaf_path(v, path + (k,))
        if p is not None:
            return p
    return None


def _set_leaf(d, value):
    path = _first_leaf_path(d["dynamic_shapes"])
    if not path:
        d["dynamic_shapes"] = {"x": [value]}
        return d
    t = d["dynamic_shapes"]
    for k in path[:-1]:
        t = t[k]
    t[path[-1]] = value
    return d


def _variants(d, changes):
    return [(name, change(copy.deepcopy(d))) for name, change in changes]


def _top(d, rng):
    return _variants(d, [
        ("list", lambda x: [x["dynamic_shapes"], x["dims"]]),
        ("string", lambda x: "spec"),
        ("extra_key", lambda x: {**x, "version": 1}),
        ("no_dims", lambda x: {"dynamic_shapes": x["dynamic_shapes"]}),
        ("no_dynamic_shapes", lambda x: {"dims": x["dims"]}),
    ])


def _dims_value(d, rng):
    def entry(x, fn):
        return _with_root(x, lambda y, r: (fn(y["dims"][r]), y)[1])
    return _variants(d, [
        ("no_derived", lambda x: entry(x, lambda e: e.pop("derived"))),
        ("extra_step", lambda x: entry(x, lambda e: e.update(step=1))),
        ("dims_list", lambda x: {**x, "dims": list(x["dims"])}),
        ("value_int", lambda x: _with_root(x, lambda y, r: (y["dims"].update({r: 3}), y)[1])),
    ])


def _bounds(d, rng):
    def set_(key, value):
        return lambda x: _with_root(x, lambda y, r: (y["dims"][r].update({key: value}), y)[1])
    return _variants(d, [
        ("min_string", set_("min", "2")), ("min_float", set_("min", 2.0)), ("min_null", set_("min", None)),
        ("min_bool", set_("min", True)), ("min_negative", set_("min", -3)),
        ("max_string", set_("max", "8")), ("max_float", set_("max", 8.5)), ("max_bool", set_("max", True)),
        ("max_null", set_("max", None)), ("max_huge", set_("max", 2**70)),
        ("min_ge_max", lambda x: set_("max", 4)(set_("min", 9)(x))),
        ("min_eq_max", lambda x: set_("max", 4)(set_("min", 4)(x))),
    ])


def _derived_list(d, rng):
    def set_(value):
        return lambda x: _with_root(x, lambda y, r: (y["dims"][r].update(derived=value), y)[1])
    return _variants(d, [("string", set_("dx + 1")), ("ints", set_([1])), ("null", set_(None)),
                         ("mixed", set_(["dx + 1", 2]))])


def _dims_key(d, rng):
    def rename(new):
        def change(x):
            def go(y, r):
                y["dims"] = {(new if k == r else k): v for k, v in y["dims"].items()}
                return y
            return _with_root(x, go)
        return change
    return _variants(d, [(f"name:{n}", rename(n)) for n in ["x + 1", "2", "gamma", "E", "I", "pi", "None", "oo",
                                                             "Symbol", "lambda", "2x", "δx", "print", "range"]])


# Derived strings: (variant, text with {r} for the root), used as a leaf too.
DERIVED_TEXTS = [
    ("plus", "{r} + 1"), ("nospace", "{r}+1"), ("const_first", "1 + {r}"), ("times", "2*{r}"),
    ("times_after", "{r}*2"), ("paren", "2*({r} + 1)"), ("unary_plus", "+{r}"), ("plus_zero", "{r} + 0"),
    ("self", "{r}"), ("minus", "{r} - 1"), ("sum_same", "{r} + {r}"), ("neg", "-{r} + 5"), ("neg_only", "-{r}"),
    ("other_symbol", "{r} + zz"), ("only_other", "zz + 1"), ("const", "7"), ("power", "{r}**2"),
    ("square", "{r}*{r}"), ("div", "{r}/2"), ("float_coef", "2.5*{r}"), ("half", "{r} + 1/2"),
    ("three_terms", "1 + {r} + zz"), ("zero_coef", "0*{r} + 3"), ("big", "9223372036854775807*{r}"),
    ("garbage", "{r} +"), ("call", "sin({r})"),
]


def _derived_text(d, rng):
    def add(text):
        def change(x):
            def go(y, r):
                s = text.format(r=r)
                y["dims"][r]["derived"] = [s]
                return _set_leaf(y, s)
            return _with_root(x, go)
        return change
    return _variants(d, [(v, add(t)) for v, t in DERIVED_TEXTS])


def _leaves(d, rng):
    return _variants(d, [
        ("float", lambda x: _set_leaf(x, 1.5)), ("bool", lambda x: _set_leaf(x, True)),
        ("untracked", lambda x: _set_leaf(x, "zz")), ("hint_lowercase", lambda x: _set_leaf(x, "_DimHint.auto")),
        ("hint_dim_form", lambda x: _set_leaf(x, "Dim.AUTO")), ("big_int", lambda x: _set_leaf(x, 2**64)),
        ("negative_int", lambda x: _set_leaf(x, -1)), ("empty_dict", lambda x: _set_leaf(x, {})),
        ("shapes_null", lambda x: {**x, "dynamic_shapes": None}),
        ("shapes_null_bad_dims", lambda x: {"dynamic_shapes": None, "dims": {"dx": {"min": "a", "max": 1, "derived": []}}}),
        ("shapes_int", lambda x: {**x, "dynamic_shapes": 5}),
        ("deep", lambda x: {**x, "dynamic_shapes": _nest([None], 40)}),
        ("depth_32", lambda x: {**x, "dynamic_shapes": _nest([None], 31)}),
    ])


def _nest(v, depth):
    for _ in range(depth):
        v = [v]
    return v


MUTATIONS = [("top", _top), ("dims_value", _dims_value), ("bounds", _bounds), ("derived_list", _derived_list),
             ("dims_key", _dims_key), ("derived", _derived_text), ("leaf", _leaves)]
