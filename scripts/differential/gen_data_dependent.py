#!/usr/bin/python3
"""Differential-test generator: data-dependent and scalar-program ops (nonzero, argwhere,
masked_select, bool-mask index / index_put, unique family, repeat_interleave with tensor repeats,
bincount, item/_local_scalar_dense feeding sizes, topk/sort/kthvalue/argsort/cumsum/cummax on
symbolic sizes, one_hot, where(cond), operator.* size arithmetic, sym_numel, chunk/split/arange
from size expressions, getitem on tuple results).

Regenerate (needs PyTorch 1.13, Debian python3-torch; run from the repo root):
    /usr/bin/python3 scripts/differential/gen_data_dependent.py
Writes data/differential/data_dependent/*.graph.json (fx-graph-json v1, see
../shared/corpus/FORMAT.md). Reuses the graph builder / reference interpreter of
gen_elementwise_views.py; inputs are drawn as FORMAT.md says (one generator seeded with the example
seed, placeholders in order: float randn, bool rand > 0.5, int randint(meta.range)).
Checked by ctest `conform_differential_data_dependent`.
"""
import json
import operator
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_elementwise_views as ev  # noqa: E402
from gen_elementwise_views import Graph, Dtype, dims, INT64_MAX  # noqa: E402
import torch  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "differential",
                   "data_dependent")
ev.OPS.update({"truediv": operator.truediv, "mod": operator.mod, "neg": operator.neg,
               "eq": operator.eq, "lt": operator.lt, "gt": operator.gt, "ne": operator.ne,
               "le": operator.le, "ge": operator.ge})
ev.VALUE_OPS |= {"aten.bincount.default", "aten.one_hot.default", "aten.repeat_interleave.Tensor",
                 "aten.repeat_interleave.self_Tensor", "aten.narrow.default", "aten.slice.Tensor"}


# Ops whose output sizes (or scalar values) depend on tensor contents.
DD_TARGETS = {"aten.nonzero.default", "aten.argwhere.default", "aten.masked_select.default",
              "aten.where.default", "aten._unique.default", "aten._unique2.default",
              "aten.unique_consecutive.default", "aten.unique_dim.default",
              "aten.unique_dim_consecutive.default", "aten.repeat_interleave.Tensor",
              "aten.repeat_interleave.self_Tensor", "aten.bincount.default", "aten.one_hot.default",
              "aten.item.default", "aten._local_scalar_dense.default"}
BOOL_MAKERS = ("aten.gt.", "aten.lt.", "aten.ge.", "aten.le.", "aten.eq.", "aten.ne.", "aten.logical_")


def _refs(a):
    if isinstance(a, ev.N):
        yield a.name
    elif isinstance(a, (list, tuple)):
        for x in a:
            yield from _refs(x)
    elif isinstance(a, dict):
        for x in a.values():
            yield from _refs(x)


def tainted_nodes(g):
    """Nodes whose values or sizes depend on tensor contents: data-dependent ops, bool-mask
    indexing, and everything computed from them."""
    boolish = {n["name"] for n in g.nodes if n["op"] == "placeholder" and n["meta"]["dtype"] == "bool"}
    taint = set()
    for n in g.nodes:
        if n["op"] != "call_function":
            continue
        t = n["target"]
        if t.startswith(BOOL_MAKERS):
            boolish.add(n["name"])
        refs = set(_refs([n["args"], n["kwargs"]]))
        src = t in DD_TARGETS or (t in ("aten.index.Tensor", "aten.index_put.default")
                                  and set(_refs(n["args"][1])) & boolish)
        if src or refs & taint:
            taint.add(n["name"])
    return taint


_run_example = ev.run_example


def run_example(g, inputs, seed):
    """ev.run_example, with a failure at a node that depends on tensor contents (a
    data-dependent size, an item() value) classified as a "value" error (FORMAT.md)."""
    ex = _run_example(g, inputs, seed)
    if not ex["ok"]:
        taint = tainted_nodes(g)
        node = next(n for n in g.nodes if n["name"] == ex["error_node"])
        # inputs with content-dependent sizes/values (an op's own checks on plain inputs, e.g.
        # item() of a multi-element tensor or mismatched repeats, follow from sizes alone)
        if set(_refs([node["args"], node["kwargs"]])) & taint:
            ex["error_kind"] = "value"
    return ex


ev.run_example = run_example


def finish(g, example_inputs):
    ev.OUT = OUT
    path = ev.finish(g, example_inputs)
    with open(path) as f:
        doc = json.load(f)
    doc["name"] = "diff_dd." + g.name
    doc["producer"]["tool"] = "differential generator (scripts/differential/gen_data_dependent.py)"
    with open(path, "w") as f:
        f.write(json.dumps(doc, separators=(",", ":")))
    return path


def gi(g, t, i):
    return g("operator.getitem", t, i)


def sz(g, t, d):
    return g("aten.sym_size.int", t, d)


BN = [[1, 1], [2, 5], [3, 4], [4, 1], [1, 7], [5, 3]]


def g_nonzero():
    dyn = {"x": ["b", "n"], "m": ["b", "n"], "v": ["n"]}
    g = Graph("nonzero_mask", dyn, dims("b", "n"))
    x, m, v = g.ph("x", rank=2), g.ph("m", "bool", 2), g.ph("v", rank=1)
    gt = g("aten.gt.Scalar", x, 0)
    nz = g("aten.nonzero.default", gt)
    aw = g("aten.argwhere.default", m)
    nzv = g("aten.nonzero.default", v)
    ms = g("aten.masked_select.default", x, gt)
    ms2 = g("aten.masked_select.default", x, g("aten.gt.Scalar", v, 0))  # broadcast mask
    ms3 = g("aten.masked_select.default", g("aten.transpose.int", x, 0, 1), g("aten.transpose.int", m, 0, 1))
    wh = g("aten.where.default", m)
    w0, w1 = gi(g, wh, 0), gi(g, wh, 1)
    k = sz(g, nz, 0)
    ar = g("aten.arange.default", k)
    vw = g("aten.view.default", ms, [-1, 1])
    xs = g("aten.index.Tensor", x, [w0, w1])
    tr = g("aten.t.default", nz)
    s2 = g("aten.add.Tensor", ms, 1.0)
    cat = g("aten.cat.default", [ms, ms2], 0)
    g.out(nz, aw, nzv, ms, ms2, ms3, w0, w1, ar, vw, xs, tr, s2, cat)
    return g, [{"x": s, "m": s, "v": [s[1]]} for s in BN]


