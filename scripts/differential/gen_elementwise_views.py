#!/usr/bin/python3
"""Differential-test generator: elementwise / broadcasting / type promotion / reductions / views /
cat-split / slicing / indexing / factories / casts on non-contiguous layouts.

Regenerate (needs PyTorch 1.13, Debian python3-torch; run from the repo root):
    /usr/bin/python3 scripts/differential/gen_elementwise_views.py
Writes data/differential/elementwise_views/*.graph.json (fx-graph-json v1, see
../shared/corpus/FORMAT.md); goldens come from executing each graph node by node with
torch.ops.aten.* . Checked by ctest `conform_differential_elementwise_views`.
"""
import json
import operator
import os
import sys

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "differential",
                   "elementwise_views")
INT64_MAX = 9223372036854775807
DT = {torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float32: "float32",
      torch.float64: "float64", torch.int8: "int8", torch.uint8: "uint8", torch.int16: "int16",
      torch.int32: "int32", torch.int64: "int64", torch.bool: "bool", torch.complex64: "complex64"}
RDT = {v: k for k, v in DT.items()}
MF = {"contiguous_format": torch.contiguous_format, "channels_last": torch.channels_last,
      "preserve_format": torch.preserve_format}


class N:
    def __init__(self, name):
        self.name = name


class Dtype:
    def __init__(self, s):
        self.s = s


class Mem:
    def __init__(self, s):
        self.s = s


class Graph:
    def __init__(self, name, dyn, dims):
        self.name, self.dyn, self.dims = name, dyn, dims
        self.nodes, self.counts, self.phs = [], {}, []

    def _fresh(self, base):
        c = self.counts.get(base, 0)
        self.counts[base] = c + 1
        return base if c == 0 else "%s_%d" % (base, c)

    def ph(self, name, dtype="float32", rank=4, rng=None):
        meta = {"dtype": dtype, "rank": rank}
        if rng is not None:
            meta["range"] = list(rng)
        self.nodes.append({"name": name, "op": "placeholder", "target": name, "meta": meta})
        self.phs.append((name, dtype, rng))
        self.counts[name] = 1
        return N(name)

    def __call__(self, target, *args, **kwargs):
        if target.startswith("operator."):
            base = target.split(".")[1]
        else:
            base = target.split(".")[1]
        name = self._fresh(base)
        self.nodes.append({"name": name, "op": "call_function", "target": target,
                           "args": list(args), "kwargs": kwargs})
        return N(name)

    def out(self, *refs):
        arg = refs[0] if len(refs) == 1 else list(refs)
        self.nodes.append({"name": "output", "op": "output", "target": "output", "args": [arg]})


def enc_arg(a):
    if isinstance(a, N):
        return {"node": a.name}
    if isinstance(a, Dtype):
        return {"dtype": a.s}
    if isinstance(a, Mem):
        return {"memory_format": a.s}
    if isinstance(a, (list, tuple)):
        return [enc_arg(x) for x in a]
    if isinstance(a, float):
        if a != a:
            return {"float": "nan"}
        if a in (float("inf"), float("-inf")):
            return {"float": "inf" if a > 0 else "-inf"}
    return a


def dec_arg(a, env):
    if isinstance(a, N):
        return env[a.name]
    if isinstance(a, Dtype):
        return RDT[a.s]
    if isinstance(a, Mem):
        return MF[a.s]
    if isinstance(a, (list, tuple)):
        return [dec_arg(x, env) for x in a]
    return a


def enc_val(v):
    if isinstance(v, torch.Tensor):
        return {"shape": list(v.shape), "stride": list(v.stride()), "dtype": DT[v.dtype]}
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": v}
    if isinstance(v, float):
        return {"float": v}
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return [enc_val(x) for x in v]
    raise TypeError(type(v))


VALUE_OPS = {"aten.index.Tensor", "aten.index_select.default", "aten.gather.default", "aten.scatter.src",
             "aten.scatter.value", "aten.scatter_add.default", "aten.take_along_dim.default",
             "aten.index_put.default", "aten.embedding.default"}
OPS = {"getitem": operator.getitem, "add": operator.add, "sub": operator.sub,
       "mul": operator.mul, "floordiv": operator.floordiv}


def resolve(target):
    kind, rest = target.split(".", 1)
    if kind == "operator":
        return OPS[rest]
    op, ov = rest.rsplit(".", 1)
    return getattr(getattr(torch.ops.aten, op), ov)


def in_spec(g, inputs):
    bind = {}
    for ph, spec in g.dyn.items():
        sizes = inputs[ph]
        if len(sizes) != len(spec):
            return False
        for s, d in zip(sizes, spec):
            if isinstance(d, int):
                if s != d:
                    return False
            else:
                if bind.setdefault(d, s) != s:
                    return False
                lo, hi = g.dims[d]["min"], g.dims[d]["max"]
                if s < lo or (hi is not None and s > hi):
                    return False
    return True


def run_example(g, inputs, seed):
    gen = torch.Generator().manual_seed(seed)
    env = {}
    for name, dtype, rng in g.phs:
        shape = inputs[name]
        if dtype == "bool":
            env[name] = torch.rand(shape, generator=gen) > 0.5
        elif rng is not None:
            env[name] = torch.randint(rng[0], rng[1], shape, generator=gen, dtype=RDT[dtype])
        else:
            env[name] = torch.randn(shape, generator=gen, dtype=RDT[dtype])
    ex = {"inputs": inputs, "seed": seed, "in_spec": in_spec(g, inputs)}
    for n in g.nodes:
        if n["op"] != "call_function":
            continue
        args = dec_arg(n["args"], env)
        kwargs = {k: dec_arg(v, env) for k, v in n["kwargs"].items()}
        try:
            env[n["name"]] = resolve(n["target"])(*args, **kwargs)
        except (RuntimeError, IndexError, ValueError) as e:
            ex["ok"] = False
            ex["error"] = "%s: %s" % (type(e).__name__, str(e).splitlines()[0])
            # "value": an index out of range in an indexing op (depends on tensor contents);
            # everything else here (incl. IndexError of an empty reduction dim, or getitem
            # past a size-dependent list) follows from sizes alone
            ex["error_kind"] = "value" if (isinstance(e, IndexError) and n["target"] in VALUE_OPS
                                           and ("out of" in str(e))) else "shape"
            ex["error_node"] = n["name"]
            return ex
    ex["ok"] = True
    outarg = g.nodes[-1]["args"][0]
    ex["output"] = enc_val(dec_arg(outarg, env))
    ex["values"] = {n["name"]: enc_val(env[n["name"]]) for n in g.nodes if n["op"] != "output"}
    return ex


def finish(g, example_inputs):
    g_nodes = []
    for n in g.nodes:
        m = dict(n)
        if "args" in m:
            m["args"] = enc_arg(m["args"])
        if "kwargs" in m:
            m["kwargs"] = {k: enc_arg(v) for k, v in m["kwargs"].items()}
        g_nodes.append(m)
    example_inputs = [e if isinstance(e, dict) else {"x": e} for e in example_inputs]
    exs = [run_example(g, inp, i) for i, inp in enumerate(example_inputs)]
    for e in exs:
        if not e["ok"] and e["in_spec"] and "--allow-errors" not in sys.argv:
            print("note: %s example %s fails in spec: %s" % (g.name, e["inputs"], e["error"]))
    doc = {"format": "fx-graph-json", "version": 1, "name": "diff_ev." + g.name,
           "producer": {"tool": "differential generator (scripts/differential/gen_elementwise_views.py)",
                        "torch": torch.__version__,
                        "torchvision": "0.14.1a0",
                        "debian_packages": "python3-torch 1.13.1, python3-torchvision 0.14.1"},
           "nodes": g_nodes,
           "dynamic_shapes": {"dynamic_shapes": g.dyn, "dims": g.dims},
           "examples": exs}
    path = os.path.join(OUT, g.name + ".graph.json")
    with open(path, "w") as f:
        f.write(json.dumps(doc, separators=(",", ":")))
    return path


def dims(*names, lo=1, hi=None):
    return {n: {"min": lo, "max": hi, "derived": []} for n in names}


NCHW = [[1, 3, 1, 1], [2, 3, 5, 7], [3, 3, 4, 4], [1, 3, 8, 3], [2, 3, 1, 6], [4, 3, 3, 1]]
SPEC4 = ({"x": ["batch", 3, "height", "width"]}, dims("batch", "height", "width"))
CL = Mem("channels_last")
F32 = Dtype("float32")


def nchw_graph(name):
    g = Graph(name, *SPEC4)
    return g, g.ph("x")


# ---------------------------------------------------------------- elementwise
def g_binary_layouts():
    g, x = nchw_graph("binary_layouts")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    tr = g("aten.transpose.int", x, 1, 3)
    a = g("aten.add.Tensor", cl, x)
    b = g("aten.mul.Tensor", cl, cl)
    c = g("aten.add.Tensor", cl, 1.5)
    d = g("aten.sub.Tensor", p, 2)
    e = g("aten.mul.Tensor", tr, tr)
    sl = g("aten.slice.Tensor", x, 3, 0, INT64_MAX, 2)
    f = g("aten.add.Tensor", sl, 1)
    h = g("aten.div.Tensor", x, cl)
    exp = g("aten.expand.default", g("aten.slice.Tensor", x, 1, 0, 1, 1), [-1, 3, -1, -1])
    i = g("aten.mul.Tensor", exp, cl)
    j = g("aten.add.Tensor", exp, 1.0)
    k = g("aten.neg.default", cl)
    l = g("aten.relu.default", tr)
    m = g("aten.sigmoid.default", sl)
    n = g("aten.rsub.Scalar", cl, 1.0)
    o = g("aten.add.Tensor", p, g("aten.permute.default", x, [0, 2, 3, 1]))
    q = g("aten.add.Tensor", a, b, alpha=2)
    g.out(a, b, c, d, e, f, h, i, j, k, l, m, n, o, q)
    return g, NCHW


