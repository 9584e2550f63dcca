#!/usr/bin/python3
"""Differential conformance graphs for einsum's output layout: random equations (one to three
operands, explicit and implicit outputs, ellipses, repeated labels, labels broadcast from size
1, an explicit contraction `path`) over inputs in random memory orders (a placeholder in a
permuted order, then `aten.permute`), with dynamic sizes whose examples include 1, plus the
Mamba-2 SSD contractions (transformers' falcon_h1 / NemotronH) whose 2.x layout found the rule.

Regenerate (run from anywhere; OUT_DIR defaults to data/differential/einsum):

    /usr/bin/python3 scripts/differential/gen_einsum.py [OUT_DIR]              # 1.13.1 goldens
    /opt/symshape-venv/bin/python scripts/differential/gen_einsum.py [OUT_DIR]  # 2.13 goldens
    /usr/bin/python3 scripts/differential/gen_einsum.py --diff [OUT_DIR]       # what differs

einsum's strides come from its ATen implementation (permute, sumproduct_pair's bmm, the view
and permutation back), and 2.x's sumproduct_pair swaps the two operands of the bmm when every
dim only the right one has comes before every dim only the left one has (docs/torchref.md,
"Eager layouts: 1.13 and 2.x"), so every graph is written twice: `<name>.graph.json` with
1.13.1 goldens and `<name>_2x.graph.json` with 2.x goldens; the engine picks the layout of the
graph's `producer.torch`. The graph builder and the golden recorder are gen_conv_pool_matmul.py's.
CI has no torch: the committed JSON is the test data (ctest conform_differential_einsum).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_conv_pool_matmul as base  # noqa: E402
import torch  # noqa: E402

V2 = not torch.__version__.startswith("1.")
SUFFIX = "_2x" if V2 else ""
GRAPHS = []
SEED = 20240611
COUNT = 48
PAIRS = 40
LETTERS = "abcdefgHIJ"


G = base.release_graph_class("gen_einsum.py", SUFFIX)


def graph(fn):
    GRAPHS.append(fn)
    return fn


def operand(g, name, dims, rnd, identity=False):
    """A placeholder holding `dims` in a random memory order, permuted back to `dims`' order."""
    order = list(range(len(dims)))
    if not identity:
        rnd.shuffle(order)
    g.dyn[name] = [dims[i] for i in order]
    x = g.ph(name)
    if order == sorted(order):
        return x
    inv = [order.index(i) for i in range(len(order))]
    return g.call("aten.permute.default", x, inv)


def random_case(rnd):
    """(equation, operand label lists with their sizes, path or None, symbols used)."""
    nlab = rnd.randint(2, 6)
    labels = rnd.sample(LETTERS, nlab)
    syms = ["batch", "seq"][:rnd.randint(1, 2)]
    size = {}
    for l in labels:
        r = rnd.random()
        size[l] = rnd.choice(syms) if r < 0.35 else (1 if r < 0.42 else rnd.randint(2, 5))
    nops = rnd.choice([1, 2, 2, 2, 3, 3])
    use_ell = rnd.random() < 0.2
    ell = [rnd.choice(syms + [1, 3]) for _ in range(rnd.randint(1, 2))] if use_ell else []
    # every label in a random non-empty set of operands (in each at a random place): labels
    # of both operands, of the left or the right one only, contracted or kept
    members = [[] for _ in range(nops)]
    for l in labels:
        for j in rnd.sample(range(nops), rnd.randint(1, nops)):
            members[j].append(l)
    ops = []
    for labs in members:
        if not labs:
            labs.append(rnd.choice(labels))
        rnd.shuffle(labs)
        if rnd.random() < 0.1:  # a repeated label: the diagonal
            labs.insert(rnd.randrange(len(labs) + 1), rnd.choice(labs))
        dims = []
        for l in labs:
            # a label broadcast from size 1 in this operand
            dims.append(1 if rnd.random() < 0.06 and labs.count(l) == 1 else size[l])
        op_ell = []
        if use_ell and rnd.random() < 0.8:
            n = rnd.randint(0, len(ell))
            op_ell = [e if rnd.random() < 0.8 else 1 for e in ell[len(ell) - n:]]
        ops.append((labs, dims, op_ell, use_ell and (op_ell or rnd.random() < 0.5)))
    used = sorted({l for labs, _, _, _ in ops for l in labs})
    if rnd.random() < 0.15:
        rhs = None
    else:
        out = [l for l in used if rnd.random() < 0.6]
        rnd.shuffle(out)
        rhs = "".join(out)
        if use_ell and rnd.random() < 0.7:
            p = rnd.randint(0, len(rhs))
            rhs = rhs[:p] + "..." + rhs[p:]
    lhs = ",".join(("..." if has_ell else "") + "".join(labs) for labs, _, _, has_ell in ops)
    eq = lhs if rhs is None else f"{lhs}->{rhs}"
    path = None
    if nops == 3 and rnd.random() < 0.5:
        path = rnd.choice([[0, 1, 0, 1], [1, 2, 0, 1], [0, 2, 0, 1]])
    shapes = [(op_ell if has_ell else []) + dims for labs, dims, op_ell, has_ell in ops]
    return eq, shapes, path, syms