def g_mask_index():
    dyn = {"x": ["b", "n", 3], "m": ["b", "n"], "m1": ["n"]}
    g = Graph("bool_mask_index", dyn, dims("b", "n"))
    x, m, m1 = g.ph("x", rank=3), g.ph("m", "bool", 2), g.ph("m1", "bool", 1)
    a = g("aten.index.Tensor", x, [m])
    b = g("aten.index.Tensor", x, [None, m1])
    c = g("aten.index.Tensor", g("aten.select.int", x, 2, 0), [m])
    gtm = g("aten.gt.Scalar", x, 0)
    d = g("aten.index.Tensor", x, [gtm])
    e = g("aten.index_put.default", x, [m], g("aten.scalar_tensor.default", 1.0), False)
    f = g("aten.index_put.default", x, [m], g("aten.full.default", [3], 2.0), True)
    h = g("aten.index_put.default", x, [gtm], g("aten.scalar_tensor.default", 0.0), False)
    i = g("aten.index_put.default", x, [None, m1], g("aten.scalar_tensor.default", 5.0), False)
    j = g("aten.index.Tensor", g("aten.permute.default", x, [2, 0, 1]), [None, m])
    k = g("aten.index_put.default", x, [m], a, False)
    g.out(a, b, c, d, e, f, h, i, j, k)
    return g, [{"x": s + [3], "m": s, "m1": [s[1]]} for s in BN]


def g_unique():
    dyn = {"i": ["n"], "j": ["b", 3]}
    g = Graph("unique_family", dyn, dims("n", "b"))
    i = g.ph("i", "int64", 1, rng=(0, 5))
    j = g.ph("j", "int64", 2, rng=(0, 2))
    outs = []
    for srt, inv, cnt in ((True, False, False), (True, True, True), (False, True, False), (True, False, True)):
        u = g("aten._unique2.default", i, srt, inv, cnt)
        outs += [gi(g, u, 0), gi(g, u, 1), gi(g, u, 2)]
    u1 = g("aten._unique.default", i, True, True)
    outs += [gi(g, u1, 0), gi(g, u1, 1)]
    uc = g("aten.unique_consecutive.default", i, True, True, None)
    outs += [gi(g, uc, 0), gi(g, uc, 1), gi(g, uc, 2)]
    uc2 = g("aten.unique_consecutive.default", j, False, True, 0)
    outs += [gi(g, uc2, 0), gi(g, uc2, 1), gi(g, uc2, 2)]
    ud = g("aten.unique_dim.default", j, 0, True, True, True)
    outs += [gi(g, ud, 0), gi(g, ud, 1), gi(g, ud, 2)]
    ud1 = g("aten.unique_dim.default", j, 1, True, False, True)
    outs += [gi(g, ud1, 0), gi(g, ud1, 1), gi(g, ud1, 2)]
    u2d = g("aten._unique2.default", j, True, True, True)
    outs += [gi(g, u2d, 0), gi(g, u2d, 1), gi(g, u2d, 2)]
    udc = g("aten.unique_dim_consecutive.default", j, 0, True, True)
    outs += [gi(g, udc, 0), gi(g, udc, 1), gi(g, udc, 2)]
    k = sz(g, outs[0], 0)
    outs.append(g("aten.new_zeros.default", i, [k, 2]))
    g.out(*outs)
    ex = [{"i": [n], "j": [b, 3]} for n, b in ((1, 1), (5, 2), (8, 4), (3, 7), (12, 3), (2, 5))]
    return g, ex


def g_repeat_interleave():
    dyn = {"x": ["n", 4], "r": ["n"]}
    g = Graph("repeat_interleave", dyn, dims("n"))
    x = g.ph("x", rank=2)
    r = g.ph("r", "int64", 1, rng=(0, 4))
    a = g("aten.repeat_interleave.self_Tensor", x, r, 0)
    b = g("aten.repeat_interleave.Tensor", r)
    tot = g("aten._local_scalar_dense.default", g("aten.sum.default", r))
    c = g("aten.repeat_interleave.Tensor", r, output_size=tot)
    d = g("aten.repeat_interleave.self_Tensor", x, r, 0, output_size=tot)
    e = g("aten.repeat_interleave.self_int", x, 2, 1)
    f = g("aten.repeat_interleave.self_int", x, 3, None)
    h = g("aten.repeat_interleave.self_Tensor", g("aten.select.int", x, 1, 0), r, None)
    k = g("aten.index_select.default", x, 0, b)
    sa = sz(g, a, 0)
    eq = g("operator.eq", sa, tot)
    g.out(a, b, tot, c, d, e, f, h, k, sa, eq)
    return g, [{"x": [n, 4], "r": [n]} for n in (1, 2, 5, 8, 3)]


def g_bincount():
    dyn = {"i": ["n"], "w": ["n"]}
    g = Graph("bincount_onehot", dyn, dims("n"))
    i = g.ph("i", "int64", 1, rng=(0, 6))
    w = g.ph("w", rank=1)
    outs = [g("aten.bincount.default", i, None, 0), g("aten.bincount.default", i, w, 0),
            g("aten.bincount.default", i, None, 10), g("aten.bincount.default", i, None, 3),
            g("aten.one_hot.default", i, -1), g("aten.one_hot.default", i, 8),
            g("aten.one_hot.default", g("aten.view.default", i, [1, -1]), -1)]
    g.out(*outs)
    return g, [{"i": [n], "w": [n]} for n in (1, 2, 6, 9, 20)]