def g_broadcast():
    dyn = {"x": ["batch", 3, "height", "width"], "y": [3, 1, 1], "z": ["width"]}
    g = Graph("broadcast", dyn, dims("batch", "height", "width"))
    x, y, z = g.ph("x"), g.ph("y", rank=3), g.ph("z", rank=1)
    cl = g("aten.contiguous.default", x, memory_format=CL)
    a = g("aten.add.Tensor", cl, y)
    b = g("aten.add.Tensor", y, cl)
    c = g("aten.mul.Tensor", cl, z)
    d = g("aten.mul.Tensor", z, x)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    e = g("aten.add.Tensor", p, g("aten.view.default", y, [3]))
    u = g("aten.unsqueeze.default", g("aten.select.int", x, 1, 0), 1)
    f = g("aten.add.Tensor", u, cl)
    h = g("aten.sub.Tensor", g("aten.transpose.int", x, 2, 3), g("aten.unsqueeze.default", z, -1))
    s0 = g("aten.sum.default", x)
    i = g("aten.add.Tensor", cl, s0)
    j = g("aten.add.Tensor", s0, s0)
    k = g("aten.where.self", g("aten.gt.Scalar", cl, 0), y, x)
    g.out(a, b, c, d, e, f, h, i, j, k)
    ex = [{"x": s, "y": [3, 1, 1], "z": [s[3]]} for s in NCHW]
    ex.append({"x": [2, 3, 4, 5], "y": [3, 1, 1], "z": [4]})
    return g, ex


def g_promotion():
    dyn = {"x": ["batch", "n"], "i": ["batch", "n"], "m": ["batch", "n"], "h": ["batch", "n"]}
    g = Graph("promotion", dyn, dims("batch", "n"))
    x = g.ph("x", rank=2)
    i = g.ph("i", "int64", 2, rng=(0, 10))
    m = g.ph("m", "bool", 2)
    h = g.ph("h", "float16", 2)
    outs = [g("aten.add.Tensor", i, 1.5), g("aten.add.Tensor", i, 2), g("aten.mul.Tensor", i, x),
            g("aten.div.Tensor", i, 2), g("aten.div.Tensor", i, i),
            g("aten.div.Tensor_mode", i, 3, rounding_mode="floor"),
            g("aten.add.Tensor", m, m), g("aten.add.Tensor", m, 1), g("aten.mul.Tensor", m, 0.5),
            g("aten.add.Tensor", h, x), g("aten.add.Tensor", h, 1.0), g("aten.add.Tensor", h, i),
            g("aten.add.Tensor", h, g("aten.sum.default", x)),
            g("aten.add.Tensor", i, g("aten.sum.default", x)),
            g("aten.mul.Tensor", g("aten.sum.default", i), x),
            g("aten.eq.Tensor", i, x), g("aten.lt.Scalar", i, 2.5), g("aten.ne.Scalar", x, 0),
            g("aten.logical_and.default", m, i), g("aten.logical_not.default", x),
            g("aten.bitwise_not.default", m), g("aten.pow.Tensor_Scalar", i, 2),
            g("aten.pow.Tensor_Scalar", i, 0.5), g("aten.pow.Scalar", 2, i),
            g("aten.pow.Tensor_Tensor", h, x),
            g("aten.sqrt.default", i), g("aten.abs.default", i), g("aten.exp.default", m),
            g("aten.floor.default", i), g("aten.sign.default", m),
            g("aten.where.self", m, i, x), g("aten.where.ScalarOther", m, i, 0.5),
            g("aten.where.ScalarSelf", m, 1, i), g("aten.where.Scalar", m, 1.0, 0),
            g("aten.masked_fill.Scalar", i, m, 1.5), g("aten.masked_fill.Scalar", h, m, 0.0),
            g("aten.masked_fill.Tensor", x, m, g("aten.sum.default", i)),
            g("aten.clamp.default", i, 0, 5), g("aten.clamp.default", i, 0.5, None),
            g("aten.clamp.default", x, None, 1.0), g("aten.clamp.Tensor", i, x, None),
            g("aten.clamp_min.default", x, 0.0), g("aten.remainder.Scalar", i, 3),
            g("aten.fmod.Scalar", x, 2), g("aten.maximum.default", i, h),
            g("aten.minimum.default", m, i), g("aten.bitwise_and.Tensor", i, m),
            g("aten.mul.Tensor", m, m), g("aten.addcmul.default", x, h, x),
            g("aten.lerp.Scalar", x, x, 0.5), g("aten.sub.Tensor", x, i, alpha=2)]
    g.out(*outs)
    ex = [{k: s for k in "ximh"} for s in ([1, 1], [2, 5], [3, 1], [1, 7], [4, 4])]
    return g, ex


def g_ternary_layouts():
    g, x = nchw_graph("ternary_layouts")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    msk = g("aten.gt.Scalar", cl, 0)
    a = g("aten.where.self", msk, cl, x)
    b = g("aten.where.self", g("aten.gt.Scalar", x, 0), x, cl)
    c = g("aten.where.ScalarOther", msk, cl, 0.0)
    d = g("aten.masked_fill.Scalar", cl, g("aten.lt.Scalar", x, 0), 0.0)
    e = g("aten.masked_fill.Scalar", x, msk, 1.0)
    f = g("aten.clamp.default", cl, -1.0, 1.0)
    h = g("aten.addcmul.default", cl, x, x)
    i = g("aten.where.self", g("aten.gt.Scalar", p, 0), p, 0.5 if False else p)
    j = g("aten.lerp.Scalar", x, cl, 0.3)
    k = g("aten.eq.Tensor", cl, x)
    l = g("aten.logical_or.default", msk, g("aten.lt.Scalar", x, -1))
    m = g("aten.to.dtype", msk, Dtype("float32"), False, False, None)
    g.out(a, b, c, d, e, f, h, i, j, k, l, m)
    return g, NCHW


# ---------------------------------------------------------------- casts / layout
def g_casts():
    g, x = nchw_graph("casts_layouts")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 3, 1, 2])
    outs = [g("aten._to_copy.default", cl, dtype=Dtype("float16")),
            g("aten._to_copy.default", p, dtype=Dtype("float64")),
            g("aten._to_copy.default", x, memory_format=CL),
            g("aten.to.dtype", cl, Dtype("int64"), False, False, None),
            g("aten.to.dtype", p, Dtype("float16"), False, False, None),
            g("aten.to.dtype", cl, Dtype("float32"), False, False, None),
            g("aten.to.dtype", x, Dtype("float64"), False, False, CL),
            g("aten.to.dtype", cl, Dtype("float64"), False, True, Mem("contiguous_format")),
            g("aten.type_as.default", cl, g("aten.to.dtype", x, Dtype("int32"), False, False, None)),
            g("aten.clone.default", cl), g("aten.clone.default", p),
            g("aten.clone.default", p, memory_format=Mem("contiguous_format")),
            g("aten.clone.default", x, memory_format=CL),
            g("aten.contiguous.default", p, memory_format=Mem("contiguous_format")),
            g("aten.contiguous.default", cl, memory_format=Mem("contiguous_format")),
            g("aten.contiguous.default", g("aten.slice.Tensor", cl, 3, 0, INT64_MAX, 2), memory_format=CL),
            g("aten.clone.default", g("aten.transpose.int", x, 2, 3)),
            g("aten.clone.default", g("aten.expand.default", g("aten.slice.Tensor", x, 0, 0, 1, 1), [3, -1, -1, -1])),
            g("aten.zeros_like.default", cl), g("aten.zeros_like.default", p),
            g("aten.ones_like.default", p, dtype=Dtype("int64")),
            g("aten.empty_like.default", cl, memory_format=Mem("contiguous_format")),
            g("aten.full_like.default", p, 2.0),
            g("aten.rand_like.default", g("aten.transpose.int", x, 1, 2)),
            g("aten.zeros_like.default", g("aten.slice.Tensor", x, 3, 0, INT64_MAX, 2)),
            g("aten.new_zeros.default", cl, [2, 3]),
            g("aten.new_ones.default", p, [4], dtype=Dtype("int64")),
            g("aten.new_full.default", cl, [2], 1.0),
            g("aten.new_empty.default", x, [0, 3])]
    g.out(*outs)
    return g, NCHW


# ---------------------------------------------------------------- reductions
def g_reductions():
    g, x = nchw_graph("reductions")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    outs = []
    for src in (x, cl, p):
        outs += [g("aten.sum.dim_IntList", src, [1], False),
                 g("aten.sum.dim_IntList", src, [-1, -2], True),
                 g("aten.mean.dim", src, [2, 3], True),
                 g("aten.mean.dim", src, [0, 2], False),
                 g("aten.amax.default", src, [1], True),
                 g("aten.amin.default", src, [-1], False),
                 g("aten.var.dim", src, [1], True, False),
                 g("aten.std.dim", src, [2, 3], False, True),
                 g("aten.cumsum.default", src, 1),
                 g("aten.cumsum.default", src, -1, dtype=Dtype("float64")),
                 g("aten.argmax.default", src, 1, False),
                 g("aten.argmax.default", src, -1, True),
                 g("aten.argmin.default", src, None, False),
                 g("aten.sum.default", src),
                 g("aten.mean.default", src),
                 g("aten.norm.ScalarOpt_dim", src, 2, [1], True),
                 g("aten.logsumexp.default", src, [1], False),
                 g("aten.prod.dim_int", src, 1, False),
                 g("aten.sum.dim_IntList", src, [], False)]
        mx = g("aten.max.dim", src, 1, False)
        outs += [g("operator.getitem", mx, 0), g("operator.getitem", mx, 1)]
        mn = g("aten.min.dim", src, -1, True)
        outs += [g("operator.getitem", mn, 0), g("operator.getitem", mn, 1)]
        b = g("aten.gt.Scalar", src, 0)
        outs += [g("aten.any.dim", b, 1, False), g("aten.all.dim", b, -1, True),
                 g("aten.any.default", b), g("aten.sum.dim_IntList", b, [1], False)]
    i = g("aten.to.dtype", cl, Dtype("int32"), False, False, None)
    outs += [g("aten.sum.dim_IntList", i, [1], False), g("aten.mean.dim", x, [1], False, dtype=Dtype("float64")),
             g("aten.sum.dim_IntList", i, [1], True, dtype=Dtype("float32")),
             g("aten.cumsum.default", i, 2), g("aten.amax.default", i, [2, 3], False),
             g("aten.var.correction", p, [3], correction=0, keepdim=True),
             g("aten.std.correction", cl, None, correction=1), g("aten.var_mean.correction", cl, [1], correction=1, keepdim=True)]
    g.out(*outs)
    return g, NCHW


