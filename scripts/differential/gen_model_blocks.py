#!/usr/bin/python3
"""Differential conformance graphs for COMPOSED model blocks with dynamic dims (transformer
attention/MLP blocks, rotary embeddings, cross attention, ViT patch embedding, ResNet / MobileNet /
inception blocks, FPN / UNet / ASPP decoders), written the way exported models look: sizes read
with aten.sym_size.int and operator.* arithmetic feeding view / reshape / expand / arange / upsample.

Regenerate (needs PyTorch 1.13.1 reachable as /usr/bin/python3):

    /usr/bin/python3 scripts/differential/gen_model_blocks.py [OUT_DIR]

OUT_DIR defaults to data/differential/model_blocks. The graph builder and the golden recorder
(node-by-node execution with torch.ops.aten.*, FORMAT.md error recording) are shared with
gen_conv_pool_matmul.py. CI has no torch: the committed JSON is the test data
(ctest conform_differential_model_blocks).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_conv_pool_matmul as base  # noqa: E402
import torch  # noqa: E402

N = base.N
INT64_MAX = base.INT64_MAX
F32 = {"dtype": "float32"}
I64 = {"dtype": "int64"}
GRAPHS = []


class G(base.G):
    def to_json(self):
        d = super().to_json()
        d["producer"]["tool"] = "reference exporter (differential generator gen_model_blocks.py)"
        return d


def graph(fn):
    GRAPHS.append(fn)
    return fn


def dims(**kw):
    return {k: v for k, v in kw.items()}


def linear(g, x, prefix, fin, fout, bias=True):
    w = g.attr(prefix + ".weight", [fout, fin])
    b = g.attr(prefix + ".bias", [fout]) if bias else None
    return g.call("aten.linear.default", x, w, b)


def layer_norm(g, x, prefix, c):
    w = g.attr(prefix + ".weight", [c]); b = g.attr(prefix + ".bias", [c])
    return g.call("aten.layer_norm.default", x, [c], w, b, 1e-05, True)


def rms_norm(g, x, prefix, c):
    t = g.call("aten.to.dtype", x, F32, False, False, None)
    p = g.call("aten.pow.Tensor_Scalar", t, 2)
    m = g.call("aten.mean.dim", p, [-1], True)
    a = g.call("aten.add.Tensor", m, 1e-06)
    r = g.call("aten.rsqrt.default", a)
    y = g.call("aten.mul.Tensor", x, r)
    w = g.attr(prefix + ".weight", [c])
    return g.call("aten.mul.Tensor", w, y)


def conv_bn(g, x, prefix, cin, cout, k, s, p, groups=1, relu=True):
    w = g.attr(prefix + ".conv.weight", [cout, cin // groups, k, k])
    y = g.call("aten.conv2d.default", x, w, None, [s, s], [p, p], [1, 1], groups)
    bw = g.attr(prefix + ".bn.weight", [cout]); bb = g.attr(prefix + ".bn.bias", [cout])
    rm = g.attr(prefix + ".bn.running_mean", [cout]); rv = g.attr(prefix + ".bn.running_var", [cout])
    y = g.call("aten.batch_norm.default", y, bw, bb, rm, rv, False, 0.1, 1e-05, True)
    if relu:
        y = g.call("aten.relu_.default", y) if relu == "inplace" else g.call("aten.relu.default", y)
    return y


# ----------------------------------------------------------------------------- transformers
@graph
def gpt_block():
    V, P, C, H = 50, 16, 32, 4
    g = G("mb_gpt_block", {"idx": ["batch", "seq"]},
          dims(batch=(1, None), seq=(1, P)))
    idx = g.ph("idx", "int64", rng=(0, V))
    T = g.size(idx, 1)
    pos = g.call("aten.arange.default", T, dtype=I64)
    wte = g.attr("wte.weight", [V, C]); wpe = g.attr("wpe.weight", [P, C])
    te = g.call("aten.embedding.default", wte, idx, -1, False, False)
    pe = g.call("aten.embedding.default", wpe, pos, -1, False, False)
    pe = g.call("aten.unsqueeze.default", pe, 0)
    x = g.call("aten.add.Tensor", te, pe)
    B = g.size(x, 0); T2 = g.size(x, 1); Cs = g.size(x, 2)
    h = layer_norm(g, x, "h.0.ln_1", C)
    qkv = linear(g, h, "h.0.attn.c_attn", C, 3 * C)
    sp = g.call("aten.split.Tensor", qkv, C, 2)
    q, k, v = (g.getitem(sp, i) for i in range(3))
    D = g.call("operator.floordiv", Cs, H)
    heads = []
    for t in (q, k, v):
        t = g.call("aten.view.default", t, [B, T2, H, D])
        heads.append(g.call("aten.transpose.int", t, 1, 2))
    q, k, v = heads
    kt = g.call("aten.transpose.int", k, -2, -1)
    att = g.call("aten.matmul.default", q, kt)
    sz = g.size(k, 3)
    sq = g.call("aten.sqrt.default", g.call("aten.scalar_tensor.default", sz, dtype=F32))
    att = g.call("aten.div.Tensor", att, sq)
    bias = g.attr("h.0.attn.bias", [1, 1, P, P], "bool",
                  data=[j <= i for i in range(P) for j in range(P)])
    bs = g.call("aten.slice.Tensor", bias, 2, 0, T2, 1)
    bs = g.call("aten.slice.Tensor", bs, 3, 0, T2, 1)
    mv = g.call("aten.full.default", [], {"float": "-inf"}, dtype=F32)
    att = g.call("aten.where.self", bs, att, mv)
    att = g.call("aten.softmax.int", att, -1, None)
    att = g.call("aten.dropout.default", att, 0.1, False)
    y = g.call("aten.matmul.default", att, v)
    y = g.call("aten.transpose.int", y, 1, 2)
    y = g.call("aten.contiguous.default", y)
    y = g.call("aten.view.default", y, [B, T2, Cs])
    y = linear(g, y, "h.0.attn.c_proj", C, C)
    x = g.call("aten.add.Tensor", x, y)
    h = layer_norm(g, x, "h.0.ln_2", C)
    h = linear(g, h, "h.0.mlp.c_fc", C, 4 * C)
    h = g.call("aten.gelu.default", h, approximate="tanh")
    h = linear(g, h, "h.0.mlp.c_proj", 4 * C, C)
    x = g.call("aten.add.Tensor", x, h)
    x = layer_norm(g, x, "ln_f", C)
    logits = linear(g, x, "lm_head", C, V, bias=False)
    last = g.call("aten.select.int", logits, 1, -1)
    g.output([logits, last])
    g.add_examples([{"idx": [2, 5]}, {"idx": [1, 1]}, {"idx": [1, 16]}, {"idx": [3, 7]},
                    {"idx": [4, 2]}, {"idx": [1, 17]}, {"idx": [2, 0]}, {"idx": [5, 9]}])
    return g


@graph
def llama_block():
    V, P, C, H, KV = 40, 32, 32, 4, 2
    D = C // H
    g = G("mb_llama_block", {"input_ids": ["batch", "seq"]}, dims(batch=(1, None), seq=(1, P)))
    ids = g.ph("input_ids", "int64", rng=(0, V))
    B = g.size(ids, 0); T = g.size(ids, 1)
    emb = g.attr("embed_tokens.weight", [V, C])
    x = g.call("aten.embedding.default", emb, ids, -1, False, False)
    # rotary tables from inv_freq and arange(T) (float), cos/sin of cat(freqs, freqs)
    inv = g.attr("rotary.inv_freq", [D // 2])
    t = g.call("aten.arange.default", T, dtype=F32)
    fr = g.call("aten.outer.default", t, inv)
    e = g.call("aten.cat.default", [fr, fr], -1)
    cos = g.call("aten.cos.default", e); sin = g.call("aten.sin.default", e)
    # position ids expanded over the batch, gathered from the tables
    pid = g.call("aten.arange.default", T, dtype=I64)
    pid = g.call("aten.unsqueeze.default", pid, 0)
    pid = g.call("aten.expand.default", pid, [B, -1])
    cos = g.call("aten.index.Tensor", cos, [pid]); sin = g.call("aten.index.Tensor", sin, [pid])
    cos = g.call("aten.unsqueeze.default", cos, 1); sin = g.call("aten.unsqueeze.default", sin, 1)
    mask = g.call("aten.full.default", [T, T], {"float": "-inf"}, dtype=F32)
    mask = g.call("aten.triu.default", mask, 1)
    h = rms_norm(g, x, "layers.0.input_layernorm", C)
    q = linear(g, h, "layers.0.q_proj", C, C, False)
    k = linear(g, h, "layers.0.k_proj", C, KV * D, False)
    v = linear(g, h, "layers.0.v_proj", C, KV * D, False)
    q = g.call("aten.transpose.int", g.call("aten.view.default", q, [B, T, H, D]), 1, 2)
    k = g.call("aten.transpose.int", g.call("aten.view.default", k, [B, T, KV, D]), 1, 2)
    v = g.call("aten.transpose.int", g.call("aten.view.default", v, [B, T, KV, D]), 1, 2)

    def rope(t):
        half = g.call("operator.floordiv", g.size(t, 3), 2)
        x1 = g.call("aten.slice.Tensor", t, 3, 0, half, 1)
        x2 = g.call("aten.slice.Tensor", t, 3, half, INT64_MAX, 1)
        rot = g.call("aten.cat.default", [g.call("aten.neg.default", x2), x1], -1)
        return g.call("aten.add.Tensor", g.call("aten.mul.Tensor", t, cos), g.call("aten.mul.Tensor", rot, sin))
    q = rope(q); k = rope(k)
    # grouped-query attention: repeat kv heads via unsqueeze/expand/reshape
    def rep(t):
        b = g.size(t, 0); s = g.size(t, 2)
        t = g.call("aten.unsqueeze.default", t, 2)
        t = g.call("aten.expand.default", t, [b, KV, H // KV, s, D])
        return g.call("aten.reshape.default", t, [b, H, s, D])
    k = rep(k); v = rep(v)
    s = g.call("aten.matmul.default", q, g.call("aten.transpose.int", k, 2, 3))
    s = g.call("aten.mul.Tensor", s, D ** -0.5)
    s = g.call("aten.add.Tensor", s, mask)
    s = g.call("aten.softmax.int", s, -1, F32)
    o = g.call("aten.matmul.default", s, v)
    o = g.call("aten.transpose.int", o, 1, 2)
    o = g.call("aten.reshape.default", o, [B, T, C])
    o = linear(g, o, "layers.0.o_proj", C, C, False)
    x = g.call("aten.add.Tensor", x, o)
    h = rms_norm(g, x, "layers.0.post_attention_layernorm", C)
    gt = g.call("aten.silu.default", linear(g, h, "layers.0.gate_proj", C, 48, False))
    up = linear(g, h, "layers.0.up_proj", C, 48, False)
    h = linear(g, g.call("aten.mul.Tensor", gt, up), "layers.0.down_proj", 48, C, False)
    x = g.call("aten.add.Tensor", x, h)
    x = rms_norm(g, x, "norm", C)
    logits = linear(g, x, "lm_head", C, V, False)
    g.output(logits)
    g.add_examples([{"input_ids": [2, 6]}, {"input_ids": [1, 1]}, {"input_ids": [1, 32]},
                    {"input_ids": [3, 5]}, {"input_ids": [1, 2]}, {"input_ids": [2, 33]},
                    {"input_ids": [0, 4]}])
    return g


@graph
def cross_attention():
    C, H = 24, 3
    D = C // H
    g = G("mb_cross_attention",
          {"hidden": ["batch", "tgt", C], "encoder_hidden": ["batch", "src", C], "attention_mask": ["batch", "src"]},
          dims(batch=(1, None), tgt=(1, 64), src=(1, 64)))
    hid = g.ph("hidden"); enc = g.ph("encoder_hidden"); am = g.ph("attention_mask", "int64", rng=(0, 2))
    B = g.size(hid, 0); T = g.size(hid, 1)
    # extended padding mask (B, 1, 1, S): (1 - mask) * min
    m = g.call("aten.unsqueeze.default", am, 1)
    m = g.call("aten.unsqueeze.default", m, 2)
    m = g.call("aten.to.dtype", m, F32, False, False, None)
    m = g.call("aten.rsub.Scalar", m, 1.0)
    m = g.call("aten.mul.Tensor", m, -3.4028234663852886e+38)
    q = linear(g, hid, "attn.q", C, C)
    k = linear(g, enc, "attn.k", C, C)
    v = linear(g, enc, "attn.v", C, C)
    q = g.call("aten.mul.Tensor", q, D ** -0.5)
    BH = g.call("operator.mul", B, H)

    def shape(t):
        t = g.call("aten.view.default", t, [B, -1, H, D])
        t = g.call("aten.transpose.int", t, 1, 2)
        t = g.call("aten.contiguous.default", t)
        return g.call("aten.view.default", t, [BH, -1, D])
    q = shape(q); k = shape(k); v = shape(v)
    S = g.size(k, 1)
    w = g.call("aten.bmm.default", q, g.call("aten.transpose.int", k, 1, 2))
    w = g.call("aten.view.default", w, [B, H, T, S])
    w = g.call("aten.add.Tensor", w, m)
    w = g.call("aten.view.default", w, [BH, T, S])
    w = g.call("aten._softmax.default", w, -1, False)
    o = g.call("aten.bmm.default", w, v)
    o = g.call("aten.view.default", o, [B, H, T, D])
    o = g.call("aten.transpose.int", o, 1, 2)
    o = g.call("aten.reshape.default", o, [B, T, C])
    o = linear(g, o, "attn.out", C, C)
    x = g.call("aten.add.Tensor", hid, o)
    x = layer_norm(g, x, "ln", C)
    # pooler on token 0 + classification head
    first = g.call("aten.select.int", x, 1, 0)
    pooled = g.call("aten.tanh.default", linear(g, first, "pooler.dense", C, C))
    cls = linear(g, pooled, "classifier", C, 5)
    g.output([x, cls])
    g.add_examples([
        {"hidden": [2, 5, C], "encoder_hidden": [2, 7, C], "attention_mask": [2, 7]},
        {"hidden": [1, 1, C], "encoder_hidden": [1, 1, C], "attention_mask": [1, 1]},
        {"hidden": [3, 4, C], "encoder_hidden": [3, 9, C], "attention_mask": [3, 9]},
        {"hidden": [1, 6, C], "encoder_hidden": [1, 3, C], "attention_mask": [1, 3]},
        {"hidden": [2, 1, C], "encoder_hidden": [2, 11, C], "attention_mask": [2, 11]},
        {"hidden": [2, 5, C], "encoder_hidden": [2, 7, C], "attention_mask": [2, 6]},
        {"hidden": [2, 5, C], "encoder_hidden": [3, 7, C], "attention_mask": [3, 7]},
        {"hidden": [2, 5, 16], "encoder_hidden": [2, 7, C], "attention_mask": [2, 7]},
    ])
    return g


@graph
def vit_patch_embed():
    C, PS, GR = 16, 4, 4
    g = G("mb_vit_patch_embed", {"x": ["batch", 3, "height", "width"]},
          dims(batch=(1, None), height=(4, 64), width=(4, 64)))
    x = g.ph("x")
    pw = g.attr("patch_embed.proj.weight", [C, 3, PS, PS]); pb = g.attr("patch_embed.proj.bias", [C])
    y = g.call("aten.conv2d.default", x, pw, pb, [PS, PS], [0, 0], [1, 1], 1)
    y = g.call("aten.flatten.using_ints", y, 2, -1)
    y = g.call("aten.transpose.int", y, 1, 2)
    B = g.size(y, 0)
    cls = g.attr("cls_token", [1, 1, C])
    cls = g.call("aten.expand.default", cls, [B, -1, -1])
    y = g.call("aten.cat.default", [cls, y], 1)
    # interpolate the position embedding to the runtime grid
    pos = g.attr("pos_embed", [1, 1 + GR * GR, C])
    pcls = g.call("aten.slice.Tensor", pos, 1, 0, 1, 1)
    pgrid = g.call("aten.slice.Tensor", pos, 1, 1, INT64_MAX, 1)
    pgrid = g.call("aten.reshape.default", pgrid, [1, GR, GR, C])
    pgrid = g.call("aten.permute.default", pgrid, [0, 3, 1, 2])
    h = g.call("operator.floordiv", g.size(x, 2), PS)
    w = g.call("operator.floordiv", g.size(x, 3), PS)
    pgrid = g.call("aten.upsample_bicubic2d.vec", pgrid, [h, w], False, None)
    pgrid = g.call("aten.permute.default", pgrid, [0, 2, 3, 1])
    pgrid = g.call("aten.view.default", pgrid, [1, -1, C])
    pe = g.call("aten.cat.default", [pcls, pgrid], 1)
    y = g.call("aten.add.Tensor", y, pe)
    y = layer_norm(g, y, "norm", C)
    t0 = g.call("aten.select.int", y, 1, 0)
    logits = linear(g, t0, "head", C, 10)
    g.output([y, logits])
    g.add_examples([{"x": [2, 3, 16, 16]}, {"x": [1, 3, 4, 4]}, {"x": [1, 3, 23, 13]},
                    {"x": [3, 3, 32, 8]}, {"x": [1, 3, 7, 64]}, {"x": [1, 3, 3, 8]},
                    {"x": [1, 3, 68, 8]}, {"x": [2, 1, 16, 16]}])
    return g


# ----------------------------------------------------------------------------- CNNs
@graph
def resnet_blocks():
    g = G("mb_resnet_blocks", {"x": ["batch", 3, "height", "width"]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    y = conv_bn(g, x, "stem", 3, 8, 7, 2, 3, relu="inplace")
    y = g.call("aten.max_pool2d.default", y, [3, 3], [2, 2], [1, 1], [1, 1], False)
    # basic block, identity
    r = conv_bn(g, y, "layer1.0.a", 8, 8, 3, 1, 1)
    r = conv_bn(g, r, "layer1.0.b", 8, 8, 3, 1, 1, relu=False)
    y = g.call("aten.relu.default", g.call("aten.add.Tensor", r, y))
    # bottleneck with strided downsample branch
    r = conv_bn(g, y, "layer2.0.a", 8, 4, 1, 1, 0)
    r = conv_bn(g, r, "layer2.0.b", 4, 4, 3, 2, 1)
    r = conv_bn(g, r, "layer2.0.c", 4, 16, 1, 1, 0, relu=False)
    d = conv_bn(g, y, "layer2.0.downsample", 8, 16, 1, 2, 0, relu=False)
    y = g.call("aten.add_.Tensor", r, d)
    y = g.call("aten.relu_.default", y)
    p = g.call("aten.adaptive_avg_pool2d.default", y, [1, 1])
    p = g.call("aten.flatten.using_ints", p, 1, -1)
    logits = linear(g, p, "fc", 16, 10)
    g.output(logits)
    g.add_examples([{"x": [2, 3, 32, 32]}, {"x": [1, 3, 17, 23]}, {"x": [1, 3, 8, 8]},
                    {"x": [1, 3, 4, 5]}, {"x": [3, 3, 1, 1]}, {"x": [1, 3, 9, 2]},
                    {"x": [1, 4, 16, 16]}, {"x": [1, 3, 0, 8]}])
    return g


@graph
def mobile_blocks():
    g = G("mb_mobile_blocks", {"x": ["batch", 3, "height", "width"]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    y = conv_bn(g, x, "stem", 3, 8, 3, 2, 1, relu=False)
    y = g.call("aten.hardswish.default", y)
    # depthwise-separable + squeeze-excitation
    y = conv_bn(g, y, "ir.dw", 8, 8, 3, 2, 1, groups=8)
    s = g.call("aten.adaptive_avg_pool2d.default", y, [1, 1])
    s = g.call("aten.relu.default", g.call("aten.conv2d.default", s, g.attr("ir.se.fc1.weight", [4, 8, 1, 1]),
                                            g.attr("ir.se.fc1.bias", [4]), [1, 1], [0, 0], [1, 1], 1))
    s = g.call("aten.conv2d.default", s, g.attr("ir.se.fc2.weight", [8, 4, 1, 1]),
               g.attr("ir.se.fc2.bias", [8]), [1, 1], [0, 0], [1, 1], 1)
    s = g.call("aten.hardsigmoid.default", s)
    y = g.call("aten.mul.Tensor", s, y)
    y = conv_bn(g, y, "ir.pw", 8, 12, 1, 1, 0, relu=False)
    # SE with linear layers (mean over H,W, view to (B, C, 1, 1))
    B = g.size(y, 0); Cc = g.size(y, 1)
    m = g.call("aten.mean.dim", y, [2, 3], False)
    m = g.call("aten.sigmoid.default", linear(g, g.call("aten.relu.default", linear(g, m, "se2.fc1", 12, 3)), "se2.fc2", 3, 12))
    m = g.call("aten.view.default", m, [B, Cc, 1, 1])
    y = g.call("aten.mul.Tensor", y, g.call("aten.expand_as.default", m, y))
    # channel shuffle (groups=3)
    B = g.size(y, 0); Cc = g.size(y, 1); Hh = g.size(y, 2); Ww = g.size(y, 3)
    cpg = g.call("operator.floordiv", Cc, 3)
    z = g.call("aten.view.default", y, [B, 3, cpg, Hh, Ww])
    z = g.call("aten.transpose.int", z, 1, 2)
    z = g.call("aten.contiguous.default", z)
    z = g.call("aten.view.default", z, [B, -1, Hh, Ww])
    # inception-style branches
    b1 = conv_bn(g, z, "inc.b1", 12, 4, 1, 1, 0)
    b2 = conv_bn(g, conv_bn(g, z, "inc.b2a", 12, 4, 1, 1, 0), "inc.b2b", 4, 6, 3, 1, 1)
    b3 = conv_bn(g, conv_bn(g, z, "inc.b3a", 12, 2, 1, 1, 0), "inc.b3b", 2, 4, 5, 1, 2)
    b4 = g.call("aten.max_pool2d.default", z, [3, 3], [1, 1], [1, 1], [1, 1], True)
    b4 = conv_bn(g, b4, "inc.b4", 12, 2, 1, 1, 0)
    y = g.call("aten.cat.default", [b1, b2, b3, b4], 1)
    y = g.call("aten.avg_pool2d.default", y, [2, 2], [2, 2], [0, 0], True, True, None)
    p = g.call("aten.adaptive_avg_pool2d.default", y, [1, 1])
    p = g.call("aten.flatten.using_ints", p, 1, -1)
    p = g.call("aten.dropout.default", p, 0.2, False)
    logits = linear(g, p, "classifier", 16, 7)
    g.output([y, logits])
    g.add_examples([{"x": [2, 3, 32, 32]}, {"x": [1, 3, 1, 1]}, {"x": [1, 3, 9, 15]},
                    {"x": [3, 3, 4, 4]}, {"x": [1, 3, 5, 2]}, {"x": [2, 3, 8, 3]},
                    {"x": [1, 2, 8, 8]}])
    return g


@graph
def seg_decoder():
    g = G("mb_seg_decoder", {"x": ["batch", 3, "height", "width"]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    H = g.size(x, 2); W = g.size(x, 3)
    e1 = conv_bn(g, x, "enc1", 3, 8, 3, 1, 1)
    e2 = conv_bn(g, e1, "enc2", 8, 12, 3, 2, 1)
    e3 = conv_bn(g, e2, "enc3", 12, 16, 3, 2, 1)
    # ASPP: 1x1 branch, dilated branch, image pooling branch upsampled back
    a1 = conv_bn(g, e3, "aspp.b0", 16, 8, 1, 1, 0)
    wd = g.attr("aspp.b1.conv.weight", [8, 16, 3, 3])
    a2 = g.call("aten.relu.default", g.call("aten.conv2d.default", e3, wd, None, [1, 1], [2, 2], [2, 2], 1))
    h3 = g.size(e3, 2); w3 = g.size(e3, 3)
    a3 = g.call("aten.adaptive_avg_pool2d.default", e3, [1, 1])
    a3 = conv_bn(g, a3, "aspp.pool", 16, 8, 1, 1, 0)
    a3 = g.call("aten.upsample_bilinear2d.vec", a3, [h3, w3], False, None)
    a = g.call("aten.cat.default", [a1, a2, a3], 1)
    a = conv_bn(g, a, "aspp.project", 24, 12, 1, 1, 0)
    # FPN/UNet decoder: upsample to the skip's size, cat with skip
    h2 = g.size(e2, 2); w2 = g.size(e2, 3)
    u = g.call("aten.upsample_nearest2d.vec", a, [h2, w2], None)
    u = g.call("aten.cat.default", [u, e2], 1)
    u = conv_bn(g, u, "dec2", 24, 8, 3, 1, 1)
    h1 = g.size(e1, 2); w1 = g.size(e1, 3)
    u = g.call("aten.upsample_bilinear2d.vec", u, [h1, w1], True, None)
    u = g.call("aten.add.Tensor", u, e1)
    # lateral with scale factor 2 (nearest) then crop back with slices to skip size
    l = g.call("aten.upsample_nearest2d.vec", e2, None, [2.0, 2.0])
    l = g.call("aten.slice.Tensor", l, 2, 0, h1, 1)
    l = g.call("aten.slice.Tensor", l, 3, 0, w1, 1)
    lc = g.call("aten.conv2d.default", l, g.attr("lat.weight", [8, 12, 1, 1]), None, [1, 1], [0, 0], [1, 1], 1)
    u = g.call("aten.add.Tensor", u, lc)
    out = g.call("aten.conv2d.default", u, g.attr("cls.weight", [5, 8, 1, 1]), g.attr("cls.bias", [5]),
                 [1, 1], [0, 0], [1, 1], 1)
    out = g.call("aten.upsample_bilinear2d.vec", out, [H, W], False, None)
    g.output(out)
    g.add_examples([{"x": [2, 3, 32, 32]}, {"x": [1, 3, 1, 1]}, {"x": [1, 3, 17, 9]},
                    {"x": [3, 3, 4, 4]}, {"x": [1, 3, 2, 5]}, {"x": [2, 3, 7, 31]},
                    {"x": [1, 5, 8, 8]}, {"x": [1, 3, 3, 3]}])
    return g


@graph
def bert_block():
    V, P, C, H = 30, 24, 16, 2
    D = C // H
    g = G("mb_bert_block", {"input_ids": ["batch", "seq"], "attention_mask": ["batch", "seq"]},
          dims(batch=(1, None), seq=(1, P)))
    ids = g.ph("input_ids", "int64", rng=(0, V)); am = g.ph("attention_mask", "int64", rng=(0, 2))
    B = g.size(ids, 0); T = g.size(ids, 1)
    # registered buffers: position_ids (1, P) and token_type_ids (1, P), sliced to T and expanded
    pbuf = g.attr("embeddings.position_ids", [1, P], "int64", data=list(range(P)))
    pid = g.call("aten.slice.Tensor", pbuf, 1, 0, T, 1)
    tbuf = g.attr("embeddings.token_type_ids", [1, P], "int64", data=[0] * P)
    tt = g.call("aten.slice.Tensor", tbuf, 1, 0, T, 1)
    tt = g.call("aten.expand.default", tt, [B, T])
    we = g.call("aten.embedding.default", g.attr("embeddings.word_embeddings.weight", [V, C]), ids, 0, False, False)
    te = g.call("aten.embedding.default", g.attr("embeddings.token_type_embeddings.weight", [2, C]), tt, -1, False, False)
    x = g.call("aten.add.Tensor", we, te)
    pe = g.call("aten.embedding.default", g.attr("embeddings.position_embeddings.weight", [P, C]), pid, -1, False, False)
    x = g.call("aten.add_.Tensor", x, pe)
    x = layer_norm(g, x, "embeddings.LayerNorm", C)
    # extended mask am[:, None, None, :]
    m = g.call("aten.slice.Tensor", am, 0, 0, INT64_MAX, 1)
    m = g.call("aten.unsqueeze.default", m, 1)
    m = g.call("aten.unsqueeze.default", m, 2)
    m = g.call("aten.slice.Tensor", m, 3, 0, INT64_MAX, 1)
    m = g.call("aten.to.dtype", m, F32, False, False, None)
    m = g.call("aten.rsub.Scalar", m, 1.0)
    m = g.call("aten.mul.Tensor", m, -3.4028234663852886e+38)

    def heads(t):
        n0 = g.size(t, 0); n1 = g.size(t, 1)
        t = g.call("aten.view.default", t, [n0, n1, H, D])
        return g.call("aten.permute.default", t, [0, 2, 1, 3])
    q = heads(linear(g, x, "attention.self.query", C, C))
    k = heads(linear(g, x, "attention.self.key", C, C))
    v = heads(linear(g, x, "attention.self.value", C, C))
    s = g.call("aten.matmul.default", q, g.call("aten.transpose.int", k, -1, -2))
    s = g.call("aten.div.Tensor", s, 2.8284271247461903)
    s = g.call("aten.add.Tensor", s, m)
    s = g.call("aten.softmax.int", s, -1, None)
    o = g.call("aten.matmul.default", s, v)
    o = g.call("aten.permute.default", o, [0, 2, 1, 3])
    o = g.call("aten.contiguous.default", o)
    o0 = g.size(o, 0); o1 = g.size(o, 1)
    o = g.call("aten.view.default", o, [o0, o1, C])
    x = layer_norm(g, g.call("aten.add.Tensor", linear(g, o, "attention.output.dense", C, C), x), "attention.output.LayerNorm", C)
    h = g.call("aten.gelu.default", linear(g, x, "intermediate.dense", C, 4 * C))
    x = layer_norm(g, g.call("aten.add.Tensor", linear(g, h, "output.dense", 4 * C, C), x), "output.LayerNorm", C)
    first = g.call("aten.select.int", g.call("aten.slice.Tensor", x, 0, 0, INT64_MAX, 1), 1, 0)
    pooled = g.call("aten.tanh.default", linear(g, first, "pooler.dense", C, C))
    logits = linear(g, pooled, "classifier", C, 3)
    # token classification head with baddbmm-free path: view(-1, C)
    tok = g.call("aten.view.default", x, [-1, C])
    tok = linear(g, tok, "token_classifier", C, 4)
    g.output([logits, tok])
    g.add_examples([{"input_ids": [2, 7], "attention_mask": [2, 7]}, {"input_ids": [1, 1], "attention_mask": [1, 1]},
                    {"input_ids": [1, 24], "attention_mask": [1, 24]}, {"input_ids": [3, 2], "attention_mask": [3, 2]},
                    {"input_ids": [2, 25], "attention_mask": [2, 25]}, {"input_ids": [2, 7], "attention_mask": [2, 5]},
                    {"input_ids": [2, 7], "attention_mask": [1, 7]}])
    return g


@graph
def swin_window():
    C, WS = 8, 4
    g = G("mb_swin_window", {"x": ["batch", "height", "width", C]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    B = g.size(x, 0); H = g.size(x, 1); W = g.size(x, 2)
    x = layer_norm(g, x, "norm1", C)
    # pad H, W up to a multiple of the window size
    ph = g.call("operator.mod", g.call("operator.sub", WS, g.call("operator.mod", H, WS)), WS)
    pw = g.call("operator.mod", g.call("operator.sub", WS, g.call("operator.mod", W, WS)), WS)
    x = g.call("aten.constant_pad_nd.default", x, [0, 0, 0, pw, 0, ph], 0.0)
    Hp = g.size(x, 1); Wp = g.size(x, 2)
    x = g.call("aten.roll.default", x, [-2, -2], [1, 2])
    nh = g.call("operator.floordiv", Hp, WS); nw = g.call("operator.floordiv", Wp, WS)
    w = g.call("aten.view.default", x, [B, nh, WS, nw, WS, C])
    w = g.call("aten.permute.default", w, [0, 1, 3, 2, 4, 5])
    w = g.call("aten.contiguous.default", w)
    w = g.call("aten.view.default", w, [-1, WS * WS, C])
    qkv = linear(g, w, "attn.qkv", C, 3 * C)
    Bw = g.size(qkv, 0); Nw = g.size(qkv, 1)
    qkv = g.call("aten.reshape.default", qkv, [Bw, Nw, 3, 2, C // 2])
    qkv = g.call("aten.permute.default", qkv, [2, 0, 3, 1, 4])
    q = g.call("aten.select.int", qkv, 0, 0); k = g.call("aten.select.int", qkv, 0, 1)
    v = g.call("aten.select.int", qkv, 0, 2)
    q = g.call("aten.mul.Tensor", q, 0.5)
    a = g.call("aten.matmul.default", q, g.call("aten.transpose.int", k, -2, -1))
    rel = g.attr("attn.relative_position_bias", [2, WS * WS, WS * WS])
    a = g.call("aten.add.Tensor", a, g.call("aten.unsqueeze.default", rel, 0))
    a = g.call("aten.softmax.int", a, -1, None)
    o = g.call("aten.matmul.default", a, v)
    o = g.call("aten.transpose.int", o, 1, 2)
    o = g.call("aten.reshape.default", o, [Bw, Nw, C])
    o = linear(g, o, "attn.proj", C, C)
    # window reverse
    o = g.call("aten.view.default", o, [-1, WS, WS, C])
    o = g.call("aten.view.default", o, [B, nh, nw, WS, WS, C])
    o = g.call("aten.permute.default", o, [0, 1, 3, 2, 4, 5])
    o = g.call("aten.contiguous.default", o)
    o = g.call("aten.view.default", o, [B, Hp, Wp, -1])
    o = g.call("aten.roll.default", o, [2, 2], [1, 2])
    o = g.call("aten.slice.Tensor", o, 1, 0, H, 1)
    o = g.call("aten.slice.Tensor", o, 2, 0, W, 1)
    o = g.call("aten.contiguous.default", o)
    # patch merging: pad to even H, W, then the 2x2 neighbourhood via strided slices
    oh = g.size(o, 1); ow = g.size(o, 2)
    o2 = g.call("aten.constant_pad_nd.default", o, [0, 0, 0, g.call("operator.mod", ow, 2), 0,
                                                    g.call("operator.mod", oh, 2)], 0.0)
    x0 = g.call("aten.slice.Tensor", g.call("aten.slice.Tensor", o2, 1, 0, INT64_MAX, 2), 2, 0, INT64_MAX, 2)
    x1 = g.call("aten.slice.Tensor", g.call("aten.slice.Tensor", o2, 1, 1, INT64_MAX, 2), 2, 0, INT64_MAX, 2)
    x2 = g.call("aten.slice.Tensor", g.call("aten.slice.Tensor", o2, 1, 0, INT64_MAX, 2), 2, 1, INT64_MAX, 2)
    x3 = g.call("aten.slice.Tensor", g.call("aten.slice.Tensor", o2, 1, 1, INT64_MAX, 2), 2, 1, INT64_MAX, 2)
    mg = g.call("aten.cat.default", [x0, x1, x2, x3], -1)
    mg = g.call("aten.flatten.using_ints", mg, 1, 2)
    mg = g.call("aten.mean.dim", mg, [1], False)
    g.output([o, mg])
    g.add_examples([{"x": [2, 8, 8, C]}, {"x": [1, 1, 1, C]}, {"x": [1, 7, 5, C]}, {"x": [3, 4, 12, C]},
                    {"x": [1, 2, 2, C]}, {"x": [2, 9, 3, C]}, {"x": [1, 8, 8, 6]}, {"x": [1, 0, 4, C]}])
    return g


@graph
def shuffle_dense_blocks():
    g = G("mb_shuffle_dense", {"x": ["batch", 8, "height", "width"]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    # ShuffleNetV2 unit: chunk, branch, cat, shuffle with sizes read from the tensor
    ch = g.call("aten.chunk.default", x, 2, 1)
    x1 = g.getitem(ch, 0); x2 = g.getitem(ch, 1)
    b = conv_bn(g, x2, "branch2.0", 4, 4, 1, 1, 0)
    b = conv_bn(g, b, "branch2.1", 4, 4, 3, 1, 1, groups=4, relu=False)
    b = conv_bn(g, b, "branch2.2", 4, 4, 1, 1, 0)
    y = g.call("aten.cat.default", [x1, b], 1)
    B = g.size(y, 0); Cc = g.size(y, 1); Hh = g.size(y, 2); Ww = g.size(y, 3)
    cpg = g.call("operator.floordiv", Cc, 2)
    y = g.call("aten.view.default", y, [B, 2, cpg, Hh, Ww])
    y = g.call("aten.transpose.int", y, 1, 2)
    y = g.call("aten.contiguous.default", y)
    y = g.call("aten.view.default", y, [B, -1, Hh, Ww])
    # DenseNet layers: concat of features, transition with avg pool
    feats = [y]
    for i in range(2):
        inp = g.call("aten.cat.default", list(feats), 1)
        cin = 8 + 4 * i
        t = g.call("aten.relu.default", g.call("aten.batch_norm.default", inp, g.attr(f"dense{i}.norm.weight", [cin]),
                   g.attr(f"dense{i}.norm.bias", [cin]), g.attr(f"dense{i}.norm.running_mean", [cin]),
                   g.attr(f"dense{i}.norm.running_var", [cin]), False, 0.1, 1e-05, True))
        t = g.call("aten.conv2d.default", t, g.attr(f"dense{i}.conv.weight", [4, cin, 3, 3]), None, [1, 1], [1, 1], [1, 1], 1)
        feats.append(t)
    y = g.call("aten.cat.default", feats, 1)
    y = g.call("aten.avg_pool2d.default", y, [2, 2], [2, 2], [0, 0], False, True, None)
    # super-resolution style tail: pixel_shuffle and upsample by scale factor
    z = g.call("aten.conv2d.default", y, g.attr("ps.weight", [12, 16, 3, 3]), None, [1, 1], [1, 1], [1, 1], 1)
    z = g.call("aten.pixel_shuffle.default", z, 2)
    u = g.call("aten.upsample_bilinear2d.vec", y, None, False, [2.0, 2.0])
    z = g.call("aten.cat.default", [z, u], 1)
    gp = g.call("aten.mean.dim", z, [-2, -1], True)
    gp = g.call("aten.flatten.using_ints", gp, 1, -1)
    g.output([z, gp])
    g.add_examples([{"x": [2, 8, 8, 8]}, {"x": [1, 8, 2, 2]}, {"x": [1, 8, 7, 9]}, {"x": [3, 8, 3, 2]},
                    {"x": [1, 8, 1, 4]}, {"x": [2, 8, 5, 16]}, {"x": [1, 8, 1, 1]}, {"x": [1, 6, 8, 8]}])
    return g


@graph
def convnext_block():
    C = 8
    g = G("mb_convnext_block", {"x": ["batch", 3, "height", "width"]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    # stem: patchify conv stride 4, LayerNorm2d via permute
    y = g.call("aten.conv2d.default", x, g.attr("stem.0.weight", [C, 3, 4, 4]), g.attr("stem.0.bias", [C]),
               [4, 4], [0, 0], [1, 1], 1)
    y = g.call("aten.permute.default", y, [0, 2, 3, 1])
    y = layer_norm(g, y, "stem.1", C)
    y = g.call("aten.permute.default", y, [0, 3, 1, 2])
    # block: dw 7x7, permute, LN, MLP, layer scale, permute back, residual
    r = g.call("aten.conv2d.default", y, g.attr("block.dwconv.weight", [C, 1, 7, 7]), g.attr("block.dwconv.bias", [C]),
               [1, 1], [3, 3], [1, 1], C)
    r = g.call("aten.permute.default", r, [0, 2, 3, 1])
    r = layer_norm(g, r, "block.norm", C)
    r = linear(g, r, "block.pwconv1", C, 4 * C)
    r = g.call("aten.gelu.default", r)
    r = linear(g, r, "block.pwconv2", 4 * C, C)
    r = g.call("aten.mul.Tensor", g.attr("block.layer_scale", [C]), r)
    r = g.call("aten.permute.default", r, [0, 3, 1, 2])
    y = g.call("aten.add.Tensor", y, r)
    # downsample: LN2d + conv 2x2 stride 2
    d = g.call("aten.permute.default", y, [0, 2, 3, 1])
    d = layer_norm(g, d, "down.0", C)
    d = g.call("aten.permute.default", d, [0, 3, 1, 2])
    d = g.call("aten.conv2d.default", d, g.attr("down.1.weight", [2 * C, C, 2, 2]), g.attr("down.1.bias", [2 * C]),
               [2, 2], [0, 0], [1, 1], 1)
    p = g.call("aten.adaptive_avg_pool2d.default", d, [1, 1])
    p = g.call("aten.permute.default", p, [0, 2, 3, 1])
    p = layer_norm(g, p, "head.norm", 2 * C)
    p = g.call("aten.permute.default", p, [0, 3, 1, 2])
    p = g.call("aten.flatten.using_ints", p, 1, -1)
    logits = linear(g, p, "head.fc", 2 * C, 6)
    g.output([d, logits])
    g.add_examples([{"x": [2, 3, 32, 32]}, {"x": [1, 3, 8, 8]}, {"x": [1, 3, 9, 13]}, {"x": [3, 3, 11, 27]},
                    {"x": [1, 3, 16, 8]}, {"x": [2, 3, 4, 40]}, {"x": [1, 3, 3, 8]}, {"x": [1, 3, 8, 7]}])
    return g


@graph
def roberta_distil_block():
    V, P, C, H, PAD = 20, 34, 16, 4, 1
    D = C // H
    g = G("mb_roberta_distil", {"input_ids": ["batch", "seq"], "attention_mask": ["batch", "seq"]},
          dims(batch=(1, None), seq=(1, 32)))
    ids = g.ph("input_ids", "int64", rng=(0, V)); am = g.ph("attention_mask", "int64", rng=(0, 2))
    # roberta position ids from input_ids: cumsum of the non-pad mask
    ne = g.call("aten.ne.Scalar", ids, PAD)
    mk = g.call("aten._to_copy.default", ne, dtype={"dtype": "int32"})
    cs = g.call("aten.cumsum.default", mk, 1)
    cs = g.call("aten.type_as.default", cs, mk)
    inc = g.call("aten.mul.Tensor", cs, mk)
    pid = g.call("aten.add.Tensor", g.call("aten._to_copy.default", inc, dtype=I64), PAD)
    x = g.call("aten.embedding.default", g.attr("embeddings.word_embeddings.weight", [V, C]), ids, PAD, False, False)
    x = g.call("aten.add.Tensor", x, g.call("aten.embedding.default", g.attr("embeddings.position_embeddings.weight", [P, C]),
                                            pid, PAD, False, False))
    x = layer_norm(g, x, "embeddings.LayerNorm", C)
    # distilbert attention: q/k/v via view(bs, -1, H, D).transpose(1, 2); mask (bs, 1, 1, k_len) expand_as scores
    bs = g.size(x, 0); ql = g.size(x, 1); kl = g.size(x, 1)

    def shape(t):
        return g.call("aten.transpose.int", g.call("aten.view.default", t, [bs, -1, H, D]), 1, 2)
    q = shape(linear(g, x, "attention.q_lin", C, C))
    k = shape(linear(g, x, "attention.k_lin", C, C))
    v = shape(linear(g, x, "attention.v_lin", C, C))
    q = g.call("aten.div.Tensor", q, 2.0)
    sc = g.call("aten.matmul.default", q, g.call("aten.transpose.int", k, 2, 3))
    m = g.call("aten.eq.Scalar", am, 0)
    m = g.call("aten.view.default", m, [bs, 1, 1, kl])
    m = g.call("aten.expand_as.default", m, sc)
    fmin = g.call("aten.scalar_tensor.default", -3.4028234663852886e+38, dtype=F32)
    sc = g.call("aten.masked_fill.Tensor", sc, m, fmin)
    w = g.call("aten.softmax.int", sc, -1, None)
    ctx = g.call("aten.matmul.default", w, v)
    ctx = g.call("aten.transpose.int", ctx, 1, 2)
    ctx = g.call("aten.contiguous.default", ctx)
    ctx = g.call("aten.view.default", ctx, [bs, -1, H * D])
    x = layer_norm(g, g.call("aten.add.Tensor", linear(g, ctx, "attention.out_lin", C, C), x), "sa_layer_norm", C)
    # classification on the first token
    h = g.call("aten.slice.Tensor", x, 0, 0, INT64_MAX, 1)
    h = g.call("aten.select.int", h, 1, 0)
    h = g.call("aten.relu.default", linear(g, h, "pre_classifier", C, C))
    logits = linear(g, h, "classifier", C, 2)
    # question-answering head: split into start/end logits, squeeze(-1)
    qa = linear(g, x, "qa_outputs", C, 2)
    se = g.call("aten.split.Tensor", qa, 1, -1)
    st = g.call("aten.squeeze.dim", g.getitem(se, 0), -1)
    en = g.call("aten.squeeze.dim", g.getitem(se, 1), -1)
    g.output([logits, st, en])
    g.add_examples([{"input_ids": [2, 9], "attention_mask": [2, 9]}, {"input_ids": [1, 1], "attention_mask": [1, 1]},
                    {"input_ids": [1, 32], "attention_mask": [1, 32]}, {"input_ids": [4, 3], "attention_mask": [4, 3]},
                    {"input_ids": [3, 1], "attention_mask": [3, 1]}, {"input_ids": [2, 9], "attention_mask": [2, 8]},
                    {"input_ids": [1, 40], "attention_mask": [1, 40]}])
    return g


@graph
def classic_cnn_heads():
    g = G("mb_classic_cnn_heads", {"x": ["batch", 3, "height", "width"]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    # inception/googlenet transform_input: per-channel select, unsqueeze, affine, cat
    chans = []
    for i, (m, s_) in enumerate([(0.485, 0.229), (0.456, 0.224), (0.406, 0.225)]):
        c = g.call("aten.select.int", x, 1, i)
        c = g.call("aten.unsqueeze.default", c, 1)
        c = g.call("aten.mul.Tensor", c, s_ / 0.5)
        c = g.call("aten.add.Tensor", c, (m - 0.5) / 0.5)
        chans.append(c)
    x = g.call("aten.cat.default", chans, 1)
    # alexnet/vgg-like features with ceil-mode pools (googlenet / squeezenet)
    y = g.call("aten.relu_.default", g.call("aten.conv2d.default", x, g.attr("features.0.weight", [8, 3, 3, 3]),
               g.attr("features.0.bias", [8]), [2, 2], [1, 1], [1, 1], 1))
    y = g.call("aten.max_pool2d.default", y, [3, 3], [2, 2], [0, 0], [1, 1], True)
    # squeezenet fire module
    sq = g.call("aten.relu.default", g.call("aten.conv2d.default", y, g.attr("fire.squeeze.weight", [4, 8, 1, 1]),
               g.attr("fire.squeeze.bias", [4]), [1, 1], [0, 0], [1, 1], 1))
    e1 = g.call("aten.relu.default", g.call("aten.conv2d.default", sq, g.attr("fire.expand1x1.weight", [6, 4, 1, 1]),
               g.attr("fire.expand1x1.bias", [6]), [1, 1], [0, 0], [1, 1], 1))
    e3 = g.call("aten.relu.default", g.call("aten.conv2d.default", sq, g.attr("fire.expand3x3.weight", [6, 4, 3, 3]),
               g.attr("fire.expand3x3.bias", [6]), [1, 1], [1, 1], [1, 1], 1))
    y = g.call("aten.cat.default", [e1, e3], 1)
    # vgg/alexnet head: adaptive pool to a fixed grid, flatten, dropout, linear
    a = g.call("aten.adaptive_avg_pool2d.default", y, [3, 3])
    a = g.call("aten.flatten.using_ints", a, 1, -1)
    a = g.call("aten.dropout.default", a, 0.5, False)
    a = g.call("aten.relu_.default", linear(g, a, "classifier.1", 12 * 9, 16))
    logits = linear(g, a, "classifier.4", 16, 10)
    # googlenet aux-style: adaptive_avg_pool2d (4, 4) + conv + flatten + linear
    aux = g.call("aten.adaptive_avg_pool2d.default", y, [4, 4])
    aux = g.call("aten.conv2d.default", aux, g.attr("aux.conv.weight", [4, 12, 1, 1]), None, [1, 1], [0, 0], [1, 1], 1)
    aux = g.call("aten.flatten.using_ints", aux, 1, -1)
    aux = linear(g, aux, "aux.fc", 64, 10)
    # squeezenet classifier: conv to classes, adaptive pool 1x1, flatten
    sc = g.call("aten.conv2d.default", y, g.attr("final_conv.weight", [10, 12, 1, 1]), g.attr("final_conv.bias", [10]),
                [1, 1], [0, 0], [1, 1], 1)
    sc = g.call("aten.adaptive_avg_pool2d.default", g.call("aten.relu.default", sc), [1, 1])
    sc = g.call("aten.flatten.using_ints", sc, 1, -1)
    g.output([logits, aux, sc])
    g.add_examples([{"x": [2, 3, 32, 32]}, {"x": [1, 3, 3, 3]}, {"x": [1, 3, 13, 9]}, {"x": [3, 3, 6, 5]},
                    {"x": [1, 3, 24, 4]}, {"x": [2, 3, 64, 17]}, {"x": [1, 3, 1, 1]}, {"x": [1, 3, 2, 8]},
                    {"x": [1, 1, 8, 8]}])
    return g


@graph
def hf_gpt2_conv1d_block():
    V, P, C, H = 30, 20, 12, 3
    D = C // H
    g = G("mb_hf_gpt2_conv1d", {"input_ids": ["batch", "seq"], "attention_mask": ["batch", "seq"]},
          dims(batch=(1, None), seq=(1, P)))
    ids = g.ph("input_ids", "int64", rng=(0, V)); am = g.ph("attention_mask", "int64", rng=(0, 2))
    T = g.size(ids, 1)
    ids = g.call("aten.view.default", ids, [-1, T])
    B = g.size(ids, 0)
    # past_length = 0: position_ids = arange(0, T + 0).unsqueeze(0).view(-1, T)
    end = g.call("operator.add", T, 0)
    pid = g.call("aten.arange.start", 0, end, dtype=I64)
    pid = g.call("aten.unsqueeze.default", pid, 0)
    pid = g.call("aten.view.default", pid, [-1, T])
    m = g.call("aten.view.default", am, [B, -1])
    m = g.call("aten.unsqueeze.default", g.call("aten.unsqueeze.default", m, 1), 2)
    m = g.call("aten.to.dtype", m, F32, False, False, None)
    m = g.call("aten.mul.Tensor", g.call("aten.rsub.Scalar", m, 1.0), -3.4028234663852886e+38)
    x = g.call("aten.add.Tensor",
               g.call("aten.embedding.default", g.attr("wte.weight", [V, C]), ids, -1, False, False),
               g.call("aten.embedding.default", g.attr("wpe.weight", [P, C]), pid, -1, False, False))
    h = layer_norm(g, x, "h.0.ln_1", C)

    def conv1d(t, prefix, nx, nf):
        s0 = g.size(t, 0); s1 = g.size(t, 1)
        w = g.attr(prefix + ".weight", [nx, nf]); b = g.attr(prefix + ".bias", [nf])
        s2 = g.size(t, 2)
        y = g.call("aten.addmm.default", b, g.call("aten.view.default", t, [-1, s2]), w)
        return g.call("aten.view.default", y, [s0, s1, nf])
    qkv = conv1d(h, "h.0.attn.c_attn", C, 3 * C)
    sp = g.call("aten.split.Tensor", qkv, C, 2)

    def split_heads(t):
        a0 = g.size(t, 0); a1 = g.size(t, 1)
        return g.call("aten.permute.default", g.call("aten.view.default", t, [a0, a1, H, D]), [0, 2, 1, 3])
    q, k, v = (split_heads(g.getitem(sp, i)) for i in range(3))
    w = g.call("aten.matmul.default", q, g.call("aten.transpose.int", k, -1, -2))
    vd = g.size(v, 3)
    sc = g.call("operator.pow", vd, 0.5)
    w = g.call("aten.div.Tensor", w, g.call("aten.full.default", [], sc, dtype=F32))
    ql = g.size(q, 2); kl = g.size(k, 2)
    bias = g.attr("h.0.attn.bias", [1, 1, P, P], "bool", data=[j <= i for i in range(P) for j in range(P)])
    st = g.call("operator.sub", kl, ql)
    cm = g.call("aten.slice.Tensor", bias, 0, 0, INT64_MAX, 1)
    cm = g.call("aten.slice.Tensor", cm, 1, 0, INT64_MAX, 1)
    cm = g.call("aten.slice.Tensor", cm, 2, st, kl, 1)
    cm = g.call("aten.slice.Tensor", cm, 3, 0, kl, 1)
    mv = g.call("aten.full.default", [], -3.4028234663852886e+38, dtype=F32)
    w = g.call("aten.where.self", cm, g.call("aten.to.dtype", w, F32, False, False, None), mv)
    w = g.call("aten.add.Tensor", w, m)
    w = g.call("aten.softmax.int", w, -1, None)
    w = g.call("aten.type_as.default", w, v)
    o = g.call("aten.matmul.default", w, v)
    o = g.call("aten.contiguous.default", g.call("aten.permute.default", o, [0, 2, 1, 3]))
    o0 = g.size(o, 0); o1 = g.size(o, 1)
    o = g.call("aten.view.default", o, [o0, o1, H * D])
    o = conv1d(o, "h.0.attn.c_proj", C, C)
    x = g.call("aten.add.Tensor", o, x)
    h = layer_norm(g, x, "h.0.ln_2", C)
    h = conv1d(h, "h.0.mlp.c_fc", C, 4 * C)
    h = g.call("aten.gelu.default", h, approximate="tanh")
    h = conv1d(h, "h.0.mlp.c_proj", 4 * C, C)
    x = g.call("aten.add.Tensor", x, h)
    # sequence-classification pooling: logits at the last non-pad token
    logits = linear(g, layer_norm(g, x, "ln_f", C), "score", C, 2, bias=False)
    ne = g.call("aten.ne.Scalar", ids, 0)
    last = g.call("aten.sub.Tensor", g.call("aten.sum.dim_IntList", ne, [-1], False), 1)
    ar = g.call("aten.arange.default", B, dtype=I64)
    pooled = g.call("aten.index.Tensor", logits, [ar, last])
    g.output([logits, pooled])
    g.add_examples([{"input_ids": [2, 7], "attention_mask": [2, 7]}, {"input_ids": [1, 1], "attention_mask": [1, 1]},
                    {"input_ids": [1, 20], "attention_mask": [1, 20]}, {"input_ids": [3, 4], "attention_mask": [3, 4]},
                    {"input_ids": [4, 1], "attention_mask": [4, 1]}, {"input_ids": [2, 21], "attention_mask": [2, 21]},
                    {"input_ids": [2, 7], "attention_mask": [2, 6]}])
    return g


@graph
def torch_mha_encoder_layer():
    # nn.TransformerEncoderLayer(batch_first=True) / F.multi_head_attention_forward in 1.13, as traced
    E, NH = 12, 3
    HD = E // NH
    g = G("mb_torch_mha_encoder", {"src": ["batch", "seq", E], "key_padding_mask": ["batch", "seq"]},
          dims(batch=(1, None), seq=(1, None)))
    src = g.ph("src"); kpm = g.ph("key_padding_mask", "bool")
    x = g.call("aten.transpose.int", src, 1, 0)
    tl = g.size(x, 0); bsz = g.size(x, 1)
    proj = linear(g, x, "self_attn.in_proj", E, 3 * E)
    proj = g.call("aten.unflatten.int", proj, -1, [3, E])
    proj = g.call("aten.unsqueeze.default", proj, 0)
    proj = g.call("aten.transpose.int", proj, 0, -2)
    proj = g.call("aten.squeeze.dim", proj, -2)
    proj = g.call("aten.contiguous.default", proj)
    q, k, v = (g.call("aten.select.int", proj, 0, i) for i in range(3))
    bh = g.call("operator.mul", bsz, NH)
    q = g.call("aten.transpose.int", g.call("aten.view.default", q, [tl, bh, HD]), 0, 1)
    k = g.call("aten.transpose.int", g.call("aten.view.default", k, [g.size(k, 0), bh, HD]), 0, 1)
    v = g.call("aten.transpose.int", g.call("aten.view.default", v, [g.size(v, 0), bh, HD]), 0, 1)
    sl = g.size(k, 1)
    m = g.call("aten.view.default", kpm, [bsz, 1, 1, sl])
    m = g.call("aten.expand.default", m, [-1, NH, -1, -1])
    m = g.call("aten.reshape.default", m, [bh, 1, sl])
    fm = g.call("aten.zeros_like.default", m, dtype=F32)
    fm = g.call("aten.masked_fill.Scalar", fm, m, {"float": "-inf"})
    q = g.call("aten.div.Tensor", q, 2.0)
    w = g.call("aten.baddbmm.default", fm, q, g.call("aten.transpose.int", k, -2, -1))
    w = g.call("aten.softmax.int", w, -1, None)
    o = g.call("aten.bmm.default", w, v)
    o = g.call("aten.contiguous.default", g.call("aten.transpose.int", o, 0, 1))
    o = g.call("aten.view.default", o, [g.call("operator.mul", tl, bsz), E])
    o = linear(g, o, "self_attn.out_proj", E, E)
    o = g.call("aten.view.default", o, [tl, bsz, g.size(o, 1)])
    avg = g.call("aten.view.default", w, [bsz, NH, tl, sl])
    avg = g.call("aten.mean.dim", avg, [1], False)
    o = g.call("aten.transpose.int", o, 1, 0)
    y = layer_norm(g, g.call("aten.add.Tensor", src, o), "norm1", E)
    ff = linear(g, g.call("aten.relu.default", linear(g, y, "linear1", E, 2 * E)), "linear2", 2 * E, E)
    y = layer_norm(g, g.call("aten.add.Tensor", y, ff), "norm2", E)
    # mean pooling over non-padded tokens
    keep = g.call("aten.unsqueeze.default", g.call("aten.logical_not.default", kpm), -1)
    num = g.call("aten.sum.dim_IntList", g.call("aten.mul.Tensor", y, keep), [1], False)
    den = g.call("aten.clamp.default", g.call("aten.sum.dim_IntList", keep, [1], False), 1, None)
    pooled = g.call("aten.div.Tensor", num, den)
    g.output([y, avg, pooled])
    g.add_examples([{"src": [2, 5, E], "key_padding_mask": [2, 5]}, {"src": [1, 1, E], "key_padding_mask": [1, 1]},
                    {"src": [3, 9, E], "key_padding_mask": [3, 9]}, {"src": [1, 4, E], "key_padding_mask": [1, 4]},
                    {"src": [2, 1, E], "key_padding_mask": [2, 1]}, {"src": [2, 5, E], "key_padding_mask": [2, 4]},
                    {"src": [2, 5, 10], "key_padding_mask": [2, 5]}])
    return g


@graph
def unet_pad_to_skip():
    # milesial-style UNet "Up": ConvTranspose2d x2, pad by the size difference to the skip, cat, conv
    g = G("mb_unet_pad_to_skip", {"x": ["batch", 3, "height", "width"]},
          dims(batch=(1, None), height=(1, None), width=(1, None)))
    x = g.ph("x")
    e1 = conv_bn(g, x, "inc", 3, 8, 3, 1, 1)
    d1 = g.call("aten.max_pool2d.default", e1, [2, 2], [], [0, 0], [1, 1], False)
    e2 = conv_bn(g, d1, "down1", 8, 12, 3, 1, 1)
    d2 = g.call("aten.max_pool2d.default", e2, [2, 2], [], [0, 0], [1, 1], False)
    e3 = conv_bn(g, d2, "down2", 12, 16, 3, 1, 1)

    def up(xx, skip, prefix, cin, cskip, cout):
        u = g.call("aten.conv_transpose2d.input", xx, g.attr(prefix + ".up.weight", [cin, cin // 2, 2, 2]),
                   g.attr(prefix + ".up.bias", [cin // 2]), [2, 2], [0, 0], [0, 0], 1, [1, 1])
        dy = g.call("operator.sub", g.size(skip, 2), g.size(u, 2))
        dx = g.call("operator.sub", g.size(skip, 3), g.size(u, 3))
        hx = g.call("operator.floordiv", dx, 2); hy = g.call("operator.floordiv", dy, 2)
        u = g.call("aten.constant_pad_nd.default", u,
                   [hx, g.call("operator.sub", dx, hx), hy, g.call("operator.sub", dy, hy)], 0.0)
        c = g.call("aten.cat.default", [skip, u], 1)
        return conv_bn(g, c, prefix + ".conv", cskip + cin // 2, cout, 3, 1, 1)
    u = up(e3, e2, "up1", 16, 12, 12)
    u = up(u, e1, "up2", 12, 8, 8)
    out = g.call("aten.conv2d.default", u, g.attr("outc.weight", [2, 8, 1, 1]), g.attr("outc.bias", [2]),
                 [1, 1], [0, 0], [1, 1], 1)
    g.output(out)
    g.add_examples([{"x": [2, 3, 16, 16]}, {"x": [1, 3, 4, 4]}, {"x": [1, 3, 7, 5]}, {"x": [3, 3, 9, 13]},
                    {"x": [1, 3, 6, 11]}, {"x": [2, 3, 3, 8]}, {"x": [1, 3, 1, 8]}, {"x": [1, 2, 8, 8]}])
    return g


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "data", "differential", "model_blocks")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    for fn in GRAPHS:
        g = fn()
        path = os.path.join(out, g.name + ".graph.json")
        with open(path, "w") as f:
            json.dump(g.to_json(), f, separators=(", ", ": "))
            f.write("\n")
        nok = sum(e["ok"] for e in g.examples)
        nin = sum(e["in_spec"] for e in g.examples)
        print(f"{g.name}: {len(g.examples)} examples, {nin} in spec, {nok} ok", file=sys.stderr)
        for e in g.examples:
            if not e["ok"]:
                print(f"   {e['inputs']} in_spec={e['in_spec']} {e['error_node']}: {e['error'][:110]}",
                      file=sys.stderr)


if __name__ == "__main__":
    main()