def g_item_sizes():
    dyn = {"x": ["b", "n"], "t": [3]}
    g = Graph("item_sizes", dyn, dims("b", "n", lo=4))
    x = g.ph("x", rank=2)
    t = g.ph("t", "int64", 1, rng=(0, 4))
    v = g("aten._local_scalar_dense.default", g("aten.select.int", t, 0, 0))
    w = g("aten.item.default", g("aten.select.int", t, 0, 1))
    outs = [v, w,
            g("aten.full.default", [v], 1.0),
            g("aten.full.default", [v, w], 0, dtype=Dtype("int64")),
            g("aten.new_zeros.default", x, [g("operator.add", v, 1), sz(g, x, 0)]),
            g("aten.arange.default", g("operator.mul", w, 2)),
            g("aten.zeros.default", [g("operator.add", v, w)]),
            g("aten.expand.default", g("aten.full.default", [1, 1], 3.0), [g("operator.add", v, 2), sz(g, x, 1)])]
    s = g("aten.sum.default", g("aten.gt.Scalar", x, 0))
    cnt = g("aten.item.default", s)
    outs += [cnt, g("aten.ones.default", [cnt, 2])]
    g.out(*outs)
    return g, [{"x": s, "t": [3]} for s in ([4, 4], [5, 6], [7, 4], [4, 9])]


def g_item_slices():
    dyn = {"x": ["b", "n"], "t": [3]}
    g = Graph("item_slices", dyn, dims("b", "n", lo=4))
    x = g.ph("x", rank=2)
    t = g.ph("t", "int64", 1, rng=(0, 4))
    v = g("aten._local_scalar_dense.default", g("aten.select.int", t, 0, 0))
    w = g("aten.item.default", g("aten.select.int", t, 0, 1))
    outs = [v, w, g("aten.slice.Tensor", x, 1, 0, v, 1), g("aten.slice.Tensor", x, 0, w, INT64_MAX, 1),
            g("aten.narrow.default", x, 1, v, 1)]
    g.out(*outs)
    return g, [{"x": s, "t": [3]} for s in ([4, 4], [5, 6], [7, 4], [4, 9])]


def g_sort_ops():
    dyn = {"x": ["b", "n"]}
    g = Graph("sort_family", dyn, dims("b", "n"))
    x = g.ph("x", rank=2)
    xt = g("aten.t.default", x)
    n = sz(g, x, 1)
    half = g("operator.floordiv", n, 2)
    outs = []
    for src in (x, xt):
        tk = g("aten.topk.default", src, 1, -1, True, True)
        tk2 = g("aten.topk.default", src, 1, 0, False, False)
        so = g("aten.sort.default", src, -1, False)
        ss = g("aten.sort.stable", src, stable=True, dim=0, descending=True)
        kv = g("aten.kthvalue.default", src, 1, -1, True)
        kv2 = g("aten.kthvalue.default", src, 1, 0, False)
        cm = g("aten.cummax.default", src, 0)
        cn = g("aten.cummin.default", src, 1)
        outs += [gi(g, tk, 0), gi(g, tk, 1), gi(g, tk2, 0), gi(g, so, 0), gi(g, so, 1), gi(g, ss, 0),
                 gi(g, ss, 1), gi(g, kv, 0), gi(g, kv, 1), gi(g, kv2, 1), gi(g, cm, 0), gi(g, cm, 1),
                 gi(g, cn, 1),
                 g("aten.argsort.default", src, 0, True), g("aten.argsort.stable", src, stable=True),
                 g("aten.cumsum.default", src, 1), g("aten.cumsum.default", src, 0, dtype=Dtype("float64")),
                 g("aten.cumprod.default", src, 1), g("aten.msort.default", src)]
    tkh = g("aten.topk.default", x, half, 1, True, True)
    kvn = g("aten.kthvalue.default", x, n, 1, False)
    outs += [gi(g, tkh, 0), gi(g, tkh, 1), gi(g, kvn, 0)]
    outs.append(g("aten.cumsum.default", g("aten.gt.Scalar", x, 0), 1))
    outs.append(g("aten.cumsum.default", g("aten.to.dtype", x, Dtype("int32"), False, False, None), 0))
    g.out(*outs)
    return g, [[1, 1], [2, 5], [3, 4], [4, 1], [1, 7], [6, 2], [3, 3]]


def g_sym_arith():
    dyn = {"x": ["b", "n"]}
    g = Graph("sym_arith", dyn, dims("b", "n"))
    x = g.ph("x", rank=2)
    b, n = sz(g, x, 0), sz(g, x, 1)
    half = g("operator.floordiv", n, 2)
    rem = g("operator.mod", n, 2)
    prod = g("operator.mul", b, n)
    s = g("operator.add", half, rem)
    d = g("operator.sub", n, half)
    ng = g("operator.neg", half)
    e = g("operator.eq", b, n)
    lt = g("operator.lt", b, n)
    td = g("operator.truediv", n, 2)
    num = g("aten.sym_numel.default", x)
    outs = [half, rem, prod, s, d, ng, e, lt, td, num,
            g("aten.view.default", x, [prod]),
            g("aten.view.default", x, [num]),
            g("aten.reshape.default", x, [g("operator.mul", b, s), -1]) if False else
            g("aten.reshape.default", x, [n, b]),
            g("aten.reshape.default", g("aten.cat.default", [x, x], 1), [b, 2, n]),
            g("aten.arange.default", n),
            g("aten.arange.start", half, n),
            g("aten.arange.start_step", 0, n, 2),
            g("aten.arange.start_step", 0, td, 0.5),
            g("aten.arange.start_step", 0.0, n, 1),
            g("aten.arange.start_step", b, prod, b),
            g("aten.arange.default", td),
            g("aten.expand.default", g("aten.unsqueeze.default", x, 0), [g("operator.add", b, 1), -1, -1]),
            g("aten.slice.Tensor", x, 1, 0, ng, 1),
            g("aten.slice.Tensor", x, 1, half, INT64_MAX, 1),
            g("aten.new_zeros.default", x, [g("operator.floordiv", prod, n), g("operator.mod", prod, 3)]),
            g("aten.full.default", [g("operator.sub", g("operator.mul", n, 2), 1)], 1.0)]
    sp = g("aten.split.Tensor", x, g("operator.add", half, 1), 1)
    outs += [gi(g, sp, 0), gi(g, sp, 1) if False else gi(g, sp, 0)]
    sw = g("aten.split_with_sizes.default", x, [half, d], 1)
    outs += [gi(g, sw, 0), gi(g, sw, 1)]
    ch = g("aten.chunk.default", x, 2, 1)
    outs.append(gi(g, ch, 0))
    cb = g("aten.chunk.default", g("aten.cat.default", [x, x], 0), 2, 0)
    outs += [gi(g, cb, 0), gi(g, cb, 1)]
    ub = g("aten.unbind.int", g("aten.slice.Tensor", x, 1, 0, 2, 1), 1)
    outs.append(gi(g, ub, 0))
    g.out(*outs)
    return g, [[1, 1], [2, 5], [3, 4], [4, 1], [1, 7], [6, 6], [3, 8]]