# ---------------------------------------------------------------- views
def g_views():
    g, x = nchw_graph("views")
    b = g("aten.sym_size.int", x, 0)
    h = g("aten.sym_size.int", x, 2)
    w = g("aten.sym_size.int", x, 3)
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    outs = [g("aten.view.default", x, [b, -1]),
            g("aten.view.default", x, [-1, w]),
            g("aten.view.default", p, [b, -1, 3]) if False else g("aten.reshape.default", p, [b, -1, 3]),
            g("aten.reshape.default", p, [b, -1]),
            g("aten.reshape.default", cl, [b, 3, -1]),
            g("aten.reshape.default", cl, [-1]),
            g("aten.view.default", cl, [b, 3, g("operator.mul", h, w)]),
            g("aten.transpose.int", x, -1, -2),
            g("aten.t.default", g("aten.view.default", x, [b, -1])),
            g("aten.expand.default", g("aten.unsqueeze.default", x, 1), [-1, 2, -1, -1, -1]),
            g("aten.repeat.default", cl, [1, 2, 1, 1]),
            g("aten.repeat.default", p, [2, 1, 1, 1, 2]),
            g("aten.squeeze.dim", x, 1), g("aten.squeeze.dim", x, 0),
            g("aten.squeeze.default", x), g("aten.squeeze.default", cl),
            g("aten.unsqueeze.default", cl, 2), g("aten.unsqueeze.default", p, -1),
            g("aten.flatten.using_ints", x, 1, -1), g("aten.flatten.using_ints", cl, 2, 3),
            g("aten.flatten.using_ints", p, 0, 1), g("aten.flatten.using_ints", cl, 1, 2),
            g("aten.unflatten.int", x, 1, [3, 1]),
            g("aten.unflatten.int", g("aten.flatten.using_ints", x, 2, 3), 2, [h, -1]),
            g("aten.movedim.int", x, 1, -1), g("aten.movedim.int", cl, -1, 0),
            g("aten.movedim.intlist", x, [0, 1], [2, 3]),
            g("aten.view.default", g("aten.transpose.int", x, 0, 1), [3, -1, w]) if False else
            g("aten.reshape.default", g("aten.transpose.int", x, 0, 1), [3, -1]),
            g("aten.view.default", g("aten.slice.Tensor", x, 3, 0, INT64_MAX, 2), [b, 3, h, -1]),
            g("aten.reshape.default", g("aten.slice.Tensor", x, 2, 0, INT64_MAX, 2), [b, -1]),
            g("aten.view.default", p, [b, g("operator.mul", h, w), 3]) if False else
            g("aten.reshape.default", g("aten.expand.default", g("aten.slice.Tensor", x, 1, 0, 1, 1), [-1, 3, -1, -1]), [b, 3, -1]),
            g("aten.view_as.default", cl, x),
            g("aten.expand_as.default", g("aten.sum.dim_IntList", x, [1], True), x),
            g("aten.permute.default", cl, [0, 3, 1, 2]),
            g("aten.contiguous.default", g("aten.permute.default", cl, [0, 2, 3, 1]), memory_format=Mem("contiguous_format")),
            g("aten.view.default", g("aten.permute.default", cl, [0, 2, 3, 1]), [-1, 3])]
    g.out(*outs)
    return g, NCHW


# ---------------------------------------------------------------- cat / split
def g_cat_split():
    g, x = nchw_graph("cat_split")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    e = g("aten.new_zeros.default", x, [0])
    outs = [g("aten.cat.default", [x, cl], 1), g("aten.cat.default", [cl, cl], 1),
            g("aten.cat.default", [cl, x], 0), g("aten.cat.default", [cl, cl, cl], -1),
            g("aten.cat.default", [p, p], 3), g("aten.cat.default", [x, e], 1),
            g("aten.cat.default", [e, cl], 2), g("aten.cat.default", [x], 2),
            g("aten.cat.default", [g("aten.slice.Tensor", x, 2, 0, 0, 1), x], 2),
            g("aten.stack.default", [x, cl], 0), g("aten.stack.default", [cl, cl], 2),
            g("aten.stack.default", [x, x], -1)]
    for src in (x, cl):
        sp = g("aten.split.Tensor", src, 2, 1)
        outs += [g("operator.getitem", sp, 0), g("operator.getitem", sp, 1)]
        ch = g("aten.chunk.default", src, 2, 3)
        outs += [g("operator.getitem", ch, 0)]
        ub = g("aten.unbind.int", src, 1)
        outs += [g("operator.getitem", ub, 0), g("operator.getitem", ub, 2)]
        sws = g("aten.split_with_sizes.default", src, [1, 2], 1)
        outs += [g("operator.getitem", sws, 0), g("operator.getitem", sws, 1)]
    sp2 = g("aten.split.Tensor", x, 1, -1)
    outs += [g("operator.getitem", sp2, 0)]
    ch2 = g("aten.chunk.default", p, 3, -1)
    outs += [g("operator.getitem", ch2, 2)]
    g.out(*outs)
    return g, NCHW


def g_slicing():
    g, x = nchw_graph("slicing")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    outs = []
    for src in (x, cl):
        outs += [g("aten.slice.Tensor", src, 2, 1, INT64_MAX, 2),
                 g("aten.slice.Tensor", src, 3, -2, INT64_MAX, 1),
                 g("aten.slice.Tensor", src, 3, 0, -1, 3),
                 g("aten.slice.Tensor", src, 2, 5, 100, 1),
                 g("aten.slice.Tensor", src, 2, -100, 2, 1),
                 g("aten.slice.Tensor", src, 1, 1, 3, 1),
                 g("aten.slice.Tensor", src, 0, 0, 1, 1),
                 g("aten.slice.Tensor", src, 3, 3, 1, 1),
                 g("aten.select.int", src, 1, -1), g("aten.select.int", src, 3, 0),
                 g("aten.select.int", src, 2, -1),
                 g("aten.narrow.default", src, 1, 1, 2), g("aten.narrow.default", src, 3, 0, 1),
                 g("aten.flip.default", src, [1, 3]), g("aten.roll.default", src, [1], [2]),
                 g("aten.roll.default", src, [2, -1], [2, 3]),
                 g("aten.tril.default", src, 0), g("aten.triu.default", src, -1)]
    outs.append(g("aten.add.Tensor", g("aten.slice.Tensor", cl, 2, 0, INT64_MAX, 2), 1.0))
    outs.append(g("aten.mul.Tensor", g("aten.select.int", cl, 1, 0), 2.0))
    g.out(*outs)
    return g, NCHW


def g_indexing():
    dyn = {"x": ["batch", 3, "height", "width"], "idx": ["k"], "i2": ["batch", 3, "height", "k"]}
    g = Graph("indexing", dyn, dims("batch", "height", "width", "k"))
    x = g.ph("x")
    idx = g.ph("idx", "int64", 1, rng=(0, 1))
    i2 = g.ph("i2", "int64", 4, rng=(0, 1))
    cl = g("aten.contiguous.default", x, memory_format=CL)
    outs = []
    for src in (x, cl):
        outs += [g("aten.index_select.default", src, 3, idx),
                 g("aten.index_select.default", src, 0, idx),
                 g("aten.index.Tensor", src, [None, None, idx]),
                 g("aten.index.Tensor", src, [idx]),
                 g("aten.index.Tensor", src, [None, idx, None, idx]),
                 g("aten.index.Tensor", src, [idx, None, idx]),
                 g("aten.gather.default", src, 3, i2),
                 g("aten.take_along_dim.default", src, i2, 3),
                 g("aten.scatter.src", src, 3, i2, src),
                 g("aten.scatter.value", src, 3, i2, 1.0),
                 g("aten.scatter_add.default", src, 3, i2, src),
                 g("aten.index_put.default", src, [None, None, None, idx], g("aten.sum.default", src), False)]
    g.out(*outs)
    ex = []
    for s in NCHW:
        for k in (1, 3):
            if k <= s[3] or True:
                ex.append({"x": s, "idx": [k], "i2": [s[0], 3, s[2], k]})
    return g, ex[:8]


def g_factories():
    dyn = {"x": ["batch", "n"]}
    g = Graph("factories", dyn, dims("batch", "n"))
    x = g.ph("x", rank=2)
    b = g("aten.sym_size.int", x, 0)
    n = g("aten.sym_size.int", x, 1)
    outs = [g("aten.arange.default", n), g("aten.arange.default", n, dtype=Dtype("float32")),
            g("aten.arange.start", 1, n), g("aten.arange.start_step", 0, n, 2),
            g("aten.arange.start_step", g("operator.sub", n, 1), -1, -1),
            g("aten.arange.default", 5.0), g("aten.arange.start_step", 0, 1.0, 0.25),
            g("aten.full.default", [b, n], 1.0), g("aten.full.default", [n], 2),
            g("aten.full.default", [b, 2], True), g("aten.zeros.default", [b, n]),
            g("aten.ones.default", [n, b], dtype=Dtype("int64")),
            g("aten.empty.memory_format", [b, 3, n, 2], memory_format=CL),
            g("aten.scalar_tensor.default", 1.0),
            g("aten.tril.default", g("aten.ones.default", [n, n]), 0),
            g("aten.triu.default", g("aten.full.default", [n, n], -1.0), 1),
            g("aten.add.Tensor", x, g("aten.arange.default", n)),
            g("aten.lt.Tensor", g("aten.arange.default", n), g("aten.unsqueeze.default", g("aten.arange.default", b), 1)),
            g("aten.linspace.default", 0, 1, n), g("aten.eye.default", n)]
    g.out(*outs)
    return g, [{"x": s} for s in ([1, 1], [2, 5], [3, 1], [1, 7], [4, 4], [2, 9])]


def g_zero_size():
    dyn = {"x": ["batch", 3, "height", "width"]}
    g = Graph("zero_size", dyn, dims("batch", "height", "width", lo=0))
    x = g.ph("x")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    b = g("aten.sym_size.int", x, 0)
    outs = [g("aten.add.Tensor", cl, x), g("aten.mul.Tensor", p, 2.0),
            g("aten.sum.dim_IntList", cl, [1], False), g("aten.mean.dim", x, [2, 3], True),
            g("aten.reshape.default", p, [b, -1]), g("aten.cat.default", [x, cl], 1),
            g("aten.clone.default", cl), g("aten.to.dtype", p, Dtype("float16"), False, False, None),
            g("aten.flatten.using_ints", cl, 1, -1), g("aten.slice.Tensor", cl, 2, 1, INT64_MAX, 1),
            g("aten.cumsum.default", cl, 1), g("aten.amax.default", x, [1], False),
            g("aten.contiguous.default", p, memory_format=Mem("contiguous_format")),
            g("aten.where.self", g("aten.gt.Scalar", cl, 0), cl, x)]
    g.out(*outs)
    ex = [{"x": s} for s in ([0, 3, 2, 2], [2, 3, 0, 4], [1, 3, 3, 0], [2, 3, 2, 3], [1, 3, 1, 1])]
    return g, ex


