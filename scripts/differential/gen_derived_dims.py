#!/usr/bin/python3
"""Differential conformance graphs whose own spec has derived dims (torch.export's `b + 1`,
`2*n`, `2*r + 1`, `s - 1`): fx-graph-json with DynamicShapesSpec's `derived` lists filled
(docs/formats.md "Derived dims"). Each graph reads its derived sizes through ops whose
shapes depend on the relation (a slice added to the root's input, a view by the root's size,
a cat), with examples in the spec and examples off it: a size that breaks the relation, is not
of the derived form, or leaves the root's range.

Regenerate (needs PyTorch 1.13.1, e.g. Debian python3-torch, reachable as /usr/bin/python3):

    /usr/bin/python3 scripts/differential/gen_derived_dims.py [OUT_DIR]

OUT_DIR defaults to data/differential/derived_dims. The graph builder and the golden recorder
(node-by-node execution with torch.ops.aten.*, FORMAT.md error recording) are
gen_conv_pool_matmul.py's; `in_spec` here also solves each derived dim for its root (an
integer in the root's range, equal for every use). The committed JSON is the test data (ctest
conform_differential_derived_dims); CI has no torch.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_conv_pool_matmul as base  # noqa: E402
import torch  # noqa: E402

N = base.N
INT64_MAX = base.INT64_MAX
# PyTorch's printed form of a derived dim (Dim._derived_name: str of the sympy expression):
# `b + 1`, `b - 1`, `2*b`, `2*b + 1`.
_DERIVED = re.compile(r"^(?:(\d+)\*)?([A-Za-z_][A-Za-z0-9_]*)(?: ([+-]) (\d+))?$")


def leaf_fn(entry):
    """(root, mul, add) of a dynamic_shapes leaf naming a Dim or a derived dim."""
    m = _DERIVED.match(entry)
    mul = int(m.group(1) or 1)
    add = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return m.group(2), mul, add


def in_spec(g, inputs):
    """FORMAT.md's in_spec with derived dims: static sizes equal, each root one integer value
    in its range (a derived size solved for it), every derived size mul*root + add."""
    root_value = {}
    for ph, row in g.dyn.items():
        shape = inputs[ph]
        if len(shape) != len(row):
            return False
        for s, d in zip(shape, row):
            if isinstance(d, int):
                if s != d:
                    return False
                continue
            root, mul, add = leaf_fn(d)
            if (s - add) % mul != 0:
                return False
            v = (s - add) // mul
            if root_value.setdefault(root, v) != v:
                return False
            lo, hi = g.dims[root]
            if v < lo or (hi is not None and v > hi):
                return False
    return True


base.in_spec = in_spec  # run_example's in_spec


class G(base.G):
    def to_json(self):
        doc = super().to_json()
        derived = {}
        for row in self.dyn.values():
            for d in row:
                if isinstance(d, str) and leaf_fn(d)[1:] != (1, 0):
                    derived.setdefault(leaf_fn(d)[0], set()).add(d)
        for root, names in derived.items():
            doc["dynamic_shapes"]["dims"][root]["derived"] = sorted(names)
        doc["producer"]["tool"] = "reference exporter (differential generator gen_derived_dims.py)"
        return doc


GRAPHS = []


def graph(fn):
    GRAPHS.append(fn)
    return fn


@graph
def derived_plus_one():
    """torch.cat([x + y[1:], y]) with y's length x's + 1 (the root used directly, first)."""
    g = G("diff_derived_plus_one", {"x": ["b", 3], "y": ["b + 1", 3]}, {"b": (2, 64)})
    x, y = g.ph("x"), g.ph("y")
    tail = g.call("aten.slice.Tensor", y, 0, 1, INT64_MAX, 1)
    s = g.call("aten.add.Tensor", x, tail)
    c = g.call("aten.cat.default", [s, y], 0)
    n = g.size(y, 0)
    m = g.call("operator.mul", n, 3)
    v = g.call("aten.view.default", y, [m])
    g.output([c, v])
    g.add_examples([{"x": [2, 3], "y": [3, 3]}, {"x": [3, 3], "y": [4, 3]}, {"x": [7, 3], "y": [8, 3]},
                    {"x": [64, 3], "y": [65, 3]},
                    {"x": [4, 3], "y": [6, 3]},     # off the relation: add fails
                    {"x": [65, 3], "y": [66, 3]},   # the root above its max
                    {"x": [1, 3], "y": [2, 3]},     # the root below its min
                    {"x": [5, 4], "y": [6, 4]}])    # a static dim changed
    return g


@graph
def derived_double_later_root():
    """x is 2*n long, n is y's length (the root used directly by a later input): x viewed
    as [n, 2, 4] by y's size and added to y."""
    g = G("diff_derived_double_later_root", {"x": ["2*n", 4], "y": ["n", 4]}, {"n": (2, None)})
    x, y = g.ph("x"), g.ph("y")
    n = g.size(y, 0)
    v = g.call("aten.view.default", x, [n, 2, 4])
    u = g.call("aten.unsqueeze.default", y, 1)
    a = g.call("aten.add.Tensor", v, u)
    r = g.call("aten.sum.dim_IntList", a, [1], False)
    g.output([a, r])
    g.add_examples([{"x": [4, 4], "y": [2, 4]}, {"x": [6, 4], "y": [3, 4]}, {"x": [14, 4], "y": [7, 4]},
                    {"x": [64, 4], "y": [32, 4]},
                    {"x": [7, 4], "y": [3, 4]},     # not of the form 2*n: view fails
                    {"x": [8, 4], "y": [3, 4]},     # 2*n for another n: view fails
                    {"x": [2, 4], "y": [1, 4]}])    # n below its min
    return g