def g_sym_arith_errors():
    dyn = {"x": ["b", "n"]}
    g = Graph("sym_arith_errors", dyn, dims("b", "n"))
    x = g.ph("x", rank=2)
    b, n = sz(g, x, 0), sz(g, x, 1)
    half = g("operator.floordiv", n, 2)
    v = g("aten.view.default", x, [b, half, 2])
    sp = g("aten.split_with_sizes.default", x, [half, half], 1)
    g.out(v, gi(g, sp, 0))
    return g, [[2, 4], [3, 5], [1, 2], [2, 1], [4, 6]]


def small(name, build, inputs, dyn, dmap=None):
    """A one-purpose graph: build(g, phs) returns the outputs; inputs maps placeholder -> (dtype,
    rank, range); examples are size dicts."""
    def fn():
        g = Graph(name, dyn, dmap or dims(*sorted({d for v in dyn.values() for d in v if isinstance(d, str)})))
        phs = [g.ph(n, dt, rk, rng=rg) for n, (dt, rk, rg) in inputs.items()]
        g.out(*build(g, *phs))
        return g, EXS[name]
    return fn


EXS = {}
F2 = {"x": ("float32", 2, None)}
D2 = {"x": ["b", "n"]}
EX2 = [{"x": s} for s in BN]


def _misc(name, build, inputs=F2, dyn=D2, ex=EX2, dmap=None):
    EXS[name] = ex
    return small(name, build, inputs, dyn, dmap)


def _ms(g, x):
    return g("aten.masked_select.default", x, g("aten.gt.Scalar", x, 0))