def g_seq_layouts():
    dyn = {"x": ["batch", "seq", 8]}
    g = Graph("seq_layouts", dyn, dims("batch", "seq"))
    x = g.ph("x", rank=3)
    b = g("aten.sym_size.int", x, 0)
    s = g("aten.sym_size.int", x, 1)
    t = g("aten.transpose.int", x, 1, 2)
    v = g("aten.view.default", x, [b, s, 2, 4])
    pv = g("aten.permute.default", v, [0, 2, 1, 3])
    outs = [g("aten.add.Tensor", t, 1.0), g("aten.mul.Tensor", pv, pv),
            g("aten.reshape.default", pv, [-1, s, 4]),
            g("aten.reshape.default", g("aten.transpose.int", pv, 1, 2), [b, s, 8]),
            g("aten.contiguous.default", pv, memory_format=Mem("contiguous_format")),
            g("aten.softmax.int", pv, -1) if False else g("aten.exp.default", pv),
            g("aten.sum.dim_IntList", pv, [-1], True), g("aten.mean.dim", t, [-1], False),
            g("aten.masked_fill.Scalar", pv, g("aten.gt.Scalar", pv, 0), float("-inf")),
            g("aten.add.Tensor", pv, g("aten.view.default", g("aten.arange.default", 4, dtype=Dtype("float32")), [1, 1, 1, 4])),
            g("aten.cat.default", [pv, pv], 1), g("aten.stack.default", [t, t], 1),
            g("aten.expand.default", g("aten.unsqueeze.default", x, 1), [b, 2, s, 8]),
            g("aten.clone.default", g("aten.expand.default", g("aten.unsqueeze.default", x, 1), [b, 2, s, 8])),
            g("aten.view.default", g("aten.clone.default", g("aten.expand.default", g("aten.unsqueeze.default", x, 1), [b, 2, s, 8])), [b, -1, 8]),
            g("aten.triu.default", g("aten.transpose.int", x, 0, 1), 1),
            g("aten.roll.default", x, [1], [1]), g("aten.flip.default", t, [-1]),
            g("aten.cumsum.default", t, -1), g("aten.argmax.default", pv, -1, False)]
    g.out(*outs)
    return g, [{"x": s} for s in ([1, 1, 8], [2, 5, 8], [3, 2, 8], [1, 9, 8], [2, 3, 9])]


def g_scalar_overloads():
    dyn = {"b": ["batch", "n"], "i": ["batch", "n"], "x": ["batch", "n"]}
    g = Graph("scalar_overloads", dyn, dims("batch", "n"))
    b = g.ph("b", "bool", 2)
    i = g.ph("i", "int32", 2, rng=(1, 5))
    x = g.ph("x", "float16", 2)
    outs = [g("aten.full.default", [2, 3], True), g("aten.full.default", [1], 7),
            g("aten.where.Scalar", b, True, False), g("aten.where.ScalarOther", b, b, True),
            g("aten.where.ScalarSelf", b, True, i), g("aten.where.ScalarOther", b, x, 2),
            g("aten.where.Scalar", b, 1.5, 0), g("aten.add.Scalar", i, 2.5), g("aten.add.Scalar", b, 2),
            g("aten.mul.Scalar", x, 3), g("aten.sub.Scalar", i, 1), g("aten.div.Scalar", i, 2),
            g("aten.rsub.Scalar", i, 1.0), g("aten.pow.Tensor_Scalar", b, 2),
            g("aten.pow.Scalar", 2.0, i), g("aten.remainder.Scalar", x, 2),
            g("aten.eq.Scalar", i, 1.5), g("aten.masked_fill.Scalar", i, b, 2.5),
            g("aten.clamp.default", i, 0.5, None), g("aten.clamp_min.default", i, 1),
            g("aten.clamp_max.default", b, 0), g("aten.fill.Scalar", i, 1.5),
            g("aten.full_like.default", i, 1.5), g("aten.full_like.default", b, 2, dtype=Dtype("float64")),
            g("aten.scalar_tensor.default", 3), g("aten.add.Tensor", b, True),
            g("aten.mul.Tensor", i, False), g("aten.add.Tensor", x, g("aten.scalar_tensor.default", 2.0, dtype=Dtype("float64")))]
    g.out(*outs)
    return g, [{k: s for k in "bix"} for s in ([1, 1], [2, 5], [3, 1], [1, 6])]


def g_layout_mix():
    dyn = {"x": ["batch", "c", "height", "width"]}
    g = Graph("layout_mix", dyn, dims("batch", "c", "height", "width"))
    x = g.ph("x")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p1 = g("aten.permute.default", x, [0, 3, 1, 2])
    p2 = g("aten.permute.default", x, [3, 2, 1, 0])
    t = g("aten.transpose.int", x, 0, 2)
    xt = g("aten.transpose.int", g("aten.contiguous.default", g("aten.transpose.int", x, 1, 2)), 1, 2)
    ex = g("aten.expand.default", g("aten.slice.Tensor", x, 3, 0, 1, 1), [-1, -1, -1, g("aten.sym_size.int", x, 3)])
    ex2 = g("aten.expand.default", g("aten.slice.Tensor", cl, 1, 0, 1, 1), [-1, g("aten.sym_size.int", x, 1), -1, -1])
    outs = [g("aten.add.Tensor", cl, xt), g("aten.add.Tensor", xt, cl), g("aten.mul.Tensor", xt, x), g("aten.add.Tensor", p2, p2), g("aten.mul.Tensor", t, 2.0),
            g("aten.add.Tensor", ex, x), g("aten.add.Tensor", ex, cl), g("aten.neg.default", ex),
            g("aten.add.Tensor", ex2, 1.0), g("aten.add.Tensor", ex2, ex), g("aten.clone.default", ex2),
            g("aten.add.Tensor", g("aten.sum.dim_IntList", cl, [1], True), cl),
            g("aten.add.Tensor", g("aten.mean.dim", cl, [2, 3], True), cl),
            g("aten.mul.Tensor", g("aten.amax.default", p1, [-1], True), p1),
            g("aten.sum.dim_IntList", ex, [1], True), g("aten.sum.dim_IntList", ex2, [2], False),
            g("aten.sum.dim_IntList", t, [0], True), g("aten.cumsum.default", p2, 0),
            g("aten.cat.default", [cl, x], 1), g("aten.cat.default", [p1, p1], 0),
            g("aten.cat.default", [t, t], 1), g("aten.stack.default", [cl, p1], 1) if False else g("aten.stack.default", [cl, cl], 1),
            g("aten.reshape.default", cl, [-1]), g("aten.view.default", cl, [g("aten.sym_size.int", x, 0), -1]) if False else
            g("aten.reshape.default", cl, [g("aten.sym_size.int", x, 0), -1]),
            g("aten.reshape.default", t, [-1, g("aten.sym_size.int", x, 3)]),
            g("aten.squeeze.default", cl), g("aten.unsqueeze.default", cl, 0), g("aten.squeeze.dim", p1, -1),
            g("aten.flip.default", cl, [0]), g("aten.roll.default", cl, [1], [1]), g("aten.roll.default", p1, [1], [0]) if False else g("aten.roll.default", t, [1], [1]),
            g("aten.tril.default", cl, 0), g("aten.triu.default", p1, 1), g("aten.tril.default", t, -1),
            g("aten.to.dtype", ex, Dtype("float64"), False, False, None), g("aten._to_copy.default", t, dtype=Dtype("float16")),
            g("aten.index_select.default", cl, 1, g("aten.arange.default", 1)),
            g("aten.index_select.default", p1, 0, g("aten.arange.default", 1)),
            g("aten.index.Tensor", cl, [None, g("aten.arange.default", 1)]),
            g("aten.index.Tensor", p1, [None, None, g("aten.arange.default", 1)]),
            g("aten.index.Tensor", cl, [g("aten.arange.default", 1), None, g("aten.arange.default", 1)]),
            g("aten.gather.default", cl, 1, g("aten.zeros_like.default", cl, dtype=Dtype("int64"))),
            g("aten.gather.default", p1, 3, g("aten.zeros_like.default", p1, dtype=Dtype("int64"))),
            g("aten.scatter.value", cl, 1, g("aten.zeros_like.default", cl, dtype=Dtype("int64")), 1.0),
            g("aten.where.self", g("aten.gt.Scalar", ex, 0), cl, xt), g("aten.where.self", g("aten.gt.Scalar", xt, 0), ex, 1.0) if False else g("aten.where.self", g("aten.gt.Scalar", xt, 0), ex, x),
            g("aten.masked_fill.Scalar", xt, g("aten.gt.Scalar", cl, 0), 0.0), g("aten.masked_fill.Scalar", ex, g("aten.gt.Scalar", xt, 0), 0.0),
            g("aten.var.dim", cl, [1], True, True), g("aten.argmax.default", cl, 1, True),
            g("aten.norm.ScalarOpt_dim", cl, 2, [2, 3], False), g("aten.any.dim", g("aten.gt.Scalar", cl, 0), 1, True),
            g("aten.sum.dim_IntList", cl, [0], True), g("aten.mean.dim", cl, [0, 1], True)]
    g.out(*outs)
    return g, [{"x": s} for s in ([1, 1, 1, 1], [2, 3, 4, 5], [1, 4, 1, 1], [2, 1, 3, 3], [1, 2, 5, 1],
                                  [3, 1, 1, 4], [2, 5, 1, 2])]


