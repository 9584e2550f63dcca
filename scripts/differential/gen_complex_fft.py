#!/usr/bin/python3
"""Differential conformance graphs for complex views and the FFT family: real / imag /
view_as_real / view_as_complex round trips, complex arithmetic and promotion, polar / complex
with broadcasting, fft / ifft / rfft / irfft / hfft / ihfft, fft2 / ifft2 / rfft2 / irfft2 and
fftn / ifftn / rfftn / irfftn over several dim sets on contiguous, transposed, sliced and
channels_last inputs, with n / s (the input cropped or zero-padded first) and norm, and one-op
graphs PyTorch rejects for every size.

Regenerate (run from anywhere; OUT_DIR defaults to data/differential/complex_fft):

    /usr/bin/python3 scripts/differential/gen_complex_fft.py [OUT_DIR]              # 1.13.1 goldens
    /opt/symshape-venv/bin/python scripts/differential/gen_complex_fft.py [OUT_DIR]  # 2.13 goldens

The FFT kernels' output layouts differ between the two (Debian's 1.13.1 has no MKL: its pocketfft
kernels write contiguous outputs; the 2.x CPU wheels run MKL's `_exec_fft`, which sorts the dims
by stride), so every graph is written twice: `<name>.graph.json` with 1.13.1 goldens and
`<name>_2x.graph.json` with 2.x goldens. The engine picks the kernels of the graph's
`producer.torch` (docs/torchref.md, "Eager layouts: 1.13 and 2.x"). `--diff [OUT_DIR]` lists
every node value and verdict that differs between the two files of each graph.

The graph builder and the golden recorder (node-by-node execution with torch.ops.aten.*,
FORMAT.md error recording) are gen_conv_pool_matmul.py's. CI has no torch: the committed JSON is
the test data (ctest conform_differential_complex_fft).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_conv_pool_matmul as base  # noqa: E402
import torch  # noqa: E402

N = base.N
V2 = not torch.__version__.startswith("1.")
SUFFIX = "_2x" if V2 else ""
CL = {"memory_format": "channels_last"}
C64 = {"dtype": "complex64"}
F64 = {"dtype": "float64"}
F16 = {"dtype": "float16"}
GRAPHS = []


G = base.release_graph_class("gen_complex_fft.py", SUFFIX)


def graph(fn):
    GRAPHS.append(fn)
    return fn


def dims(*names, lo=1):
    return {n: (lo, None) for n in names}


def as_complex(g, x, b, s):
    """(b, s, 8) float32 -> (b, s, 4) complex64, the way rotary embeddings build it."""
    r = g.call("aten.reshape.default", x, [g.size(x, 0), g.size(x, 1), -1, 2])
    return g.call("aten.view_as_complex.default", r)


# ----------------------------------------------------------------------------- complex views
@graph
def complex_views():
    g = G("diff_complex_views", {"x": ["batch", "seq", 8]}, dims("batch", "seq"))
    x = g.ph("x")
    c = as_complex(g, x, "batch", "seq")
    r1 = g.call("aten.view_as_real.default", c)
    r2 = g.call("aten.real.default", c)
    r3 = g.call("aten.imag.default", c)
    t = g.call("aten.transpose.int", c, 1, 2)
    r4 = g.call("aten.view_as_real.default", t)
    r5 = g.call("aten.imag.default", t)
    sl = g.call("aten.slice.Tensor", c, 2, 1, 9223372036854775807, 1)   # storage offset 1
    r6 = g.call("aten.view_as_real.default", sl)
    r7 = g.call("aten.imag.default", sl)
    r8 = g.call("aten.real.default", g.call("aten.select.int", c, 1, -1))
    # a float view with an even offset back to complex: offset 2 -> 1
    x4 = g.call("aten.reshape.default", x, [g.size(x, 0), g.size(x, 1), 4, 2])
    xs = g.call("aten.slice.Tensor", x4, 2, 1, 3, 1)
    r9 = g.call("aten.view_as_complex.default", xs)
    r10 = g.call("aten.view_as_real.default", r9)
    # a real tensor's real part is itself
    r11 = g.call("aten.real.default", x)
    # round trip through flatten, as rotary embeddings do
    r12 = g.call("aten.flatten.using_ints", g.call("aten.view_as_real.default", c), 2, -1)
    g.output([r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12])
    g.add_examples([{"x": [2, 5, 8]}, {"x": [1, 1, 8]}, {"x": [3, 2, 8]}, {"x": [1, 7, 8]}, {"x": [2, 5, 6]}])
    return g


@graph
def complex_arith():
    # complex64 arithmetic with promotion (llama4's rotary: view_as_complex(q) * freqs_cis)
    g = G("diff_complex_arith", {"x": ["batch", "seq", 8], "f": ["seq", 4]}, dims("batch", "seq"))
    x = g.ph("x"); f = g.ph("f")
    c = as_complex(g, x, "batch", "seq")
    fc = g.call("aten.to.dtype", f, C64, False, False, None)
    u = g.call("aten.unsqueeze.default", fc, 0)
    r1 = g.call("aten.mul.Tensor", c, u)
    ft = g.call("aten.transpose.int", g.call("aten.unsqueeze.default", fc, 0), 0, 1)     # (seq, 1, 4)
    r2 = g.call("aten.mul.Tensor", g.call("aten.transpose.int", c, 0, 1), ft)
    r3 = g.call("aten.mul.Tensor", c, f)                       # complex64 * float32 -> complex64
    r4 = g.call("aten.add.Tensor", c, 2.5)                      # a Python float
    r5 = g.call("aten.mul.Tensor", c, 3)                        # a Python int
    r6 = g.call("aten.sub.Tensor", f, c)
    r7 = g.call("aten.div.Tensor", c, c)
    r8 = g.call("aten.abs.default", r1)                         # float32
    r9 = g.call("aten.mul.Tensor", c, g.call("aten.select.int", g.call("aten.select.int", fc, 0, 0), 0, 0))  # 0-d
    r10 = g.call("aten.view_as_real.default", r1)
    g.output([r1, r2, r3, r4, r5, r6, r7, r8, r9, r10])
    g.add_examples([{"x": [2, 5, 8], "f": [5, 4]}, {"x": [1, 1, 8], "f": [1, 4]}, {"x": [3, 4, 8], "f": [4, 4]},
                    {"x": [2, 3, 8], "f": [4, 4]}])
    return g


@graph
def polar():
    g = G("diff_polar", {"a": ["batch", 1, "n"], "t": ["n", "seq"], "m": ["batch", 3, "h", "w"]},
          dims("batch", "n", "seq", "h", "w"))
    a = g.ph("a"); t = g.ph("t"); m = g.ph("m")
    tt = g.call("aten.transpose.int", t, 0, 1)                  # (seq, n) transposed
    r1 = g.call("aten.polar.default", g.call("aten.ones_like.default", tt), tt)
    r2 = g.call("aten.polar.default", a, tt)                    # (batch, seq, n)
    r3 = g.call("aten.complex.default", tt, tt)
    mc = g.call("aten.contiguous.default", m, memory_format=CL)
    r4 = g.call("aten.polar.default", mc, mc)
    r5 = g.call("aten.polar.default", mc, g.call("aten.select.int", m, 0, 0))
    r6 = g.call("aten.real.default", r2)
    g.output([r1, r2, r3, r4, r5, r6])
    g.add_examples([{"a": [2, 1, 4], "t": [4, 6], "m": [2, 3, 4, 5]}, {"a": [1, 1, 1], "t": [1, 1], "m": [1, 3, 1, 1]},
                    {"a": [3, 1, 4], "t": [5, 6], "m": [2, 3, 2, 2]}, {"a": [2, 1, 3], "t": [3, 2], "m": [2, 3, 3, 1]}, {"a": [1, 1, 5], "t": [5, 1], "m": [1, 3, 2, 5]}])
    return g


# ----------------------------------------------------------------------------- c2c transforms
@graph
def fftn_dims():
    # FNet's fftn over (seq, hidden) and other dim sets, on contiguous, transposed and sliced inputs
    g = G("diff_fftn_dims", {"x": ["batch", "seq", "hidden"]}, dims("batch", "seq", "hidden"))
    x = g.ph("x")
    outs = []
    for d in ([1, 2], None, [-1], [0], [2, 0], [0, 1], [1]):
        outs.append(g.call("aten.fft_fftn.default", x, None, d, None))
    outs.append(g.call("aten.real.default", outs[0]))
    xt = g.call("aten.transpose.int", x, 1, 2)
    for d in ([1, 2], [-1], [0, 2], None):
        outs.append(g.call("aten.fft_fftn.default", xt, None, d, "ortho"))
    xs = g.call("aten.slice.Tensor", x, 2, 0, 9223372036854775807, 2)
    for d in ([1, 2], [0]):
        outs.append(g.call("aten.fft_ifftn.default", xs, None, d, "forward"))
    outs.append(g.call("aten.fft_fft2.default", xt, None, [-2, -1], None))
    outs.append(g.call("aten.fft_ifft2.default", x, None, [0, 2], "backward"))
    g.output(outs)
    g.add_examples([{"x": [2, 7, 32]}, {"x": [1, 5, 32]}, {"x": [3, 12, 8]}, {"x": [2, 1, 32]}, {"x": [1, 1, 1]},
                    {"x": [4, 3, 3]}, {"x": [2, 6, 4]}])
    return g


@graph
def fftn_layouts_4d():
    g = G("diff_fftn_layouts_4d", {"x": ["batch", 3, "height", "width"]}, dims("batch", "height", "width"))
    x = g.ph("x")
    xc = g.call("aten.contiguous.default", x, memory_format=CL)
    outs = []
    for inp in (x, xc):
        for d in ([-2, -1], [1, 2], [1], [0, 3], None, [3, 1, 2]):
            outs.append(g.call("aten.fft_fftn.default", inp, None, d, None))
    p = g.call("aten.permute.default", x, [0, 2, 3, 1])        # NHWC view
    outs.append(g.call("aten.fft_fftn.default", p, None, [1, 2], None))
    outs.append(g.call("aten.fft_ifftn.default", p, None, [3], None))
    c = g.call("aten.to.dtype", xc, C64, False, False, None)    # a complex channels_last input: no promotion
    outs.append(g.call("aten.fft_fft2.default", c, None, [-2, -1], None))
    outs.append(g.call("aten.fft_fftn.default", c, None, [1, 3], None))
    outs.append(g.call("aten.fft_fftn.default", c, None, [], None))   # no transform: a clone
    g.output(outs)
    g.add_examples([{"x": [2, 3, 4, 5]}, {"x": [1, 3, 1, 1]}, {"x": [1, 3, 6, 2]}, {"x": [3, 3, 2, 2]},
                    {"x": [2, 3, 1, 7]}])
    return g


@graph
def fftn_s():
    # s pads (zeros at the end, one constant_pad_nd) or crops (a slice from 0) before the transform
    g = G("diff_fftn_s", {"x": ["batch", "seq", "hidden"]}, dims("batch", "seq", "hidden"))
    x = g.ph("x")
    outs = []
    outs.append(g.call("aten.fft_fftn.default", x, [6, 10], [1, 2], None))
    outs.append(g.call("aten.fft_fftn.default", x, [4, -1], None, None))
    outs.append(g.call("aten.fft_fftn.default", x, [5], [0], None))
    xt = g.call("aten.transpose.int", x, 0, 2)
    outs.append(g.call("aten.fft_fftn.default", xt, [3, 9], [0, 2], None))
    outs.append(g.call("aten.fft_fft2.default", xt, [7, 2], [-2, -1], None))
    outs.append(g.call("aten.fft_ifftn.default", x, [g.size(x, 1), 12], [1, 2], None))
    outs.append(g.call("aten.fft_fft.default", x, 5, 1, None))             # real input: a two-sided r2c
    outs.append(g.call("aten.fft_fft.default", xt, None, 0, "ortho"))
    c = g.call("aten.fft_fftn.default", x, None, [2], None)
    outs.append(g.call("aten.fft_ifft.default", c, 3, -1, None))           # complex input: c2c
    outs.append(g.call("aten.fft_fft.default", g.call("aten.transpose.int", c, 0, 1), 9, 0, None))
    outs.append(g.call("aten.fft_ifft.default", x, None, -2, None))
    g.output(outs)
    g.add_examples([{"x": [2, 7, 12]}, {"x": [1, 3, 8]}, {"x": [3, 9, 16]}, {"x": [2, 1, 4]}, {"x": [1, 6, 10]},
                    {"x": [4, 2, 2]}])
    return g


# ----------------------------------------------------------------------------- r2c / c2r transforms
@graph
def real_transforms():
    g = G("diff_real_transforms", {"x": ["batch", "seq", "hidden"]}, dims("batch", "seq", "hidden"))
    x = g.ph("x")
    xt = g.call("aten.transpose.int", x, 1, 2)
    outs = []
    outs.append(g.call("aten.fft_rfft.default", x, None, -1, None))
    outs.append(g.call("aten.fft_rfft.default", xt, 6, 1, "ortho"))
    outs.append(g.call("aten.fft_rfftn.default", x, None, [1, 2], None))
    outs.append(g.call("aten.fft_rfftn.default", x, None, [2, 0], None))
    outs.append(g.call("aten.fft_rfftn.default", xt, [5, 4], [0, 1], None))
    outs.append(g.call("aten.fft_rfft2.default", xt, None, [-2, -1], None))
    c = g.call("aten.fft_rfftn.default", x, None, [1, 2], None)
    outs.append(g.call("aten.fft_irfftn.default", c, None, [1, 2], None))
    outs.append(g.call("aten.fft_irfftn.default", c, [4, 10], [1, 2], None))
    outs.append(g.call("aten.fft_irfftn.default", c, [-1, 7], [0, 2], None))
    outs.append(g.call("aten.fft_irfft2.default", g.call("aten.transpose.int", c, 0, 1), None, [-2, -1], None))
    outs.append(g.call("aten.fft_irfft.default", c, None, -1, None))
    outs.append(g.call("aten.fft_irfft.default", c, 9, 1, "forward"))
    outs.append(g.call("aten.fft_irfft.default", xt, None, 1, None))           # a real input, promoted
    outs.append(g.call("aten.fft_hfft.default", g.call("aten.transpose.int", c, 0, 1), 5, 0, None))
    outs.append(g.call("aten.fft_ihfft.default", xt, None, 0, None))
    outs.append(g.call("aten.fft_irfftn.default", c, None, None, None))
    g.output(outs)
    g.add_examples([{"x": [2, 7, 12]}, {"x": [1, 3, 8]}, {"x": [3, 4, 5]}, {"x": [2, 2, 3]}, {"x": [1, 6, 2]}])
    return g


@graph
def fft_int_input():
    # integer and bool inputs are transformed as float32
    g = G("diff_fft_int_input", {"i": ["batch", "n"], "m": ["batch", "n"]}, dims("batch", "n"))
    i = g.ph("i", dtype="int64", rng=(0, 10)); m = g.ph("m", dtype="bool")
    outs = [g.call("aten.fft_fftn.default", i, None, None, None),
            g.call("aten.fft_rfft.default", i, None, -1, None),
            g.call("aten.fft_fft.default", g.call("aten.transpose.int", m, 0, 1), None, -1, None),
            g.call("aten.fft_irfft.default", i, 4, 0, None)]
    g.output(outs)
    g.add_examples([{"i": [2, 5], "m": [2, 5]}, {"i": [1, 3], "m": [1, 3]}, {"i": [3, 2], "m": [3, 2]}])
    return g


@graph
def fft_version_edges():
    # where 1.13 and 2.x disagree on accepting: a zero-sized batch (MKL refuses zero transforms,
    # pocketfft returns an empty result) and a 0-d input with no dims (2.x: a clone; 1.13: an error)
    g = G("diff_fft_version_edges", {"x": ["batch", "seq", "hidden"]}, dims("batch", "seq", "hidden"))
    x = g.ph("x")
    empty = g.call("aten.slice.Tensor", x, 0, 0, 0, 1)
    r1 = g.call("aten.fft_fftn.default", empty, None, [1, 2], None)
    r2 = g.call("aten.fft_rfft.default", empty, None, -1, None)
    g.output([r1, r2])
    g.add_examples([{"x": [2, 6, 8]}, {"x": [1, 3, 4]}])
    return g


@graph
def fftn_0d():
    g = G("diff_fftn_0d", {"x": ["batch", "seq", "hidden"]}, dims("batch", "seq", "hidden"))
    x = g.ph("x")
    s = g.call("aten.select.int", g.call("aten.select.int", g.call("aten.select.int", x, 0, 0), 0, 0), 0, 0)
    g.output([g.call("aten.fft_fftn.default", s, None, None, None)])
    g.add_examples([{"x": [2, 6, 8]}, {"x": [1, 3, 4]}])
    return g


# ----------------------------------------------------------------------------- rejected for every size
ERR_EX = [{"x": [2, 6, 8]}, {"x": [1, 3, 4]}]


def _err_graph(name, build):
    def f():
        g = G(name, {"x": ["batch", "seq", "hidden"]}, dims("batch", "seq", "hidden"))
        x = g.ph("x")
        g.output(build(g, x))
        g.add_examples(ERR_EX)
        return g
    return f


def _cplx(g, x):
    return g.call("aten.to.dtype", x, C64, False, False, None)


ERR_CASES = [
    ("diff_err_view_as_complex_last_dim", lambda g, x: g.call(
        "aten.view_as_complex.default", g.call("aten.unsqueeze.default", x, -1))),
    ("diff_err_view_as_complex_stride", lambda g, x: g.call(
        "aten.view_as_complex.default", g.call("aten.transpose.int", g.call("aten.slice.Tensor", x, 1, 0, 2, 1), 1, 2))),
    ("diff_err_view_as_complex_odd_stride", lambda g, x: g.call(
        "aten.view_as_complex.default", g.call("aten.slice.Tensor", g.call(
            "aten.contiguous.default", g.call("aten.slice.Tensor", x, 2, 0, 3, 1)), 2, 0, 2, 1))),
    ("diff_err_view_as_complex_offset", lambda g, x: g.call(
        "aten.view_as_complex.default", g.call("aten.view.default", g.call(
            "aten.slice.Tensor", g.call("aten.reshape.default", x, [-1]), 0, 1, 5, 1), [2, 2]))),
    ("diff_err_view_as_complex_dtype", lambda g, x: g.call(
        "aten.view_as_complex.default", g.call("aten.to.dtype", g.call("aten.slice.Tensor", x, 2, 0, 2, 1),
                                                 {"dtype": "int32"}, False, False, None))),
    ("diff_err_view_as_complex_0d", lambda g, x: g.call(
        "aten.view_as_complex.default", g.call("aten.select.int", g.call("aten.select.int", g.call("aten.select.int", x, 0, 0), 0, 0), 0, 0))),
    ("diff_err_view_as_real_float", lambda g, x: g.call("aten.view_as_real.default", x)),
    ("diff_err_imag_float", lambda g, x: g.call("aten.imag.default", x)),
    ("diff_err_polar_dtype", lambda g, x: g.call("aten.polar.default", x, g.call("aten.to.dtype", x, F64, False, False, None))),
    ("diff_err_polar_int", lambda g, x: g.call("aten.polar.default", g.call("aten.to.dtype", x, {"dtype": "int64"}, False, False, None), x)),
    ("diff_err_polar_broadcast", lambda g, x: g.call("aten.polar.default", x, g.call("aten.slice.Tensor", x, 2, 0, -1, 1))),
    ("diff_err_polar_half", lambda g, x: g.call("aten.polar.default", g.call("aten.to.dtype", x, F16, False, False, None),
                                                 g.call("aten.to.dtype", x, F16, False, False, None))),
    ("diff_err_complex_dtype", lambda g, x: g.call("aten.complex.default", x, g.call("aten.to.dtype", x, F64, False, False, None))),
    ("diff_err_fftn_dup_dims", lambda g, x: g.call("aten.fft_fftn.default", x, None, [0, -3], None)),
    ("diff_err_fftn_dim_range", lambda g, x: g.call("aten.fft_fftn.default", x, None, [3], None)),
    ("diff_err_fftn_s_dim_length", lambda g, x: g.call("aten.fft_fftn.default", x, [4, 4], [1], None)),
    ("diff_err_fftn_s_too_long", lambda g, x: g.call("aten.fft_fftn.default", x, [2, 2, 2, 2], None, None)),
    ("diff_err_fftn_s_zero", lambda g, x: g.call("aten.fft_fftn.default", x, [0, 4], None, None)),
    ("diff_err_fftn_norm", lambda g, x: g.call("aten.fft_fftn.default", x, None, [1, 2], "bogus")),
    ("diff_err_fftn_half", lambda g, x: g.call("aten.fft_fftn.default", g.call("aten.to.dtype", x, F16, False, False, None),
                                                None, None, None)),
    ("diff_err_fftn_bfloat16", lambda g, x: g.call("aten.fft_fft.default", g.call("aten.to.dtype", x, {"dtype": "bfloat16"},
                                                                                   False, False, None), None, -1, None)),
    ("diff_err_fft_n_zero", lambda g, x: g.call("aten.fft_fft.default", x, 0, -1, None)),
    ("diff_err_fft_dim_range", lambda g, x: g.call("aten.fft_ifft.default", _cplx(g, x), None, -4, None)),
    ("diff_err_fft_norm", lambda g, x: g.call("aten.fft_ifft.default", _cplx(g, x), None, 0, "Ortho")),
    ("diff_err_rfft_complex", lambda g, x: g.call("aten.fft_rfft.default", _cplx(g, x), None, -1, None)),
    ("diff_err_rfftn_complex", lambda g, x: g.call("aten.fft_rfftn.default", _cplx(g, x), None, None, None)),
    ("diff_err_rfftn_no_dims", lambda g, x: g.call("aten.fft_rfftn.default", x, None, [], None)),
    ("diff_err_irfftn_no_dims", lambda g, x: g.call("aten.fft_irfftn.default", _cplx(g, x), [], None, None)),
    ("diff_err_irfft_points", lambda g, x: g.call("aten.fft_irfft.default", g.call("aten.slice.Tensor", _cplx(g, x), 2, 0, 1, 1),
                                                   None, -1, None)),
    ("diff_err_irfftn_points", lambda g, x: g.call("aten.fft_irfftn.default", _cplx(g, x), [4, 0], [0, 1], None)),
    ("diff_err_fft_0d", lambda g, x: g.call("aten.fft_fft.default", g.call("aten.select.int", g.call(
        "aten.select.int", g.call("aten.select.int", x, 0, 0), 0, 0), 0, 0), None, -1, None)),
    ("diff_err_irfft_0d", lambda g, x: g.call("aten.fft_irfft.default", g.call("aten.select.int", g.call(
        "aten.select.int", g.call("aten.select.int", _cplx(g, x), 0, 0), 0, 0), 0, 0), None, -1, None)),
    ("diff_err_fft2_rank", lambda g, x: g.call("aten.fft_fft2.default", g.call("aten.select.int", g.call("aten.select.int", x, 0, 0), 0, 0),
                                                None, [-2, -1], None)),
]
for _n, _b in ERR_CASES:
    graph(_err_graph(_n, _b))


def main():
    base.generator_main(GRAPHS, "complex_fft", base.diff_versions)


if __name__ == "__main__":
    main()