@graph
def derived_phantom_odd():
    """z is 2*r + 1 long and no input has length r (a phantom root): z[1:] viewed as pairs."""
    g = G("diff_derived_phantom_odd", {"z": ["2*r + 1", 6]}, {"r": (2, None)})
    z = g.ph("z")
    tail = g.call("aten.slice.Tensor", z, 0, 1, INT64_MAX, 1)
    v = g.call("aten.view.default", tail, [-1, 2, 6])
    head = g.call("aten.slice.Tensor", z, 0, 0, 1, 1)
    m = g.call("aten.mul.Tensor", v, head)
    g.output([m, g.size(v, 0)])
    g.add_examples([{"z": [5, 6]}, {"z": [7, 6]}, {"z": [11, 6]}, {"z": [101, 6]},
                    {"z": [6, 6]},     # not of the form 2*r + 1: view fails
                    {"z": [3, 6]},     # r = 1, below its min
                    {"z": [9, 5]}])    # a static dim changed: view fails
    return g


@graph
def derived_minus_two_roots():
    """Two roots, each with a derived dim: y is [s - 1, 2*h]; y[:, ::2] has x's width and
    x[1:] its length."""
    g = G("diff_derived_minus_two_roots", {"x": ["s", "h"], "y": ["s - 1", "2*h"]},
          {"s": (2, 32), "h": (1, None)})
    x, y = g.ph("x"), g.ph("y")
    xs = g.call("aten.slice.Tensor", x, 0, 1, INT64_MAX, 1)
    ys = g.call("aten.slice.Tensor", y, 1, 0, INT64_MAX, 2)
    p = g.call("aten.mul.Tensor", xs, ys)
    c = g.call("aten.cat.default", [x, p], 0)
    t = g.call("aten.transpose.int", y, 0, 1)
    mm = g.call("aten.mm.default", t, p)
    g.output([c, mm])
    g.add_examples([{"x": [2, 3], "y": [1, 6]}, {"x": [3, 4], "y": [2, 8]}, {"x": [9, 5], "y": [8, 10]},
                    {"x": [32, 1], "y": [31, 2]},
                    {"x": [5, 3], "y": [5, 6]},      # length off the relation: mul fails
                    {"x": [5, 3], "y": [4, 7]},      # 7 is not 2*h: mul fails
                    {"x": [5, 3], "y": [4, 8]},      # 2*h for another h: mul fails
                    {"x": [33, 2], "y": [32, 4]}])   # s above its max
    return g


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "data", "differential", "derived_dims")
    base.write_graphs(GRAPHS, out)


if __name__ == "__main__":
    main()