def g_zero_dim():
    dyn = {"x": ["n"]}
    g = Graph("zero_dim", dyn, dims("n"))
    x = g.ph("x", rank=1)
    s = g("aten.select.int", x, 0, 0)
    outs = [s, g("aten.add.Tensor", s, 1), g("aten.mul.Tensor", s, x), g("aten.unsqueeze.default", s, 0),
            g("aten.view.default", s, [1, 1]), g("aten.reshape.default", s, [-1]), g("aten.expand.default", s, [2, 3]),
            g("aten.sum.default", s), g("aten.sum.dim_IntList", s, [0], True), g("aten.mean.dim", s, [-1], False),
            g("aten.cumsum.default", s, 0), g("aten.flatten.using_ints", s, 0, -1), g("aten.squeeze.default", s),
            g("aten.to.dtype", s, Dtype("int64"), False, False, None), g("aten.where.self", g("aten.gt.Scalar", s, 0), x, s),
            g("aten.masked_fill.Tensor", x, g("aten.gt.Scalar", x, 0), s), g("aten.stack.default", [s, s], 0),
            g("aten.argmax.default", s, None, False), g("aten.amax.default", x, [0], True),
            g("aten.repeat.default", s, [2, 2]), g("aten.clone.default", s), g("aten.zeros_like.default", s),
            g("aten.t.default", x), g("aten.t.default", s), g("aten.permute.default", s, []),
            g("aten.movedim.int", x, 0, -1), g("aten.unbind.int", x, 0) if False else g("aten.narrow.default", x, 0, 0, 1),
            g("aten.index_select.default", s, 0, g("aten.arange.default", 1)),
            g("aten.flip.default", x, [0]), g("aten.roll.default", x, [2], [0]), g("aten.cat.default", [x, x], 0),
            g("aten.split.Tensor", x, 2, 0), g("aten.chunk.default", x, 3, 0)]
    g.out(*outs)
    return g, [{"x": [k]} for k in (1, 2, 5, 7)]


def g_dtype_matrix():
    names = ["float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64", "bool"]
    dyn = {n: ["batch", "n"] for n in names}
    dyn["z"] = []
    g = Graph("dtype_matrix", dyn, dims("batch", "n"))
    ph = {}
    for n in names:
        ph[n] = g.ph(n, n, 2, rng=(0, 3) if n not in ("float16", "bfloat16", "float32", "float64", "bool") else None)
    z = g.ph("z", "int64", 0, rng=(1, 3))
    outs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            outs.append(g("aten.add.Tensor", ph[a], ph[b]))
        outs += [g("aten.add.Tensor", ph[a], z), g("aten.mul.Tensor", ph[a], 2), g("aten.mul.Tensor", ph[a], 0.5),
                 g("aten.div.Tensor", ph[a], 2), g("aten.sum.dim_IntList", ph[a], [1], False),
                 g("aten.cumsum.default", ph[a], 1) if a != "float16" else g("aten.cumsum.default", ph[a], 1, dtype=Dtype("float32")),
                 g("aten.amax.default", ph[a], [1], False) if a != "bool" else
                 g("aten.any.dim", ph[a], 1, False),
                 g("aten.sum.default", ph[a]), g("aten.lt.Scalar", ph[a], 1),
                 g("aten.cat.default", [ph[a], ph["float32"]], 0), g("aten.cat.default", [ph[a], ph["int64"]], 1),
                 g("aten.stack.default", [ph[a], ph["int8"]], 0), g("aten.where.self", ph["bool"], ph[a], ph["uint8"]),
                 g("aten.where.self", ph["bool"], ph[a], z)]
        if a not in ("bool", "float16", "bfloat16"):  # many CPU kernels lack Half/BFloat16 in 1.13
            outs += [g("aten.prod.dim_int", ph[a], 1, False) if a != "float16" else g("aten.sum.dim_IntList", ph[a], [0], True),
                     g("aten.neg.default", ph[a]),
                     g("aten.abs.default", ph[a]), g("aten.sigmoid.default", ph[a]),
                     g("aten.div.Tensor_mode", ph[a], 2, rounding_mode="trunc"),
                     g("aten.remainder.Scalar", ph[a], 2), g("aten.clamp.default", ph[a], 0, 2)
                     if a not in ("float16",) else g("aten.clamp_min.default", ph[a], 0)]
    g.out(*outs)
    ex = []
    for s in ([1, 1], [2, 3], [3, 1], [1, 4]):
        e = {n: s for n in names}
        e["z"] = []
        ex.append(e)
    return g, ex


def g_sym_slicing():
    g, x = nchw_graph("sym_slicing")
    b = g("aten.sym_size.int", x, 0)
    h = g("aten.sym_size.int", x, 2)
    w = g("aten.sym_size.int", x, 3)
    h2 = g("operator.floordiv", h, 2)
    w2 = g("operator.floordiv", w, 2)
    outs = [g("aten.slice.Tensor", x, 2, 0, h2, 1), g("aten.slice.Tensor", x, 2, h2, INT64_MAX, 1),
            g("aten.slice.Tensor", x, 3, g("operator.sub", w, 1), w, 1),
            g("aten.slice.Tensor", x, 3, 1, g("operator.sub", w, 1), 2),
            g("aten.slice.Tensor", x, 2, 0, INT64_MAX, 3), g("aten.slice.Tensor", x, 3, 0, INT64_MAX, 100),
            g("aten.select.int", x, 2, g("operator.sub", h, 1)), g("aten.select.int", x, 3, w2),
            g("aten.narrow.default", x, 2, h2, g("operator.sub", h, h2)),
            g("aten.split.Tensor", x, 2, 2), g("aten.split_with_sizes.default", x, [h2, g("operator.sub", h, h2)], 2),
            g("aten.view.default", x, [b, 3, h, w]), g("aten.expand.default", g("aten.slice.Tensor", x, 0, 0, 1, 1), [b, 3, h, w]),
            g("aten.repeat.default", g("aten.slice.Tensor", x, 2, 0, 1, 1), [1, 1, h, 1]),
            g("aten.new_zeros.default", x, [b, h2, w2]), g("aten.arange.start", h2, h),
            g("aten.full.default", [g("operator.mul", h, w)], 0.0),
            g("aten.reshape.default", g("aten.slice.Tensor", x, 2, 0, INT64_MAX, 2), [b, 3, -1]),
            g("aten.unflatten.int", g("aten.flatten.using_ints", x, 2, 3), 2, [h, w]),
            g("aten.cat.default", [g("aten.slice.Tensor", x, 2, 0, h2, 1), g("aten.slice.Tensor", x, 2, h2, INT64_MAX, 1)], 2)]
    sp = outs[9]
    outs[9] = g("operator.getitem", sp, 0)
    sws = outs[10]
    outs[10] = g("operator.getitem", sws, 1)
    g.out(*outs)
    return g, NCHW + [[1, 3, 2, 9], [2, 3, 7, 2]]


def g_empty_reductions():
    dyn = {"x": ["batch", 3, "height", "width"]}
    g = Graph("empty_reductions", dyn, dims("batch", "height", "width", lo=0))
    x = g.ph("x")
    outs = [g("aten.sum.dim_IntList", x, [2], False), g("aten.mean.dim", x, [2, 3], True),
            g("aten.amax.default", x, [1], True), g("aten.cumsum.default", x, 2),
            g("aten.argmax.default", x, 1, False), g("aten.prod.dim_int", x, 3, True),
            g("aten.any.dim", g("aten.gt.Scalar", x, 0), 2, False),
            g("aten.amax.default", x, [2], False)]
    mx = g("aten.max.dim", x, 3, True)
    outs += [g("operator.getitem", mx, 0), g("operator.getitem", mx, 1)]
    g.out(*outs)
    return g, [{"x": s} for s in ([1, 3, 2, 2], [0, 3, 2, 2], [2, 3, 0, 4], [1, 3, 3, 0], [2, 3, 1, 1])]


def g_chunk_lists():
    dyn = {"x": ["batch", "n"]}
    g = Graph("chunk_lists", dyn, dims("batch", "n"))
    x = g.ph("x", rank=2)
    c = g("aten.chunk.default", x, 4, 1)
    s = g("aten.split.Tensor", x, 4, 1)
    u = g("aten.unbind.int", g("aten.slice.Tensor", x, 1, 0, 2, 1), 1)
    outs = [g("operator.getitem", c, 0), g("operator.getitem", s, 0), g("operator.getitem", u, 1),
            g("aten.chunk.default", x, 3, 0), g("aten.split.Tensor", x, 3, 0), g("aten.unbind.int", x, 0)]
    g.out(*outs)
    return g, [{"x": s} for s in ([1, 6], [2, 5], [3, 8], [4, 2], [2, 4], [5, 3], [1, 1])]


def g_reduce_edge():
    g, x = nchw_graph("reduce_edge")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    outs = []
    for src in (x, cl, p):
        outs += [g("aten.argmax.default", src, None, True), g("aten.amax.default", src, [], False),
                 g("aten.amax.default", src, [], True), g("aten.mean.dim", src, None, True),
                 g("aten.var.dim", src, None, True, True), g("aten.std.dim", src, [], True, False),
                 g("aten.sum.dim_IntList", src, None, True), g("aten.norm.ScalarOpt_dim", src, 2, [], False),
                 g("aten.logsumexp.default", src, [], True), g("aten.sum.dim_IntList", src, [1, -3], False) if False else
                 g("aten.sum.dim_IntList", src, [0, 1, 2, 3], True),
                 g("aten.mean.dim", src, [-1, 0], False), g("aten.amin.default", src, [3, 1], True),
                 g("aten.sum.dim_IntList", g("aten.slice.Tensor", src, 3, 0, INT64_MAX, 2), [1], True),
                 g("aten.sum.dim_IntList", g("aten.expand.default", g("aten.slice.Tensor", src, 0, 0, 1, 1), [2, -1, -1, -1]), [2], True),
                 g("aten.roll.default", src, [2], []), g("aten.flip.default", src, [-1, 0])]
    g.out(*outs)
    return g, NCHW