MISC = [
    _misc("nonzero_0d", lambda g, x: [g("aten.nonzero.default", g("aten.sum.default", x)),
                                      g("aten.argwhere.default", g("aten.sum.default", x))]),
    _misc("nonzero_3d", lambda g, x: [g("aten.nonzero.default", x), g("aten.argwhere.default", x),
                                      g("operator.getitem", g("aten.where.default", x), 2)],
          {"x": ("float32", 3, None)}, {"x": ["b", "n", 2]}, [{"x": s + [2]} for s in BN]),
    _misc("unbacked_len_ops", lambda g, x: [
        g("aten.sort.default", _ms(g, x), -1, False), g("aten.cumsum.default", _ms(g, x), 0),
        g("aten.view.default", g("aten.clone.default", g("aten.nonzero.default", x), memory_format=ev.Mem("contiguous_format")),
          [g("operator.mul", sz(g, g("aten.nonzero.default", x), 0), 2)]),
        g("aten.expand.default", g("aten.unsqueeze.default", _ms(g, x), 0), [3, -1]),
        g("aten.arange.default", sz(g, _ms(g, x), 0)),
        g("aten.new_zeros.default", x, [g("operator.add", sz(g, _ms(g, x), 0), 1)]),
        g("aten.mul.Tensor", _ms(g, x), _ms(g, x))]),
    _misc("item_float_bool", lambda g, x: [
        g("aten.item.default", g("aten.sum.default", x)),
        g("aten._local_scalar_dense.default", g("aten.gt.Scalar", g("aten.sum.default", x), 100.0))]),
    _misc("item_arith", lambda g, x, t: (lambda v: [
        v, g("operator.floordiv", v, 2), g("operator.mod", v, 3),
        g("aten.full.default", [g("operator.add", g("operator.floordiv", v, 2), 1)], 0.5),
        g("aten.zeros.default", [g("operator.mul", v, sz(g, x, 0))]),
        g("aten.arange.start_step", 0, g("operator.add", v, 1), 2)])(
            g("aten.item.default", g("aten.select.int", t, 0, 0))),
        {"x": ("float32", 2, None), "t": ("int64", 1, (0, 6))}, {"x": ["b", "n"], "t": [2]},
        [{"x": s, "t": [2]} for s in BN]),
    _misc("unique_float_bool", lambda g, x: [
        g("operator.getitem", g("aten._unique2.default", g("aten.round.default", x), True, True, True), 0),
        g("operator.getitem", g("aten._unique2.default", g("aten.gt.Scalar", x, 0), True, False, True), 2),
        g("operator.getitem", g("aten.unique_dim.default", g("aten.gt.Scalar", x, 0), 1, True, True, True), 0)]),
    _misc("repeat_interleave_bcast", lambda g, x, r: [
        g("aten.repeat_interleave.self_Tensor", x, r, 1),
        g("aten.repeat_interleave.self_Tensor", x, r, None)],
        {"x": ("float32", 2, None), "r": ("int64", 1, (0, 4))}, {"x": ["b", "n"], "r": [1]},
        [{"x": s, "r": [1]} for s in BN]),
    _misc("mask_index_mixed", lambda g, x, m, i: [
        g("aten.index.Tensor", x, [m, i]),
        g("aten.index.Tensor", x, [m, None, i]) if False else g("aten.index.Tensor", x, [None, g("aten.gt.Scalar", g("aten.select.int", x, 0, 0), 0)])],
        {"x": ("float32", 2, None), "m": ("bool", 1, None), "i": ("int64", 1, (0, 1))},
        {"x": ["b", "n"], "m": ["b"], "i": [1]}, [{"x": s, "m": [s[0]], "i": [1]} for s in BN]),
    _misc("topk_item_k", lambda g, x, t: [
        g("operator.getitem", g("aten.topk.default", x, g("aten.item.default", g("aten.select.int", t, 0, 0)), 1, True, True), 0)],
        {"x": ("float32", 2, None), "t": ("int64", 1, (0, 3))}, {"x": ["b", "n"], "t": [1]},
        [{"x": s, "t": [1]} for s in ([2, 3], [1, 4], [3, 5])], dims("b", "n", lo=3) | dims("b")),
    _misc("sort_layouts", lambda g, x: (lambda cl, ex: [
        g("operator.getitem", g("aten.sort.default", cl, 1, False), 0),
        g("operator.getitem", g("aten.sort.default", cl, -1, True), 1),
        g("aten.argsort.default", cl, 2, False), g("aten.msort.default", cl),
        g("operator.getitem", g("aten.sort.default", ex, 0, False), 0),
        g("aten.argsort.default", ex, -1, False),
        g("operator.getitem", g("aten.topk.default", cl, 1, 1, True, True), 0),
        g("operator.getitem", g("aten.topk.default", ex, 1, -1, True, True), 1),
        g("operator.getitem", g("aten.kthvalue.default", cl, 1, 1, True), 0),
        g("operator.getitem", g("aten.cummax.default", cl, 1), 1),
        g("aten.cumsum.default", cl, 1), g("aten.cumsum.default", ex, 0),
        g("operator.getitem", g("aten.sort.default", g("aten.slice.Tensor", x, 3, 0, INT64_MAX, 2), -1, False), 0)])(
            g("aten.contiguous.default", x, memory_format=ev.Mem("channels_last")),
            g("aten.expand.default", g("aten.slice.Tensor", x, 1, 0, 1, 1), [-1, 3, -1, -1])),
        {"x": ("float32", 4, None)}, {"x": ["b", 3, "h", "w"]}, [{"x": s} for s in ev.NCHW]),
    _misc("sym_arith_more", lambda g, x: (lambda b, n: [
        g("operator.floordiv", g("operator.neg", n), 3), g("operator.mod", g("operator.sub", b, n), 3),
        g("operator.gt", n, 2), g("operator.ge", b, n), g("operator.ne", b, 1), g("operator.le", n, b),
        g("operator.truediv", g("operator.mul", b, n), 4),
        g("aten.arange.start_step", 0.0, g("operator.truediv", n, 3), 0.25),
        g("aten.arange.start_step", g("operator.neg", n), n, g("operator.add", b, 1)),
        g("operator.getitem", g("aten.chunk.default", x, g("operator.add", g("operator.floordiv", n, 2), 1), 1), 0),
        g("aten.slice.Tensor", x, 1, g("operator.sub", 1, n), g("operator.sub", n, 1), 1),
        g("aten.view.default", x, [g("operator.mul", b, n), 1, -1]),
        g("aten.expand.default", g("aten.view.default", x, [b, n, 1]), [-1, -1, g("operator.mul", b, 2)]),
        g("aten.repeat.default", x, [1, g("operator.add", b, 1)]),
        g("aten.new_ones.default", x, [g("aten.sym_numel.default", x), g("operator.mod", n, 4)])])(
            sz(g, x, 0), sz(g, x, 1))),
    _misc("mask_index_layouts", lambda g, x, m, c: (lambda cl: [
        g("aten.index.Tensor", cl, [m]), g("aten.index.Tensor", cl, [None, c]),
        g("aten.index.Tensor", cl, [g("aten.gt.Scalar", cl, 0)]),
        g("aten.nonzero.default", cl), g("aten.masked_select.default", cl, g("aten.gt.Scalar", x, 0)),
        g("aten.masked_select.default", cl, g("aten.view.default", c, [1, 3, 1, 1])),
        g("aten.index_put.default", cl, [m], g("aten.scalar_tensor.default", 1.0), False),
        g("aten.index_put.default", cl, [None, c], g("aten.scalar_tensor.default", 1.0), True),
        g("aten.index_put.default", x, [m], g("aten.mul.Tensor", g("aten.index.Tensor", x, [m]), 2.0), False),
        g("aten.index.Tensor", g("aten.transpose.int", cl, 2, 3), [None, c, None, g("aten.arange.default", 1)])])(
            g("aten.contiguous.default", x, memory_format=ev.Mem("channels_last"))),
        {"x": ("float32", 4, None), "m": ("bool", 2, None), "c": ("bool", 1, None)},
        {"x": ["b", 3, "h", "w"], "m": ["b", 3], "c": [3]},
        [{"x": s, "m": [s[0], 3], "c": [3]} for s in ev.NCHW]),
    _misc("item_scalars", lambda g, x, t: (lambda v, f: [
        g("aten.full.default", [2], v), g("aten.scalar_tensor.default", v),
        g("aten.mul.Tensor", x, v), g("aten.add.Tensor", t, v), g("aten.mul.Tensor", t, f),
        g("aten.new_full.default", x, [v], v), g("operator.lt", v, 2), g("operator.eq", v, 0),
        g("aten.bincount.default", t, None, sz(g, x, 1)),
        g("aten.one_hot.default", t, sz(g, x, 1)),
        g("operator.mul", f, 2.0)])(
            g("aten.item.default", g("aten.select.int", t, 0, 0)), g("aten.item.default", g("aten.sum.default", x))),
        {"x": ("float32", 2, None), "t": ("int64", 1, (0, 3))}, {"x": ["b", "n"], "t": ["k"]},
        [{"x": s, "t": [k]} for s, k in (([2, 3], 1), ([1, 4], 3), ([3, 5], 2), ([2, 7], 6))],
        dims("b", "k") | dims("n", lo=3)),
    _misc("unbacked_reduce", lambda g, x: (lambda ms, nz: [
        g("aten.sum.dim_IntList", ms, [0], False), g("aten.mean.default", ms),
        g("aten.sum.dim_IntList", nz, [0], True), g("aten.sum.dim_IntList", nz, [1], False),
        g("operator.getitem", g("aten.max.dim", nz, 1, False), 0),
        g("aten.softmax.int", ms, 0, None),
        g("aten.cat.default", [ms, g("aten.view.default", x, [-1])], 0),
        g("aten.stack.default", [ms, ms], 1),
        g("aten.unsqueeze.default", ms, 1), g("aten.flip.default", ms, [0]),
        g("aten.index_select.default", x, 1, g("operator.getitem", g("aten.where.default", g("aten.gt.Scalar", g("aten.select.int", x, 0, 0), 0)), 0)),
        g("aten.embedding.default", g("aten.view.default", x, [-1, 1]) if False else g("aten.t.default", x), nz, -1, False, False)])(
            _ms(g, x), g("aten.nonzero.default", g("aten.gt.Scalar", x, 0))),
        F2, D2, [{"x": [s, s]} for s in (1, 2, 3, 5)]),
    _misc("square_input", lambda g, x, y: [
        g("aten.add.Tensor", x, g("aten.t.default", x)), g("aten.mm.default", x, x),
        g("aten.nonzero.default", g("aten.gt.Scalar", g("aten.add.Tensor", x, g("aten.t.default", x)), 0)),
        g("aten.view.default", x, [g("operator.mul", sz(g, x, 0), sz(g, x, 1))]),
        g("aten.add.Tensor", g("aten.unsqueeze.default", x, 0), y)],
        {"x": ("float32", 2, None), "y": ("float32", 3, None)}, {"x": ["n", "n"], "y": ["b", "n", "n"]},
        [{"x": [n, n], "y": [b, n, n]} for b, n in ((1, 1), (2, 3), (3, 5), (2, 2))]
        + [{"x": [2, 3], "y": [1, 2, 3]}, {"x": [3, 3], "y": [2, 3, 4]}]),
    _misc("zero_numel_and_0d", lambda g, x, z, r: [
        g("aten.nonzero.default", x), g("aten.masked_select.default", x, g("aten.gt.Scalar", x, 0)),
        g("aten.index.Tensor", x, [g("aten.gt.Scalar", x, 0)]),
        g("operator.getitem", g("aten._unique2.default", x, True, True, True), 0),
        # (z[0-dim True mask] hits "ntensor >= 3 INTERNAL ASSERT" in 1.13 eager: not generated)
        g("aten.masked_select.default", g("aten.sum.default", z), g("aten.gt.Scalar", g("aten.sum.default", z), 0.0)),
        g("aten.repeat_interleave.self_Tensor", z, r, 0),
        g("operator.getitem", g("aten._unique2.default", g("aten.sum.default", z), True, True, True), 1),
        g("aten.argsort.default", g("aten.sum.default", z), -1, False),
        g("operator.getitem", g("aten.topk.default", g("aten.sum.default", z), 1, -1, True, True), 0)],
        {"x": ("float32", 2, None), "z": ("float32", 1, None), "r": ("int64", 0, (0, 3))},
        {"x": ["b", 0], "z": ["n"], "r": []}, [{"x": [b, 0], "z": [n], "r": []} for b, n in ((1, 1), (3, 2), (2, 5))]),
    _misc("item_numel_check", lambda g, x: [g("aten.item.default", x)],
          {"x": ("float32", 1, None)}, {"x": ["n"]}, [{"x": [n]} for n in (1, 2, 3, 1)]),
    _misc("kthvalue_topk_oob", lambda g, x: [
        g("operator.getitem", g("aten.kthvalue.default", x, g("operator.add", sz(g, x, 0), 1), 0, False), 0)],
          F2, D2, [{"x": s} for s in BN[:3]]),
    _misc("topk_oob", lambda g, x: [
        g("operator.getitem", g("aten.topk.default", x, g("operator.add", sz(g, x, 1), 1), 1, True, True), 1)],
          F2, D2, [{"x": s} for s in BN[:3]]),
    _misc("repeat_interleave_len_mismatch", lambda g, x, r: [g("aten.repeat_interleave.self_Tensor", x, r, 0)],
          {"x": ("float32", 2, None), "r": ("int64", 1, (0, 3))}, {"x": ["b", "n"], "r": ["k"]},
          [{"x": [b, 2], "r": [k]} for b, k in ((2, 2), (3, 2), (1, 4), (4, 4))]),
    _misc("dd_dtypes_edges", lambda g, i, w: [
        g("aten.bincount.default", i, g("aten.to.dtype", w, Dtype("int64"), False, False, None), 0),
        g("aten.bincount.default", i, g("aten.to.dtype", w, Dtype("float64"), False, False, None), 2),
        g("aten.bincount.default", i, g("aten.to.dtype", w, Dtype("float16"), False, False, None), 0) if False else
        g("aten.bincount.default", g("aten.to.dtype", i, Dtype("int32"), False, False, None), None, 0),
        g("aten.one_hot.default", g("aten.select.int", i, 0, 0), 4),
        g("aten.one_hot.default", g("aten.select.int", i, 0, 0), -1),
        g("aten.nonzero.default", i), g("aten.nonzero.default", g("aten.to.dtype", i, Dtype("uint8"), False, False, None)),
        g("aten.where.default", g("aten.sum.default", i)),
        g("aten.where.default", g("aten.view.default", i, [1, -1, 1])),
        g("aten.index_put.default", g("aten.new_zeros.default", w, [sz(g, w, 0), 3]), [g("aten.gt.Scalar", w, 0)],
          g("aten.ones.default", [3]), True),
        g("aten.masked_select.default", g("aten.view.default", w, [-1, 1]), g("aten.gt.Scalar", w, 0)),
        g("aten.unique_consecutive.default", g("aten.view.default", i, [1, -1, 1]), True, True, -2),
        g("aten.unique_dim.default", g("aten.view.default", i, [1, -1, 1]), -2, True, True, True)],
        {"i": ("int64", 1, (0, 3)), "w": ("float32", 1, None)}, {"i": ["n"], "w": ["n"]},
        [{"i": [n], "w": [n]} for n in (1, 2, 4, 9)]),
    _misc("nonzero_model_patterns", lambda g, x, v, m: (lambda nz1, xm: [
        g("aten.index_select.default", x, 0, g("aten.squeeze.dim", nz1, 1)),
        g("aten.view.default", xm, [-1, 3]), g("aten.reshape.default", xm, [-1]),
        g("aten.sum.dim_IntList", xm, [0], False),
        g("aten.cat.default", [g("aten.view.default", xm, [-1, 3]), g("aten.view.default", x, [-1, 3])], 0),
        g("aten.view.default", g("aten.repeat_interleave.self_Tensor", x, g("aten.to.dtype", m, Dtype("int64"), False, False, None), 0), [-1]),
        g("aten.transpose.int", g("aten.nonzero.default", x), 0, 1),
        g("aten.contiguous.default", g("aten.nonzero.default", x)),
        g("aten.select.int", g("aten.nonzero.default", x), 1, 0),
        g("aten.index.Tensor", v, [g("aten.select.int", g("aten.nonzero.default", x), 1, 0)]),
        g("aten.expand.default", g("aten.unsqueeze.default", g("aten.squeeze.dim", nz1, 1), 1), [-1, 3])])(
            g("aten.nonzero.default", g("aten.gt.Scalar", v, 0)), g("aten.index.Tensor", x, [m])),
        {"x": ("float32", 3, None), "v": ("float32", 1, None), "m": ("bool", 1, None)},
        {"x": ["n", "n", 3], "v": ["n"], "m": ["n"]},
        # (n = 1 left out: x[m] with an empty mask and a size-1 dim after it gets stride 0 there in
        # eager — TensorIterator orders the 0-size dim first — the engine keeps size-oblivious strides)
        [{"x": [n, n, 3], "v": [n], "m": [n]} for n in (2, 3, 4, 7)]),
    _misc("repeat_interleave_sym", lambda g, x, t: (lambda n, v: [
        g("aten.repeat_interleave.self_int", x, n, 0),
        g("aten.repeat_interleave.self_int", x, n, 1, output_size=g("operator.mul", n, n)),
        g("aten.repeat_interleave.self_int", x, v, 0), g("aten.repeat_interleave.self_int", x, v, None),
        g("aten.repeat_interleave.self_Tensor", x, g("aten.full.default", [n], 2, dtype=Dtype("int64")), 1),
        g("aten.repeat_interleave.Tensor", t)])(
            sz(g, x, 1), g("aten.item.default", g("aten.select.int", t, 0, 0))),
        {"x": ("float32", 2, None), "t": ("int64", 1, (0, 3))}, {"x": ["b", "n"], "t": ["k"]},
        [{"x": s, "t": [k]} for s, k in (([1, 1], 1), ([2, 3], 2), ([3, 2], 4), ([4, 5], 3))]),
    _misc("sort_edges", lambda g, x: (lambda z: [
        g("operator.getitem", g("aten.sort.stable", x, stable=False, dim=1, descending=False), 0),
        g("aten.argsort.stable", x, stable=True, dim=0, descending=True),
        g("operator.getitem", g("aten.kthvalue.default", x, 1, -2, True), 1),
        g("operator.getitem", g("aten.topk.default", z, 0, -1, True, True), 0),
        g("operator.getitem", g("aten.kthvalue.default", z, 1, 0, True), 0),
        g("operator.getitem", g("aten.sort.default", z, 0, False), 1),
        g("operator.getitem", g("aten.cummax.default", z, 0), 1),
        g("aten.cumsum.default", z, -1), g("aten.msort.default", z),
        g("operator.getitem", g("aten.topk.default", g("aten.permute.default", x, [2, 0, 1]), 1, 0, False, True), 1),
        g("operator.getitem", g("aten.kthvalue.default", g("aten.permute.default", x, [2, 0, 1]), 1, 1, False), 0),
        g("aten.cumsum.default", g("aten.permute.default", x, [2, 0, 1]), 2),
        g("operator.getitem", g("aten.cummin.default", g("aten.permute.default", x, [2, 0, 1]), 0), 0)])(
            g("aten.sum.default", x)),
        {"x": ("float32", 3, None)}, {"x": ["b", "n", 2]}, [{"x": s + [2]} for s in BN]),
    _misc("unique_edges", lambda g, j, t: (lambda v: [
        g("operator.getitem", g("aten._unique2.default", g("aten.select.int", g("aten.select.int", j, 0, 0), 0, 0), True, True, True), 1),
        g("operator.getitem", g("aten.unique_dim.default", j, 1, True, True, False), 1),
        g("operator.getitem", g("aten.unique_dim.default", j, -1, False, True, True), 2),
        g("operator.getitem", g("aten.unique_consecutive.default", j, True, False, None), 1),
        g("operator.getitem", g("aten.unique_dim_consecutive.default", j, 2, True, True), 0),
        g("operator.truediv", v, 2), g("operator.floordiv", v, sz(g, j, 0)), g("operator.mod", v, 2),
        g("operator.eq", v, sz(g, j, 0)), g("operator.lt", sz(g, j, 0), v), g("operator.neg", v),
        g("operator.sub", sz(g, j, 1), v)])(g("aten.item.default", g("aten.select.int", t, 0, 0))),
        {"j": ("int64", 3, (0, 2)), "t": ("int64", 1, (-3, 4))}, {"j": ["b", "n", 2], "t": [1]},
        [{"j": s + [2], "t": [1]} for s in BN]),
    _misc("unbacked_consumers", lambda g, x, m: (lambda xm: [
        g("operator.getitem", g("aten.topk.default", xm, 1, 0, True, True), 0),
        g("operator.getitem", g("aten.kthvalue.default", xm, 1, 0, False), 1),
        g("aten.bmm.default", xm, g("aten.transpose.int", xm, 1, 2)),
        g("aten.linear.default", xm, g("aten.new_ones.default", x, [4, 3]), None),
        g("aten.gather.default", xm, 2, g("aten.new_zeros.default", xm, [sz(g, xm, 0), 2, 1], dtype=Dtype("int64"))),
        g("aten.layer_norm.default", xm, [3], None, None, 1e-05, True),
        g("aten.permute.default", xm, [2, 0, 1]), g("aten.flatten.using_ints", xm, 0, 1),
        g("aten.sum.dim_IntList", xm, [1, 2], False)])(g("aten.index.Tensor", x, [m])),
        {"x": ("float32", 3, None), "m": ("bool", 1, None)}, {"x": ["b", 2, 3], "m": ["b"]},
        [{"x": [b, 2, 3], "m": [b]} for b in (3, 6, 9)]),
    _misc("unbacked_chains", lambda g, x, r: (lambda ms, rr: [
        g("aten.nonzero.default", g("aten.gt.Scalar", ms, 0.5)),
        g("aten.masked_select.default", ms, g("aten.lt.Scalar", ms, 1.0)),
        g("aten.bincount.default", rr, None, 0),
        g("operator.getitem", g("aten._unique2.default", rr, True, False, True), 2),
        g("aten.cat.default", [ms, g("aten.to.dtype", rr, Dtype("float32"), False, False, None)], 0),
        g("aten.full.default", [g("operator.add", sz(g, ms, 0), sz(g, rr, 0))], 0.0),
        g("operator.eq", sz(g, ms, 0), sz(g, rr, 0)),
        g("aten.arange.default", g("operator.mul", sz(g, ms, 0), 2)),
        g("aten.nonzero.default", g("aten.view.default", ms, [1, -1])),
        g("aten.repeat_interleave.self_Tensor", ms, g("aten.ones_like.default", ms, dtype=Dtype("int64")), 0)])(
            _ms(g, x), g("aten.repeat_interleave.Tensor", r)),
        {"x": ("float32", 2, None), "r": ("int64", 1, (0, 3))}, D2 | {"r": ["k"]},
        [{"x": s, "r": [k]} for s, k in (([1, 1], 1), ([2, 5], 3), ([3, 4], 2), ([4, 3], 6))]),
    _misc("mask_assign", lambda g, x, y, m: [
        g("aten.index_put.default", x, [m], g("aten.index.Tensor", y, [m]), False),
        g("aten.index_put.default", x, [m], g("aten.index.Tensor", y, [m]), True),
        g("aten.index_put.default", g("aten.select.int", x, 2, 0), [m], g("aten.masked_select.default", g("aten.select.int", y, 2, 0), m), False)],
        {"x": ("float32", 3, None), "y": ("float32", 3, None), "m": ("bool", 2, None)},
        {"x": ["b", "n", 2], "y": ["b", "n", 2], "m": ["b", "n"]}, [{"x": s + [2], "y": s + [2], "m": s} for s in BN]),
    _misc("item_int_sizes_neg", lambda g, x, t: (lambda f, v: [
        f, g("aten.arange.start", v, 5), g("aten.full.default", [v], 1.0)])(
            g("aten.item.default", g("aten.mul.Tensor", g("aten.abs.default", g("aten.sum.default", x)), 3.0)),
            g("aten.item.default", g("aten.select.int", t, 0, 0))),
        {"x": ("float32", 2, None), "t": ("int64", 1, (-2, 4))}, {"x": ["b", "n"], "t": [1]},
        [{"x": s, "t": [1]} for s in BN]),
    _misc("one_hot_2d", lambda g, i: [g("aten.one_hot.default", i, -1), g("aten.one_hot.default", i, 5)],
          {"i": ("int64", 2, (0, 5))}, {"i": ["b", "n"]}, [{"i": s} for s in BN]),
]

