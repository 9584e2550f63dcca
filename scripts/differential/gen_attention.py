#!/usr/bin/python3
"""Differential conformance graphs for scaled_dot_product_attention's CPU output layout across
PyTorch 2.13 and 2.14: 2.14's flash selection also takes key / value heads of 1 against more
query heads (`supports_mqa`) and unbatched 3-d inputs (`normalize_unbatched_input`), where
2.13 runs the math path; the flash output is `empty_like(query)`, the math one contiguous.
Queries in several layouts (contiguous, BLHE, sliced, query length 1), masks of 2 to 4 dims,
enable_gqa, dynamic sizes whose examples include 1.

Regenerate (run from anywhere; OUT_DIR defaults to data/differential/attention):

    /opt/symshape-venv/bin/python scripts/differential/gen_attention.py [OUT_DIR]          # 2.13 goldens
    /opt/symshape-models-venv/bin/python scripts/differential/gen_attention.py [OUT_DIR]   # 2.14 goldens
    /usr/bin/python3 scripts/differential/gen_attention.py --diff [OUT_DIR]               # what differs

Every graph is written once per release, `<name>_2_13.graph.json` and `<name>_2_14.graph.json`,
each with its release in `producer.torch`; the engine picks the rules of the graph's producer
(docs/torchref.md, "Eager layouts"). 1.13 has no scaled_dot_product_attention. The graph
builder and the golden recorder are gen_conv_pool_matmul.py's. CI has no torch: the committed
JSON is the test data (ctest conform_differential_attention).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_conv_pool_matmul as base  # noqa: E402
import torch  # noqa: E402

N = base.N
SDPA = "aten.scaled_dot_product_attention.default"
GRAPHS = []


def release():
    parts = torch.__version__.split("+")[0].split(".")
    return f"_{parts[0]}_{parts[1]}"


G = base.release_graph_class("gen_attention.py", release())


def graph(fn):
    GRAPHS.append(fn)
    return fn


@graph
def heads_broadcast():
    # timm mobilenetv4_hybrid's multi-query attention: q (B, H, L, D), one key / value head
    # (B, 1, S, D); at an 8x8 image L = S = 1
    g = G("diff_sdpa_heads_broadcast", {"q": ["batch", 4, "qlen", 16], "kv": ["batch", 1, "kvlen", 16],
                                        "m4": ["batch", 4, "qlen", "kvlen"], "m2": ["qlen", "kvlen"]},
          {"batch": (1, None), "qlen": (1, None), "kvlen": (1, None)})
    q = g.ph("q"); kv = g.ph("kv"); m4 = g.ph("m4"); m2 = g.ph("m2")
    blhe = g.call("aten.transpose.int", g.call("aten.clone.default", g.call("aten.transpose.int", q, 1, 2),
                                              memory_format={"memory_format": "contiguous_format"}), 1, 2)
    r1 = g.call(SDPA, q, kv, kv, None, 0.0, False)
    r2 = g.call(SDPA, blhe, kv, kv)
    r3 = g.call(SDPA, blhe, kv, kv, m4)
    r4 = g.call(SDPA, blhe, kv, kv, m2, 0.0, False)
    r5 = g.call(SDPA, blhe, kv, kv, enable_gqa=True)
    r6 = g.call(SDPA, blhe, kv, kv, None, 0.0, True)
    g.output([r1, r2, r3, r4, r5, r6])
    ex = []
    for b, l, s in [(2, 1, 1), (1, 3, 5), (3, 1, 4), (2, 5, 1), (1, 1, 1), (2, 4, 6)]:
        ex.append({"q": [b, 4, l, 16], "kv": [b, 1, s, 16], "m4": [b, 4, l, s], "m2": [l, s]})
    g.add_examples(ex)
    return g


@graph
def heads_broadcast_math():
    # what stays on the math path in both: a key batch of 1, a value of another head count,
    # another value head dim, dropout
    g = G("diff_sdpa_heads_broadcast_math", {"q": ["batch", 4, "qlen", 16], "k1": [1, 1, "kvlen", 16],
                                             "v4": ["batch", 4, "kvlen", 16], "k": ["batch", 1, "kvlen", 16],
                                             "ve": ["batch", 1, "kvlen", 8]},
          {"batch": (1, None), "qlen": (1, None), "kvlen": (1, None)})
    q = g.ph("q"); k1 = g.ph("k1"); v4 = g.ph("v4"); k = g.ph("k"); ve = g.ph("ve")
    blhe = g.call("aten.transpose.int", g.call("aten.clone.default", g.call("aten.transpose.int", q, 1, 2),
                                              memory_format={"memory_format": "contiguous_format"}), 1, 2)
    r1 = g.call(SDPA, blhe, k1, k1)
    r2 = g.call(SDPA, blhe, k, v4)
    r3 = g.call(SDPA, blhe, k, ve)
    g.output([r1, r2, r3])
    ex = []
    for b, l, s in [(2, 1, 1), (1, 3, 5), (3, 1, 4), (2, 5, 1), (2, 4, 6)]:
        ex.append({"q": [b, 4, l, 16], "k1": [1, 1, s, 16], "v4": [b, 4, s, 16], "k": [b, 1, s, 16],
                   "ve": [b, 1, s, 8]})
    g.add_examples(ex)
    return g


@graph
def unbatched():
    # 3-d (H, L, E) inputs: 2.14 gives them (and the mask) a leading batch of 1
    g = G("diff_sdpa_unbatched", {"q": ["qlen", 4, 8], "k": [4, "kvlen", 8], "k1": [1, "kvlen", 8],
                                  "m2": ["qlen", "kvlen"], "m3": [4, "qlen", "kvlen"]},
          {"qlen": (1, None), "kvlen": (1, None)})
    q = g.ph("q"); k = g.ph("k"); k1 = g.ph("k1"); m2 = g.ph("m2"); m3 = g.ph("m3")
    hle = g.call("aten.transpose.int", q, 0, 1)  # (4, len, 8), strides (8, 32, 1)
    sl = g.call("aten.slice.Tensor", g.call("aten.cat.default", [hle, hle], 2), 2, 0, 8)  # not dense, last stride 1
    r1 = g.call(SDPA, hle, k, k)
    r2 = g.call(SDPA, hle, k1, k1)
    r3 = g.call(SDPA, hle, k, k, m2)
    r4 = g.call(SDPA, hle, k, k, m3, 0.0, False)
    r5 = g.call(SDPA, sl, k, k)
    r6 = g.call(SDPA, hle, k, k, None, 0.0, True)
    g.output([r1, r2, r3, r4, r5, r6])
    ex = []
    for l, s in [(3, 5), (1, 4), (1, 1), (5, 1), (2, 2)]:
        ex.append({"q": [l, 4, 8], "k": [4, s, 8], "k1": [1, s, 8], "m2": [l, s], "m3": [4, l, s]})
    g.add_examples(ex)
    return g


def main():
    base.generator_main(GRAPHS, "attention",
                        lambda out: base.diff_versions(out, ("_2_13.graph.json", "2.13"), ("_2_14.graph.json", "2.14")))


if __name__ == "__main__":
    main()