def g_cat_edge():
    g, x = nchw_graph("cat_edge")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    e64 = g("aten.new_zeros.default", x, [0], dtype=Dtype("float64"))
    ei = g("aten.new_zeros.default", x, [0], dtype=Dtype("int64"))
    z4 = g("aten.slice.Tensor", cl, 1, 0, 0, 1)
    outs = [g("aten.cat.default", [x, e64], 1), g("aten.cat.default", [ei, cl], 1), g("aten.cat.default", [e64, ei], 0),
            g("aten.cat.default", [cl, z4], 1), g("aten.cat.default", [z4, z4], 1), g("aten.cat.default", [z4, x], 1),
            g("aten.cat.default", [cl, g("aten.to.dtype", cl, Dtype("float16"), False, False, None)], 1),
            g("aten.cat.default", [g("aten.to.dtype", x, Dtype("int32"), False, False, None), cl], 0),
            g("aten.cat.default", [p, g("aten.contiguous.default", p)], 1),
            g("aten.cat.default", [g("aten.slice.Tensor", cl, 3, 0, INT64_MAX, 2), cl], 3),
            g("aten.cat.default", [g("aten.expand.default", g("aten.slice.Tensor", x, 1, 0, 1, 1), [-1, 3, -1, -1]), cl], 1),
            g("aten.cat.default", [g("aten.transpose.int", x, 2, 3), g("aten.transpose.int", cl, 2, 3)], 0),
            g("aten.stack.default", [p, p], 1), g("aten.stack.default", [cl, x], 4),
            g("aten.stack.default", [g("aten.select.int", x, 1, 0), g("aten.select.int", cl, 1, 1)], 0),
            g("aten.cat.default", [g("aten.select.int", cl, 0, 0), g("aten.select.int", cl, 0, 0)], 0)]
    g.out(*outs)
    return g, NCHW


def g_masked_index():
    dyn = {"x": ["batch", "n"]}
    g = Graph("masked_index", dyn, dims("batch", "n"))
    x = g.ph("x", rank=2)
    m = g("aten.gt.Scalar", x, 0)
    sel = g("aten.index.Tensor", x, [m])
    nz = g("aten.nonzero.default", x)
    ms = g("aten.masked_select.default", x, m)
    rows = g("aten.index.Tensor", x, [g("aten.select.int", m, 1, 0)])
    outs = [sel, g("aten.mul.Tensor", sel, 2.0), g("aten.sum.default", sel), nz, ms, rows,
            g("aten.cat.default", [sel, ms], 0), g("aten.unsqueeze.default", sel, 1)]
    g.out(*outs)
    return g, [{"x": s} for s in ([1, 1], [2, 5], [3, 1], [1, 7], [4, 4])]


def _layout(g, x, rnd, k):
    """A tensor of x's shape [B, C, H, W] with one of several memory layouts."""
    if k == 0:
        return x
    if k == 1:
        return g("aten.contiguous.default", x, memory_format=CL)
    if k == 2:  # dense, permuted storage order
        perm = list(range(4))
        rnd.shuffle(perm)
        inv = [perm.index(i) for i in range(4)]
        return g("aten.permute.default", g("aten.contiguous.default", g("aten.permute.default", x, perm)), inv)
    if k == 3:  # broadcast along a random dim
        d = rnd.randrange(4)
        return g("aten.expand_as.default", g("aten.slice.Tensor", x, d, 0, 1, 1), x)
    if k == 4:  # keepdim reduction, broadcastable
        d = rnd.sample(range(4), rnd.randint(1, 2))
        return g("aten.sum.dim_IntList", x, sorted(d), True)
    if k == 5:  # non-dense: every other element of a doubled tensor
        d = rnd.randrange(4)
        rep = [1, 1, 1, 1]
        rep[d] = 2
        return g("aten.slice.Tensor", g("aten.repeat.default", x, rep), d, 0, INT64_MAX, 2)
    if k == 6:  # channels_last then transposed back and forth
        return g("aten.transpose.int", g("aten.contiguous.default", g("aten.transpose.int", x, 1, 3), memory_format=CL), 1, 3)
    return x


def fuzz_graph(seed):
    import random

    def fn():
        rnd = random.Random(seed)
        g = Graph("fuzz_layouts_%d" % seed, *SPEC4) if seed % 2 == 0 else \
            Graph("fuzz_layouts_%d" % seed, {"x": ["batch", "c", "height", "width"]}, dims("batch", "c", "height", "width"))
        x = g.ph("x")
        outs = []
        for _ in range(22):
            a = _layout(g, x, rnd, rnd.randrange(7))
            b = _layout(g, x, rnd, rnd.randrange(7))
            kind = rnd.randrange(10)
            if kind == 0:
                outs.append(g("aten.add.Tensor", a, b))
            elif kind == 1:
                outs.append(g("aten.mul.Tensor", a, rnd.choice([2, 0.5])))
            elif kind == 2:
                outs.append(g("aten.where.self", g("aten.gt.Scalar", a, 0), b, _layout(g, x, rnd, rnd.randrange(7))))
            elif kind == 3:
                outs.append(g("aten.exp.default", a))
            elif kind == 4:
                outs.append(g("aten.to.dtype", a, Dtype(rnd.choice(["float64", "int32", "bool"])), False, False, None))
            elif kind == 5:
                d = sorted(rnd.sample(range(4), rnd.randint(1, 3)))
                outs.append(g(rnd.choice(["aten.sum.dim_IntList", "aten.mean.dim", "aten.amax.default"]), a, d, rnd.random() < 0.5))
            elif kind == 6:
                outs.append(g("aten.clone.default", a))
            elif kind == 7:
                outs.append(g("aten.cat.default", [a, b], rnd.randrange(4)) if rnd.random() < 0.0 else
                            g("aten.addcmul.default", a, b, _layout(g, x, rnd, rnd.randrange(7))))
            elif kind == 8:
                outs.append(g("aten.reshape.default", a, [g("aten.sym_size.int", x, 0), -1]))
            else:
                outs.append(g("aten.masked_fill.Scalar", a, g("aten.lt.Scalar", b, 0), 0.0))
        g.out(*outs)
        sizes = [[1, 3, 1, 1], [2, 3, 4, 5], [1, 3, 3, 1], [2, 3, 1, 4], [3, 3, 2, 2]]
        if seed % 2:
            sizes += [[2, 1, 3, 3], [1, 1, 1, 1], [1, 4, 1, 2], [2, 1, 1, 3]]
        return g, sizes
    fn.__name__ = "fuzz_%d" % seed
    return fn


FUZZ_GRAPHS = [fuzz_graph(s) for s in range(4)]


def g_bool_scalar_overloads():
    dyn = {"b": ["batch", "n"], "i": ["batch", "n"], "x": ["batch", "n"]}
    g = Graph("bool_scalar_overloads", dyn, dims("batch", "n"))
    b = g.ph("b", "bool", 2)
    i = g.ph("i", "int32", 2, rng=(1, 5))
    x = g.ph("x", "float32", 2)
    outs = [g("aten.add.Scalar", b, True), g("aten.mul.Scalar", b, True), g("aten.pow.Tensor_Scalar", b, True),
            g("aten.add.Scalar", i, True), g("aten.mul.Scalar", x, False), g("aten.div.Scalar", b, True),
            g("aten.bitwise_and.Scalar", b, True), g("aten.bitwise_or.Scalar", i, True),
            g("aten.remainder.Scalar", b, True), g("aten.eq.Scalar", b, True), g("aten.masked_fill.Scalar", b, b, True),
            g("aten.clamp.default", b, True, None) if False else g("aten.fill.Scalar", b, 2),
            g("aten.full.default", [2], False), g("aten.new_full.default", x, [2], True),
            g("aten.where.Scalar", b, True, 0.5), g("aten.where.ScalarOther", b, x, True),
            g("aten.sum.dim_IntList", b, [1], False), g("aten.cumsum.default", b, 1), g("aten.cumsum.default", i, 0),
            g("aten.prod.dim_int", b, 1, False), g("aten.mean.dim", x, [1], False, dtype=Dtype("float64")),
            g("aten.sum.default", i, dtype=Dtype("int16")), g("aten.logical_xor.default", x, i),
            g("aten.bitwise_not.default", i), g("aten.abs.default", b) if False else g("aten.sign.default", i)]
    g.out(*outs)
    return g, [{k: s for k in "bix"} for s in ([1, 1], [2, 5], [3, 1])]


def dtype_err_graph(name, build, dt="int64"):
    def fn():
        dyn = {"x": ["batch", "n"]}
        g = Graph("dtype_err_" + name, dyn, dims("batch", "n"))
        x = g.ph("x", dt, 2, rng=(1, 4) if dt not in ("float32", "bool") else None)
        g.out(build(g, x))
        return g, [{"x": s} for s in ([1, 1], [2, 3])]
    fn.__name__ = "dtype_err_" + name
    return fn


DTYPE_ERR_GRAPHS = [
    dtype_err_graph("mean_int", lambda g, x: g("aten.mean.dim", x, [1], False)),
    dtype_err_graph("var_int", lambda g, x: g("aten.var.dim", x, [1], True, False)),
    dtype_err_graph("sub_bool", lambda g, x: g("aten.sub.Tensor", x, x), "bool"),
    dtype_err_graph("neg_bool", lambda g, x: g("aten.neg.default", x), "bool"),
    dtype_err_graph("pow_neg", lambda g, x: g("aten.pow.Tensor_Scalar", x, -1)),
    dtype_err_graph("rsub_bool", lambda g, x: g("aten.rsub.Scalar", x, 1), "bool"),
    dtype_err_graph("masked_fill_float_mask", lambda g, x: g("aten.masked_fill.Scalar", x, x, 0.0), "float32"),
    dtype_err_graph("where_float_cond", lambda g, x: g("aten.where.self", x, x, x), "float32"),
    dtype_err_graph("index_float", lambda g, x: g("aten.index_select.default", x, 0, x), "float32"),
    dtype_err_graph("gather_int32", lambda g, x: g("aten.gather.default", x, 1, g("aten.to.dtype", x, Dtype("int32"), False, False, None)), "int64"),
    dtype_err_graph("add_alpha_float_int", lambda g, x: g("aten.add.Tensor", x, x, alpha=0.5)),
    dtype_err_graph("index_int32", lambda g, x: g("aten.index.Tensor", x, [None, g("aten.to.dtype", g("aten.select.int", x, 0, 0), Dtype("int32"), False, False, None)]), "int64"),
    dtype_err_graph("div_mode", lambda g, x: g("aten.div.Tensor_mode", x, 2, rounding_mode="round")),
]