# Slicing / narrow with an item()-valued (unbacked) start or end: PyTorch executes them, the
# engine's slice rule still guards on the sign (see docs/propagation.md); emitted only with --pending.
# Splitting an unbacked length into fixed-size chunks: the number of results is data-dependent.
# arange with an item()-valued float bound: the factory rule specialises the float (rejects).
PENDING = [g_item_slices, _misc("item_float_arange", lambda g, x: (lambda f: [
               g("aten.arange.default", f), g("aten.arange.start_step", 0, f, 0.5)])(
               g("aten.item.default", g("aten.mul.Tensor", g("aten.abs.default", g("aten.sum.default", x)), 3.0))),
               F2, D2, EX2), _misc("split_unbacked", lambda g, x: [g("operator.getitem", g("aten.split.Tensor", _ms(g, x), 2, 0), 0)],
                                F2, D2, [{"x": s} for s in ([4, 4], [5, 6])])]

# nonzero(v).view(-1) on a 1-D v ((u, 1) with strides (1, u)): 2.x's _view_unbacked_meta views
# it without a guard on u (is_contiguous_or_false), as torch_geometric's MFConv does.
NONZERO_VIEW = [_misc("nonzero_view_flat", lambda g, v: [
                    g("aten.view.default", g("aten.nonzero.default", v), [-1]),
                    g("aten.reshape.default", g("aten.nonzero.default", v), [-1])],
                    {"v": ("float32", 1, None)}, {"v": ["n"]}, [{"v": [n]} for n in (1, 2, 4, 7)])]