def pair_case(rnd):
    """Two operands, every label given a role of sumproduct_pair: in both and the output (lro),
    in one and the output (lo / ro), summed from both or from one; the output in a random order."""
    nlab = rnd.randint(3, 6)
    labels = rnd.sample(LETTERS, nlab)
    syms = ["batch", "seq"][:rnd.randint(1, 2)]
    roles = ["lo", "ro", "sum"] + [rnd.choice(["lro", "lo", "ro", "sum", "lsum", "rsum"]) for _ in labels[3:]]
    rnd.shuffle(roles)
    size = {l: rnd.choice(syms) if rnd.random() < 0.4 else rnd.choice([1, 2, 3, 4, 5, 2, 3]) for l in labels}
    left = [l for l, r in zip(labels, roles) if r in ("lro", "lo", "sum", "lsum")]
    right = [l for l, r in zip(labels, roles) if r in ("lro", "ro", "sum", "rsum")]
    out = [l for l, r in zip(labels, roles) if r in ("lro", "lo", "ro")]
    for x in (left, right, out):
        rnd.shuffle(x)
    eq = f"{''.join(left)},{''.join(right)}->{''.join(out)}"
    return eq, [[size[l] for l in left], [size[l] for l in right]], None, syms


def examples_for(g):
    """Every placeholder's sizes at five bindings of the symbols, 1 among them."""
    out = []
    for v in [[2, 3], [1, 4], [3, 1], [1, 1], [5, 2]]:
        bind = dict(zip(["batch", "seq"], v))
        out.append({ph: [bind[d] if isinstance(d, str) else d for d in dims] for ph, dims in g.dyn.items()})
    return out


def random_graph(i, kind):
    def build():
        rnd = random.Random(SEED * 1000 + i + (500 if kind == "pair" else 0))
        eq, shapes, path, syms = (pair_case if kind == "pair" else random_case)(rnd)
        g = G(f"diff_einsum_{kind}_{i:02d}", {}, {s: (1, None) for s in syms})
        xs = [operand(g, f"x{j}", s, rnd) for j, s in enumerate(shapes)]
        kw = {"path": path} if path else {}
        g.output([g.call("aten.einsum.default", eq, xs, **kw)])
        g.add_examples(examples_for(g))
        return g
    build.__name__ = f"{kind}_{i:02d}"
    return build


for _i in range(COUNT):
    graph(random_graph(_i, "random"))
for _i in range(PAIRS):
    graph(random_graph(_i, "pair"))


@graph
def mamba2_ssd():
    # transformers' Mamba-2 SSD (falcon_h1, NemotronH torch_forward): the chunked scan's four
    # contractions; x / B / C arrive as (batch, heads, dim, chunks, chunk_len) buffers viewed
    # as (batch, chunks, chunk_len, heads, dim); `chunks` is 1 for a prompt shorter than a chunk.
    g = G("diff_einsum_mamba2_ssd", {}, {"batch": (1, None), "chunks": (1, None)})
    dims = {"b": "batch", "c": "chunks", "l": 8, "s": 8, "h": 4, "n": 6, "p": 3}

    def ph(name, labs, phys):
        g.dyn[name] = [dims[l] for l in phys]
        x = g.ph(name)
        return g.call("aten.permute.default", x, [phys.index(l) for l in labs])

    C = ph("C", "bclhn", "bhncl")
    B = ph("B", "bcshn", "bhncs")
    x = ph("x", "bcshp", "bhpcs")
    L = ph("L", "bclsh", "bclsh")
    g.dyn["A"] = ["batch", "chunks", "chunks", 4]  # decay_chunk-like "bzch" operand
    A = g.ph("A")
    scores = g.call("aten.einsum.default", "bclhn,bcshn->bclsh", [C, B])
    masked = g.call("aten.mul.Tensor", scores, L)
    y_diag = g.call("aten.einsum.default", "bclsh,bcshp->bclhp", [masked, x])
    decay = g.call("aten.mul.Tensor", B, 2.0)
    states = g.call("aten.einsum.default", "bclhn,bclhp->bchpn", [decay, x])
    new_states = g.call("aten.einsum.default", "bzch,bchpn->bzhpn", [A, states])
    y_off = g.call("aten.einsum.default", "bclhn,bchpn->bclhp", [C, states])
    g.output([y_diag, states, new_states, y_off])
    ex = []
    for b, c in [(2, 1), (1, 1), (3, 2), (2, 3), (1, 2)]:
        ex.append({"C": [b, 4, 6, c, 8], "B": [b, 4, 6, c, 8], "x": [b, 4, 3, c, 8], "L": [b, c, 8, 8, 4],
                   "A": [b, c, c, 4]})
    g.add_examples(ex)
    return g


def main():
    base.generator_main(GRAPHS, "einsum", base.diff_versions)


if __name__ == "__main__":
    main()