def g_index_bcast():
    dyn = {"x": ["batch", 3, "height", "width"], "a": ["k", 1], "c": ["m"], "t": ["batch", 1, 1, "m"]}
    g = Graph("index_bcast", dyn, dims("batch", "height", "width", "k", "m"))
    x = g.ph("x")
    a = g.ph("a", "int64", 2, rng=(0, 1))
    c = g.ph("c", "int64", 1, rng=(0, 1))
    t = g.ph("t", "int64", 4, rng=(0, 1))
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 3, 1, 2])
    outs = []
    for src in (x, cl, p):
        outs += [g("aten.index.Tensor", src, [None, None, a, c]), g("aten.index.Tensor", src, [a, None, None, c]),
                 g("aten.index.Tensor", src, [None, a, c]), g("aten.index.Tensor", src, [a, c]),
                 g("aten.take_along_dim.default", src, t, 3), g("aten.take_along_dim.default", src, t, None) if False else
                 g("aten.take_along_dim.default", src, t, -1),
                 g("aten.gather.default", src, 3, g("aten.slice.Tensor", g("aten.expand.default", t, [-1, 3, 1, -1]), 0, 0, 1, 1))
                 if src is not p else g("aten.index_select.default", src, 1, c),
                 g("aten.index_put.default", src, [None, None, None, c], g("aten.sum.default", src), True),
                 g("aten.index_put.default", src, [a], g("aten.sum.default", src), False),
                 g("aten.scatter_reduce.two", src, 3, g("aten.slice.Tensor", g("aten.slice.Tensor", t, 0, 0, 1, 1), 3, 0, 1, 1), src, "sum"),
                 g("aten.index_select.default", src, 2, c)]
    g.out(*outs)
    ex = []
    for s, k, m in (([1, 3, 1, 1], 1, 1), ([2, 3, 4, 5], 2, 3), ([3, 3, 2, 2], 3, 1), ([1, 3, 5, 1], 1, 4), ([2, 3, 1, 3], 4, 2)):
        ex.append({"x": s, "a": [k, 1], "c": [m], "t": [s[0], 1, 1, m]})
    return g, ex


def g_shape_edge():
    dyn = {"x": ["batch", "n", "m"]}
    g = Graph("shape_edge", dyn, dims("batch", "n", "m", lo=0))
    x = g.ph("x", rank=3)
    n = g("aten.sym_size.int", x, 1)
    outs = [g("aten.movedim.intlist", x, [0, 2], [2, 0]), g("aten.movedim.intlist", x, [-1], [0]),
            g("aten.squeeze.default", x), g("aten.squeeze.dim", x, -1),
            g("aten.unflatten.int", x, 1, [-1, 1]), g("aten.view.default", x, [-1]),
            g("aten.reshape.default", g("aten.transpose.int", x, 1, 2), [-1, n]),
            g("aten.tril.default", x, 5), g("aten.triu.default", x, -7), g("aten.tril.default", g("aten.transpose.int", x, 0, 2), 1),
            g("aten.roll.default", x, [-1, 5], [2, 0]), g("aten.flip.default", x, [0, 1, 2]),
            g("aten.repeat.default", x, [2, 1, 1, 1]), g("aten.repeat.default", x, [1, 0, 2]),
            g("aten.expand.default", x, [2, -1, -1, -1]),
            g("aten.split.Tensor", x, 5, 1), g("aten.split_with_sizes.default", g("aten.cat.default", [x, x], 1), [n, n], 1),
            g("aten.unbind.int", g("aten.slice.Tensor", x, 0, 0, 1, 1), 0),
            g("aten.cumsum.default", g("aten.transpose.int", x, 0, 1), 0),
            g("aten.narrow.default", x, 2, 0, 0), g("aten.select.int", g("aten.new_zeros.default", x, [2, 0]), 0, -1),
            g("aten.diff.default", x, 1, -1, None, None) if False else g("aten.sum.dim_IntList", x, [0, 1], False),
            g("aten.flatten.using_ints", g("aten.transpose.int", x, 1, 2), 0, 1),
            g("aten.t.default", g("aten.select.int", g("aten.new_zeros.default", x, [3, 1, 2]), 1, 0)),
            g("aten.expand.default", g("aten.new_zeros.default", x, [1, 0]), [3, -1, 0])]
    g.out(*outs)
    return g, [{"x": s} for s in ([1, 1, 1], [2, 3, 4], [0, 3, 2], [2, 0, 3], [3, 2, 0], [1, 6, 1], [4, 1, 5])]


def g_misc_ops():
    g, x = nchw_graph("misc_ops")
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", x, [0, 2, 3, 1])
    ncl = g("aten.slice.Tensor", cl, 3, 0, INT64_MAX, 2)
    i = g("aten.to.dtype", cl, Dtype("int64"), False, False, None)
    y = g("aten.sum.dim_IntList", x, [0, 2, 3], True)
    outs = [g("aten.clone.default", ncl), g("aten.zeros_like.default", ncl), g("aten.empty_like.default", ncl),
            g("aten._to_copy.default", ncl, dtype=Dtype("float64")), g("aten.to.dtype_layout", ncl, dtype=Dtype("float16")),
            g("aten.to.dtype_layout", x, dtype=Dtype("float64"), memory_format=CL),
            g("aten.to.other", p, i, False, False, None), g("aten.type_as.default", p, cl),
            g("aten.detach.default", p), g("aten.alias.default", cl),
            g("aten.as_strided.default", x, [1, 3], [1, 1], None),
            g("aten.exp.default", ncl), g("aten.add.Tensor", ncl, ncl), g("aten.isnan.default", cl),
            g("aten.isinf.default", p), g("aten.nan_to_num.default", cl, None, None, None),
            g("aten.rsqrt.default", i), g("aten.erf.default", i), g("aten.round.decimals", cl, decimals=2),
            g("aten.sgn.default", i), g("aten.hardtanh.default", cl, -1.0, 1.0), g("aten.gelu.default", p),
            g("aten.silu.default", ncl), g("aten.softplus.default", cl, 1, 20), g("aten.leaky_relu.default", p, 0.01),
            g("aten.clamp.Tensor", cl, y, None), g("aten.clamp.Tensor", y, None, cl),
            g("aten.addcdiv.default", y, cl, p if False else x, value=0.5), g("aten.lerp.Tensor", y, cl, x),
            g("aten.masked_fill.Tensor", cl, g("aten.gt.Scalar", x, 0), g("aten.sum.default", i)),
            g("aten.where.self", g("aten.gt.Scalar", g("aten.sum.default", x), 0), cl, y),
            g("aten.atan2.default", cl, y), g("aten.maximum.default", y, cl), g("aten.fmod.Tensor", i, y),
            g("aten.floor_divide.default", i, 2), g("aten.bitwise_xor.Tensor", i, g("aten.gt.Scalar", cl, 0)),
            g("aten.logical_and.default", cl, p if False else x), g("aten.heaviside.default", cl, y) if False else g("aten.copysign.Tensor", i, y),
            g("aten.select_scatter.default", cl, g("aten.select.int", cl, 1, 0), 1, 0),
            g("aten.slice_scatter.default", cl, g("aten.slice.Tensor", cl, 3, 0, INT64_MAX, 2), 3, 0, INT64_MAX, 2),
            g("aten.fill.Scalar", p, 1.0), g("aten.fill.Tensor", cl, g("aten.sum.default", i)),
            g("aten.relu.default", ncl), g("aten.sigmoid.default", g("aten.expand_as.default", y, x)),
            g("aten.add.Tensor", g("aten.expand_as.default", y, x), g("aten.expand_as.default", y, x))]
    g.out(*outs)
    return g, NCHW


def fuzz_rank_graph(seed, rank):
    import random

    def lay(g, x, rnd):
        k = rnd.randrange(5)
        if k == 0:
            return x
        if k == 1:
            perm = list(range(rank))
            rnd.shuffle(perm)
            inv = [perm.index(i) for i in range(rank)]
            return g("aten.permute.default", g("aten.clone.default", g("aten.permute.default", x, perm),
                                               memory_format=Mem("contiguous_format")), inv)
        if k == 2:  # lower-rank broadcast operand: drop leading dims by select
            y = x
            for _ in range(rnd.randint(1, rank - 1)):
                y = g("aten.select.int", y, 0, 0)
            return y
        if k == 3:
            d = sorted(rnd.sample(range(rank), rnd.randint(1, rank - 1)))
            return g("aten.amax.default", x, d, True)
        d = rnd.randrange(rank)
        return g("aten.expand_as.default", g("aten.slice.Tensor", x, d, 0, 1, 1), x)

    def fn():
        rnd = random.Random(1000 + seed)
        names = ["d%d" % i for i in range(rank)]
        g = Graph("fuzz_rank%d_%d" % (rank, seed), {"x": names}, dims(*names))
        x = g.ph("x", rank=rank)
        outs = []
        for _ in range(16):
            a, b = lay(g, x, rnd), lay(g, x, rnd)
            k = rnd.randrange(6)
            if k == 0:
                outs.append(g("aten.add.Tensor", a, b))
            elif k == 1:
                outs.append(g("aten.mul.Tensor", g("aten.add.Tensor", a, b), lay(g, x, rnd)))
            elif k == 2:
                outs.append(g("aten.where.self", g("aten.gt.Scalar", a, 0), b, 0.0) if False else
                            g("aten.where.self", g("aten.gt.Scalar", a, 0), b, lay(g, x, rnd)))
            elif k == 3:
                d = sorted(rnd.sample(range(rank), rnd.randint(1, rank)))
                outs.append(g("aten.sum.dim_IntList", g("aten.add.Tensor", a, b), d, rnd.random() < 0.5))
            elif k == 4:
                outs.append(g("aten.clone.default", g("aten.add.Tensor", a, b)))
            else:
                outs.append(g("aten.cat.default", [g("aten.add.Tensor", a, x), g("aten.mul.Tensor", x, b)], rnd.randrange(rank)))
        g.out(*outs)
        base = [[1] * rank, [2, 3, 4, 5, 2][:rank], [3, 1, 2, 1, 3][:rank], [1, 4, 1, 3, 1][:rank], [2, 2, 3, 1, 2][:rank]]
        return g, [{"x": b} for b in base]
    fn.__name__ = "fuzz_rank%d_%d" % (rank, seed)
    return fn


FUZZ_RANK_GRAPHS = [fuzz_rank_graph(s, r) for r in (2, 3, 5) for s in range(2)]


ERR_SIZES = [[1, 3, 1, 1], [2, 3, 4, 4], [1, 3, 5, 5], [2, 3, 2, 6], [1, 3, 3, 4], [3, 3, 6, 1], [1, 3, 1, 5]]