def g_empty_unbacked_layouts():
    # TensorIterator layouts over a data-dependent row count u: eager takes reorder_dimensions'
    # tie-break on the real size (a keepdim `(u, 1)` plus a scalar is `(1, 0)` at u == 0, `(1, 1)`
    # otherwise: transformers' higgs_audio_v2 RMSNorm over no audio tokens). Masks that select no
    # row, every row (u == 1 at a 1x1 input) and some rows.
    dyn = {"x": ["b", "n", 4]}
    g = Graph("empty_unbacked_layouts", dyn, dims("b", "n"))
    x = g.ph("x", rank=3)
    first = g("aten.select.int", x, 2, 0)
    outs = []
    for thr in (100.0, -100.0, 0.0):
        rows = g("aten.index.Tensor", x, [g("aten.gt.Scalar", first, thr)])      # (u, 4)
        mean = g("aten.mean.dim", g("aten.pow.Tensor_Scalar", rows, 2), [-1], True)  # (u, 1)
        eps = g("aten.add.Tensor", mean, 1e-05)
        outs += [rows, mean, eps, g("aten.rsqrt.default", eps), g("aten.mul.Tensor", mean, 2.0),
                 g("aten.add.Tensor", mean, mean), g("aten.mul.Tensor", rows, g("aten.rsqrt.default", eps)),
                 g("aten.add.Tensor", g("aten.t.default", mean), 1.0),
                 g("aten.add.Tensor", g("aten.unsqueeze.default", rows, 1), 1.0),
                 g("aten.where.ScalarOther", g("aten.gt.Scalar", mean, 1.0), mean, 0.0)]
    g.out(*outs)
    return g, [{"x": s + [4]} for s in BN]


GRAPHS = [g_nonzero, g_mask_index, g_unique, g_repeat_interleave, g_bincount, g_item_sizes,
          g_sort_ops, g_sym_arith, g_sym_arith_errors] + MISC + NONZERO_VIEW + [g_empty_unbacked_layouts]


def main():
    os.makedirs(OUT, exist_ok=True)
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for fn in GRAPHS + (PENDING if "--pending" in sys.argv else []):
        g, ex = fn()
        if only and g.name not in only:
            continue
        print(finish(g, ex))


if __name__ == "__main__":
    main()