def err_graph(name, build):
    def fn():
        g, x = nchw_graph("err_" + name)
        g.out(build(g, x))
        return g, ERR_SIZES
    fn.__name__ = "err_" + name
    return fn


def _b(g, x):
    return g("aten.sym_size.int", x, 0)


ERR_GRAPHS = [
    err_graph("view_divisible", lambda g, x: g("aten.view.default", x, [_b(g, x), 3, 2, -1])),
    err_graph("view_transposed", lambda g, x: g("aten.view.default", g("aten.transpose.int", x, 2, 3), [_b(g, x), 3, -1])),
    err_graph("view_cl", lambda g, x: g("aten.view.default", g("aten.contiguous.default", x, memory_format=CL), [_b(g, x), -1])),
    err_graph("unflatten_odd", lambda g, x: g("aten.unflatten.int", x, 3, [2, -1])),
    err_graph("narrow_oob", lambda g, x: g("aten.narrow.default", x, 2, 1, 2)),
    err_graph("select_oob", lambda g, x: g("aten.select.int", x, 3, -2)),
    err_graph("split_sizes", lambda g, x: g("operator.getitem", g("aten.split_with_sizes.default", x, [2, 2], 2), 0)),
    err_graph("broadcast_hw", lambda g, x: g("aten.add.Tensor", x, g("aten.transpose.int", x, 2, 3))),
    err_graph("broadcast_cl_hw", lambda g, x: g("aten.mul.Tensor", g("aten.contiguous.default", x, memory_format=CL),
                                               g("aten.permute.default", x, [0, 1, 3, 2]))),
    err_graph("where_hw", lambda g, x: g("aten.where.self", g("aten.gt.Scalar", x, 0), x, g("aten.transpose.int", x, 2, 3))),
    err_graph("expand_hw", lambda g, x: g("aten.expand.default", x, [-1, -1, g("aten.sym_size.int", x, 3), -1])),
    err_graph("cat_hw", lambda g, x: g("aten.cat.default", [x, g("aten.transpose.int", x, 2, 3)], 1)),
    err_graph("stack_hw", lambda g, x: g("aten.stack.default", [x, g("aten.transpose.int", x, 2, 3)], 0)),
    err_graph("gather_big", lambda g, x: g("aten.gather.default", x, 3,
                                           g("aten.new_zeros.default", x, [1, 3, 4, 2], dtype=Dtype("int64")))),
    err_graph("masked_fill_bcast", lambda g, x: g("aten.masked_fill.Scalar", g("aten.slice.Tensor", x, 3, 0, 1, 1),
                                                  g("aten.gt.Scalar", x, 0), 0.0)),
    err_graph("masked_fill_mask_bcast", lambda g, x: g("aten.masked_fill.Scalar", g("aten.contiguous.default", x, memory_format=CL),
                                                       g("aten.gt.Scalar", g("aten.slice.Tensor", x, 2, 0, 1, 1), 0), 0.0)),
    err_graph("index_put_hw", lambda g, x: g("aten.index_put.default", x, [None, None, g("aten.arange.default", 2)],
                                             g("aten.slice.Tensor", x, 2, 0, 2, 1), False)),
    err_graph("repeat_reshape", lambda g, x: g("aten.reshape.default", g("aten.repeat.default", x, [1, 1, 2, 1]),
                                               [_b(g, x), 3, -1, 4])),
]


def g_meshgrid_kwargs():
    # meshgrid's keyword-only `indexing` is in kwargs (torch.export's form: transformers'
    # deformable_detr, dinov3_vit; torch.ops refuses it positionally), both orders.
    dyn = {"a": ["n"], "b": ["m"], "c": ["k"]}
    g = Graph("meshgrid_kwargs", dyn, dims("n", "m", "k"))
    a, b, c = g.ph("a", rank=1), g.ph("b", rank=1), g.ph("c", rank=1)
    outs = []
    for ts, ix in (([a, b], "ij"), ([a, b], "xy"), ([a, b, c], "xy"), ([c, a, b], "ij")):
        m = g("aten.meshgrid.indexing", ts, indexing=ix)
        outs += [g("operator.getitem", m, i) for i in range(len(ts))]
    g.out(*outs)
    return g, [{"a": [n], "b": [m], "c": [k]} for n, m, k in ((1, 1, 1), (3, 5, 2), (4, 1, 7), (2, 6, 1))]


def g_inplace_floor_divide():
    # floor_divide_ (transformers' dab-detr: `arange // 2` in place) keeps self's layout and
    # dtype; an other that would grow self, or a float other for an int self, is an error.
    dyn = {"x": ["batch", 3, "height", "width"], "i": ["batch", "n"], "v": ["n"]}
    g = Graph("inplace_floor_divide", dyn, dims("batch", "height", "width", "n"))
    x = g.ph("x")
    i = g.ph("i", "int64", 2, rng=(-9, 9))
    v = g.ph("v", "int64", 1, rng=(1, 5))
    cl = g("aten.contiguous.default", x, memory_format=CL)
    p = g("aten.permute.default", g("aten.clone.default", x), [0, 2, 3, 1])
    a = g("aten.floor_divide_.Tensor", cl, 2)
    b = g("aten.floor_divide_.Scalar", p, 1.5)
    c = g("aten.floor_divide_.Tensor", i, v)
    r = g("aten.arange.default", g("aten.sym_size.int", i, 1))
    d = g("aten.floor_divide_.Tensor", r, 2)
    t = g("aten.t.default", g("aten.clone.default", i))
    e = g("aten.floor_divide_.Tensor", t, g("aten.unsqueeze.default", v, 1))
    f = g("aten.floor_divide_.Tensor", g("aten.clone.default", x), g("aten.sum.dim_IntList", x, [1], True))
    g.out(a, b, c, d, e, f, cl, p, i, r, t)
    return g, [{"x": s, "i": [s[0], n], "v": [n]} for s, n in zip(NCHW, (1, 2, 3, 1, 4, 2))]


def g_inplace_views():
    # In-place metadata changes: the tensor itself takes the new geometry, so later readers of
    # the mutated node see it too (transformers' BigBird: `mask.unsqueeze_(2)`); views taken
    # before keep theirs. Goldens hold each node's tensor at the end of the run, as FORMAT.md's
    # interpreter records them.
    g, x = nchw_graph("inplace_views")
    b = g("aten.sym_size.int", x, 0)
    c = g("aten.clone.default", x)
    before = g("aten.select.int", c, 1, 0)                 # a view of c before the change
    u = g("aten.unsqueeze_.default", c, 1)                 # c is (b, 1, 3, h, w) from here
    a1 = g("aten.add.Tensor", c, 1.0)                      # reads c, not u
    s1 = g("aten.sum.dim_IntList", c, [2], False)
    v1 = g("aten.view.default", c, [b, 3, -1])
    q = g("aten.squeeze_.dim", c, 1)                       # back to (b, 3, h, w)
    a2 = g("aten.mul.Tensor", c, 2.0)
    p = g("aten.permute.default", g("aten.clone.default", x), [0, 2, 3, 1])
    t1 = g("aten.transpose_.default", p, 1, 3)             # non-contiguous self
    a3 = g("aten.add.Tensor", p, 1.0)
    d = g("aten.clone.default", x)
    sw = g("aten.swapdims_.default", d, 0, -1)
    sa = g("aten.swapaxes_.default", d, 1, 2)
    a4 = g("aten.sum.dim_IntList", d, [0], True)
    m = g("aten.clone.default", g("aten.select.int", g("aten.select.int", x, 1, 0), 2, 0))  # (b, w)
    tt = g("aten.t_.default", m)
    a5 = g("aten.add.Tensor", m, 1.0)
    e = g("aten.clone.default", x)
    sq = g("aten.squeeze_.default", e)                      # size-1 dims go (batch / height / width 1)
    a6 = g("aten.neg.default", e)
    f = g("aten.clone.default", x)
    sd = g("aten.squeeze_.dim", f, 2)                       # (squeeze_.dims is 2.x only)
    a7 = g("aten.neg.default", f)
    h = g("aten.clone.default", x)
    st = g("aten.as_strided_.default", h, [b, 3], [1, b], 0)
    a8 = g("aten.add.Tensor", h, 1.0)
    g.out(before, u, a1, s1, v1, q, a2, t1, a3, sw, sa, a4, tt, a5, sq, a6, sd, a7, st, a8, c, p, d, m, e, f, h)
    return g, NCHW


INPLACE_ERR_GRAPHS = [
    dtype_err_graph("t__3d", lambda g, x: g("aten.t_.default", g("aten.unsqueeze.default", x, 0)), "float32"),
    dtype_err_graph("unsqueeze__dim", lambda g, x: g("aten.unsqueeze_.default", g("aten.clone.default", x), 3), "float32"),
    dtype_err_graph("floor_divide_int_by_float", lambda g, x: g("aten.floor_divide_.Tensor", x, 2.5)),
    dtype_err_graph("floor_divide_grow", lambda g, x: g("aten.floor_divide_.Tensor", g("aten.sum.dim_IntList", x, [0]), x),
                    "float32"),
]


GRAPHS = [g_binary_layouts, g_broadcast, g_promotion, g_ternary_layouts, g_casts, g_reductions,
          g_views, g_cat_split, g_slicing, g_indexing, g_factories, g_zero_size, g_seq_layouts,
          g_scalar_overloads, g_layout_mix, g_zero_dim,
          g_dtype_matrix, g_sym_slicing, g_empty_reductions, g_chunk_lists,
          g_reduce_edge, g_cat_edge, g_masked_index] + ERR_GRAPHS + FUZZ_GRAPHS + [g_bool_scalar_overloads] + DTYPE_ERR_GRAPHS + [g_index_bcast, g_shape_edge, g_misc_ops] + FUZZ_RANK_GRAPHS + [g_meshgrid_kwargs, g_inplace_floor_divide, g_inplace_views] + INPLACE_ERR_GRAPHS


def main():
    os.makedirs(OUT, exist_ok=True)
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for fn in GRAPHS:
        g, ex = fn()
        if only and g.name not in only and not any(g.name.startswith(o.rstrip("*")) for o in only if o.endswith("*")):
            continue
        print(finish(g, ex))


if __name__ == "__main__":
    main()
