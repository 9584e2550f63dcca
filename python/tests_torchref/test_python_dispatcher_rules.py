"""The guards PyTorch 2.x records where torch.export and Dynamo run an op's Python
decomposition or Python meta (under the Python dispatcher) instead of its C++ kernel, against
symshape, one small graph per rule: every node and every guard compared by the harness
(torchref_prop.compare_example) with the real PyTorch, and the rule's own guard checked to be
among symshape's, so a graph that asks nothing cannot pass for a rule that works."""
import json

import pytest
import sympy
import torch

import symshape
from symshape import torchref_prop


def _graph(tmp_path, name, nodes, dims, sizes, weights=None, min_size=2):
    """A graph of input x with the spec `dims` (Dim names or ints) at `sizes`, static inputs
    `weights` ({name: sizes}), then `nodes` ((name, target, args), strings naming an input or an
    earlier node are node refs), the last one the output; one example, not executed (the
    harness only needs its sizes)."""
    weights = weights or {}
    # a weight is its static sizes, or (dims, sizes) when it shares x's Dims
    inputs = {"x": (dims, sizes), **{w: (s if isinstance(s, tuple) else (s, s)) for w, s in weights.items()}}
    names = set(inputs)

    def ref(a):
        if isinstance(a, str) and a in names:
            return {"node": a}
        if isinstance(a, list):
            return [ref(v) for v in a]
        return a
    body = [{"op": "placeholder", "name": n, "target": n, "meta": {"dtype": "float32", "rank": len(d)}}
            for n, (d, _) in inputs.items()]
    for node_name, target, args in nodes:
        body.append({"op": "call_function", "name": node_name, "target": target, "args": ref(args), "kwargs": {}})
        names.add(node_name)
    body.append({"op": "output", "name": "output", "target": "output", "args": [{"node": nodes[-1][0]}]})
    named = list(dict.fromkeys(d for ds, _ in inputs.values() for d in ds if isinstance(d, str)))
    doc = {"format": "fx-graph-json", "version": 1, "name": name, "producer": {}, "nodes": body,
           "dynamic_shapes": {"dynamic_shapes": {n: d for n, (d, _) in inputs.items()},
                              "dims": {d: {"min": min_size, "max": None, "derived": []} for d in named}},
           "examples": [{"inputs": {n: s for n, (_, s) in inputs.items()}, "seed": 0, "in_spec": True,
                         "ok": False, "error": "not executed", "error_kind": "shape"}]}
    path = tmp_path / f"{name}.graph.json"
    path.write_text(json.dumps(doc))
    return doc, str(path)


def _compare(doc, path):
    graph = symshape.load(path)
    _, _, node_diffs, guard_diffs = torchref_prop.compare_example(doc["name"], doc, graph, 0, {})
    guards = graph.propagate(example=0).guards
    return node_diffs, guard_diffs, guards


# x (N, H, W, C) permuted to a channels_last (N, C, H, W), as convnext and the MLP mixers do
_CHANNELS_LAST = [("p", "aten.permute.default", ["x", [0, 3, 1, 2]])]


def test_dropout_eval_asks_clone_density(tmp_path):
    # aten.dropout's decomposition clones the input: prims.clone's meta sorts its strides
    doc, path = _graph(tmp_path, "dropout_cl", _CHANNELS_LAST + [
        ("c", "aten.conv2d.default", ["p", "w", None, [8, 8], [0, 0], [1, 1], 1]),
        ("d", "aten.dropout.default", ["c", 0.5, False])], [1, "h", "w", 3], [1, 40, 56, 3],
        weights={"w": [4, 3, 8, 8]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any("<" in g and "// 8" in g and "*" in g for g in guards), guards


def test_depthwise_conv_on_channels_last_asks_convert_density(tmp_path):
    # convnext's depthwise conv of a channels_last input (a layer_norm over NHWC, permuted
    # back): fake_impls conv converts its row-major meta output to channels_last, and _to_copy's
    # decomposition asks is_non_overlapping_and_dense_or_false of it
    doc, path = _graph(tmp_path, "conv_cl", [
        ("s", "aten.conv2d.default", ["x", "w0", None, [4, 4], [0, 0], [1, 1], 1]),
        ("a", "aten.permute.default", ["s", [0, 2, 3, 1]]),
        ("n", "aten.layer_norm.default", ["a", [8], None, None, 1e-6, True]),
        ("b", "aten.permute.default", ["n", [0, 3, 1, 2]]),
        ("c", "aten.conv2d.default", ["b", "w1", None, [1, 1], [3, 3], [1, 1], 8])],
        [1, 3, "h", "w"], [1, 3, 64, 72], weights={"w0": [8, 3, 4, 4], "w1": [8, 1, 7, 7]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.replace(" ", "").startswith("(L['x'].size()[3]//4)<") for g in guards), guards


@pytest.mark.parametrize("op, scale", [("upsample_bilinear2d", 2), ("upsample_bicubic2d", 3)])
def test_interpolation_decompositions(tmp_path, op, scale):
    # _upsample_linear / upsample_bicubic2d_default: `arange(out).to(dtype)` asks `out < 2`;
    # bicubic's output takes the input's suggested (here channels_last) format under FakeTensorMode
    doc, path = _graph(tmp_path, op, _CHANNELS_LAST + [
        ("hs", "aten.sym_size.int", ["x", 1]),
        ("ws", "aten.sym_size.int", ["x", 2]),
        ("ho", "operator.floordiv", ["hs", scale]),
        ("wo", "operator.floordiv", ["ws", scale]),
        ("u", f"aten.{op}.vec", ["p", ["ho", "wo"], False, None])], [1, "h", "w", 8], [1, 30, 45, 8])
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert f"{2 * scale} <= L['x'].size()[1]" in guards and f"{2 * scale} <= L['x'].size()[2]" in guards, guards


def test_im2col_decomposition_reshape(tmp_path):
    # im2col's decomposition reshapes the permuted block index to (N, C*kh*kw, oh*ow): its
    # _reshape_view_helper questions are symshape's. The C++ reshape's computeStride questions
    # before them, which PyTorch asks of Max(1, size) strides, are not followed yet
    # (docs/torchref.md, "Python dispatcher"), so only the view helper's guards are compared.
    doc, path = _graph(tmp_path, "im2col", [
        ("u", "aten.im2col.default", ["x", [3, 3], [1, 1], [1, 1], [2, 2]])], [1, 4, "h", "w"], [1, 4, 13, 11],
        min_size=3)
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs == []
    view_helper = [d for d in guard_diffs if "_reshape_view_helper" in (d.get("torch_origin") or "")]
    assert view_helper == [], [(d["field"], d["torch"], d["symshape"]) for d in view_helper]
    assert any(g.startswith("(((1 + L['x'].size()[2]) // 2) % (") and g.endswith("!= 0") for g in guards), guards


def test_integral_scale_factor_is_an_exact_size(tmp_path):
    # decompositions.py upsample_compute_output_size: an integral scale multiplies the size
    # (hrnet's fuse layers add a 2x-upsampled 1/8 branch to the 1/4 one: `a == 2*b` is a guard)
    doc, path = _graph(tmp_path, "upsample_scale", [
        ("a", "aten.conv2d.default", ["x", "w4", None, [4, 4], [0, 0], [1, 1], 1]),
        ("b", "aten.conv2d.default", ["x", "w8", None, [8, 8], [0, 0], [1, 1], 1]),
        ("u", "aten.upsample_nearest2d.vec", ["b", None, [2.0, 2.0]]),
        ("s", "aten.add.Tensor", ["a", "u"])], [1, 3, "h", "w"], [1, 3, 64, 80],
        weights={"w4": [4, 3, 1, 1], "w8": [4, 3, 1, 1]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any("==" in g and "// 8" in g and "// 4" in g for g in guards), guards


def test_symbolic_conv_groups_are_not_specialised(tmp_path):
    # CondConv (timm efficientnet_cc): per-sample kernels as one grouped conv with
    # `groups=batch`; PyTorch keeps groups a SymInt, so `groups > 1` and the channel checks are
    # guards (batch in [2, 15] at batch 2 with use_mkldnn's `N >= 16`), not `batch == 2`
    doc, path = _graph(tmp_path, "cond_conv", [
        ("n", "aten.sym_size.int", ["x", 0]),
        ("nc", "operator.mul", ["n", 4]),
        ("no", "operator.mul", ["n", 6]),
        ("xr", "aten.reshape.default", ["x", [1, "nc", 16, 16]]),
        ("wr", "aten.reshape.default", ["w", ["no", 4, 1, 1]]),
        ("c", "aten.conv2d.default", ["xr", "wr", None, [1, 1], [0, 0], [1, 1], "n"])],
        ["b", 4, 16, 16], [2, 4, 16, 16], weights={"w": (["b", 6, 4, 1, 1], [2, 6, 4, 1, 1])})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert "L['x'].size()[0] == 2" not in guards, guards


def test_group_norm_decomposition_reshape(tmp_path):
    # torch/_refs native_group_norm reshapes its (contiguous) input to (N, G, C // G, H*W):
    # the view helper's guards (poolformer's `H' % (H'*W') != 0`) are symshape's. The
    # FakeTensor dispatch cache's own `H'*W' != 1` question on the reshaped tensor, which
    # symshape does not model, is not compared (docs/torchref.md, "The real corpus through
    # the harness").
    doc, path = _graph(tmp_path, "group_norm", [
        ("c", "aten.conv2d.default", ["x", "w", None, [4, 4], [2, 2], [1, 1], 1]),
        ("g", "aten.group_norm.default", ["c", 1, "gw", "gb", 1e-5, False])],
        [1, 3, "h", "w"], [1, 3, 64, 72], weights={"w": [8, 3, 7, 7], "gw": [8], "gb": [8]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs == []
    assert [d for d in guard_diffs if d["field"] == "extra"] == []
    missing = [d["torch"] for d in guard_diffs if d["field"] == "missing"]
    assert all(" % " not in g for g in missing), missing
    assert any(" % (" in g and g.endswith("!= 0") for g in guards), guards


def test_linear_output_keeps_view_strides(tmp_path):
    # convnext's layer scale: linear of a contiguous NHWC input (a layer_norm's output) is a view
    # of addmm's result (strides products of the raw sizes, no Max(1, size)); permuted back to
    # NCHW and multiplied by a (C, 1, 1) parameter, the refs' should_swap asks
    # `1 % (16*(W//4)) == 0` of those strides. The layer_norm decomposition's own questions of
    # its permuted input (var_mean's `H'*W' >= 2`) are not followed yet (docs/torchref.md), so
    # only the guards of the linear and the mul are compared.
    doc, path = _graph(tmp_path, "layer_scale", [
        ("s", "aten.conv2d.default", ["x", "w0", None, [4, 4], [0, 0], [1, 1], 1]),
        ("a", "aten.permute.default", ["s", [0, 2, 3, 1]]),
        ("n", "aten.layer_norm.default", ["a", [8], None, None, 1e-6, True]),
        ("l", "aten.linear.default", ["n", "w1", "b1"]),
        ("b", "aten.permute.default", ["l", [0, 3, 1, 2]]),
        ("m", "aten.mul.Tensor", ["g", "b"])],
        [1, 3, "h", "w"], [1, 3, 64, 72], weights={"w0": [8, 3, 4, 4], "w1": [16, 8], "b1": [16], "g": [16, 1, 1]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs]
    at_rule = [d for d in guard_diffs if d["node"] in ("l", "b", "m") or " % " in (d["torch"] or d["symshape"])]
    assert at_rule == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in at_rule]
    assert any(g.startswith("(1 % (16*(L['x'].size()[3] // 4)))") for g in guards), guards


def test_batch_norm_takes_the_stats_literal_one(tmp_path):
    # native_batch_norm_helper's `input - mean` broadcasts against the (C, 1, 1) stat: a spatial
    # size guarded equal to 1 becomes the stat's literal 1 (fake_impls.infer_size), so the ops
    # after it ask nothing more of that size
    doc, path = _graph(tmp_path, "bn_one", [
        ("c", "aten.conv2d.default", ["x", "w", None, [1, 1], [0, 0], [1, 1], 1]),
        ("n", "aten.batch_norm.default", ["c", "g", "bb", "rm", "rv", False, 0.1, 1e-3, True]),
        ("r", "aten.relu.default", ["n"])],
        [1, 3, "h", "w"], [1, 3, 9, 1], weights={"w": [8, 3, 9, 1], "g": [8], "bb": [8], "rm": [8], "rv": [8]},
        min_size=1)
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    # (values print through the final replacements, as PyTorch's SymNode.expr does: the
    # guard `h - 8 == 1` made h 9, so the conv's size prints as 1 too)
    nodes = {n["name"]: n for n in symshape.load(path).propagate(example=0).nodes}
    assert nodes["n"]["value"]["shape"][2:] == ["1", "1"], nodes["n"]


def test_view_asks_divisibility_of_sums(tmp_path):
    # torch/_refs infer_size's `numel % newsize == 0`: torch's Mod folds a monomial divisor
    # only, so (64 + 64*k) % (4 + 4*k) is asked (whisper's attention view) though the floor
    # division cancels to 16
    doc, path = _graph(tmp_path, "view_sums", [
        ("c", "aten.conv1d.default", ["x", "w", None, [2], [1], [1], 1]),
        ("t", "aten.permute.default", ["c", [0, 2, 1]]),
        ("n", "aten.sym_size.int", ["t", 1]),
        ("v", "aten.reshape.default", ["t", [1, "n", 4, -1]])],
        [1, 8, "t"], [1, 8, 30], weights={"w": [64, 8, 3]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(" % " in g and g.endswith("== 0") for g in guards), guards


def test_roll_asks_nothing(tmp_path):
    # torch/_refs roll is index_select of fmod(start + arange(size), size): no guard at the
    # roll, where 1.13's roll_cpu narrows at `(size - shift) % size`
    doc, path = _graph(tmp_path, "roll", [
        ("r", "aten.roll.default", ["x", [2], [3]])], [1, 3, 8, "w"], [1, 3, 8, 20], min_size=3)
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert not any("%" in g for g in guards), guards


def test_linear_of_a_transposed_input_runs_the_matmul_decomposition(tmp_path):
    # nextvit / ViT patch tokens: linear of a (N, H'*W', C) transpose of a conv output is not
    # contiguous, so C++ linear calls matmul, whose Python decomposition (decompositions.py
    # matmul) does not fold it (2.x's should_fold asks for contiguity) and asks the expand +
    # reshape to 3-d and the bmm view's questions instead
    doc, path = _graph(tmp_path, "linear_transposed", [
        ("s", "aten.conv2d.default", ["x", "w0", None, [4, 4], [0, 0], [1, 1], 1]),
        ("f", "aten.flatten.using_ints", ["s", 2, -1]),
        ("t", "aten.transpose.int", ["f", 1, 2]),
        ("l", "aten.linear.default", ["t", "w1", "b1"])],
        [1, 3, "h", "w"], [1, 3, 64, 72], weights={"w0": [8, 3, 4, 4], "w1": [16, 8], "b1": [16]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert "1 < (L['x'].size()[2] // 4)*(L['x'].size()[3] // 4)" in guards, guards


def _printed_shapes(doc, path, names):
    """{node: (PyTorch's printed sizes, symshape's)} with symbols matched by source."""
    ref = torchref_prop.torch_propagate(doc, doc["examples"][0])
    prop = symshape.load(path).propagate(example=0, strides="fake")
    ours = {src: name for name, srcs in prop.symbol_sources.items() for src in srcs}
    rename = {sym: sympy.Symbol(ours[src], integer=True) for sym, src in ref["sources"].items() if src in ours}
    mine = {n["name"]: n["value"]["shape"] for n in prop.nodes if n["name"] in names}
    return {n: ([str(s.node.expr.xreplace(rename)) if isinstance(s, torch.SymInt) else str(s)
                 for s in ref["values"][n].shape], mine[n]) for n in names}


# timm mobilevit's unfold of x (B, 144, H, W): x.reshape(B*144*ceil(H/2), 2, ceil(W/2), 2)
_CEIL_UNFOLD = [
    ("b", "aten.sym_size.int", ["x", 0]), ("h", "aten.sym_size.int", ["x", 2]),
    ("w", "aten.sym_size.int", ["x", 3]),
    ("th", "operator.truediv", ["h", 2]), ("ch", "math.ceil", ["th"]),
    ("tw", "operator.truediv", ["w", 2]), ("cw", "math.ceil", ["tw"]),
    ("bc", "operator.mul", ["b", 144]), ("rows", "operator.mul", ["bc", "ch"]),
    ("r", "aten.reshape.default", ["x", ["rows", 2, "cw", 2]])]


def test_view_split_asks_fake_cache_metadata(tmp_path):
    # timm mobilevit's unfold: x.reshape(B*C*ceil(H/2), 2, ceil(W/2), 2). The view helper's
    # split_dim of W gives a 4-d intermediate, and FakeTensorMode's dispatch cache runs
    # extract_tensor_metadata on it: suggest_memory_format asks `H // ceil(H/2) != 0` and the
    # like, which the ranges cannot decide
    doc, path = _graph(tmp_path, "ceil_unfold", _CEIL_UNFOLD, ["n", 144, "hh", "ww"], [2, 144, 8, 8])
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any("// (math.ceil" in g and g.endswith("!= 0") for g in guards), guards


def test_view_carries_the_view_helpers_sizes(tmp_path):
    # FakeTensorMode's view returns _reshape_view_helper's a_, not the requested shape: the
    # split of H by ceil(H/2) leaves `H // ceil(H/2)` where the graph asked for 2, and later
    # questions carry that expression (mobilevit's unfold/fold)
    doc, path = _graph(tmp_path, "ceil_unfold_sizes", _CEIL_UNFOLD, ["n", 144, "hh", "ww"], [2, 144, 8, 8])
    theirs, mine = _printed_shapes(doc, path, ["r"])["r"]
    assert "//" in theirs[1] and "//" in theirs[3], theirs
    assert mine == theirs


def test_reshape_copy_after_split_asks_cpp_contiguity_and_clone_metadata(tmp_path):
    # mobilevit's unfold continued: the transposed split is not viewable as (B, C, h*w, 4).
    # reshape_symint first asks c10's _compute_contiguous_sym walk (`W // ceil(W/2) != 1`,
    # each stride against the running product and its Max(1, size) form), then clones: the
    # clone's empty_strided output goes through the dispatch cache (its metadata question has
    # Max(1, ...) strides), and produce_guards prints the guards with the Max folded where an
    # axiom (`1 < W // ceil(W/2)`) bounds it
    doc, path = _graph(tmp_path, "ceil_unfold_copy", _CEIL_UNFOLD + [
        ("hw", "operator.mul", ["ch", "cw"]),
        ("t", "aten.transpose.int", ["r", 1, 2]),
        ("r1", "aten.reshape.default", ["t", ["b", 144, "hw", 4]])],
        ["n", 144, "hh", "ww"], [2, 144, 8, 8])
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    whole = "(L['x'].size()[3] // (math.ceil(L['x'].size()[3] / 2)))"
    assert f"{whole} != 1" in guards, guards
    # the clone's metadata question, with FakeTensorMode's view strides as the harness runs
    fake = symshape.load(path).propagate(example=0, strides="fake").guards
    assert any((g.endswith(" > 1") or g.startswith("1 < ")) and "max(1, " in g for g in fake), fake


def test_int_less_than_symint_is_the_reflected_greater(tmp_path):
    # mobilevit's fold after its transformer: the unfolded patches viewed back to
    # (B, P, N, C), transposed, reshaped to (B*C*ceil(H/2), ceil(W/2), 2, 2). The dispatch
    # cache's are_strides_like_channels_last_or_false compares the static stride 144 with a
    # symbolic `min` as `144 < min`, which Python asks as `min > 144` (int.__lt__ returns
    # NotImplemented): a Gt guard implies no `!=`, so computeStride's `144 != 144*N*P` is
    # still a guard
    doc, path = _graph(tmp_path, "ceil_fold", _CEIL_UNFOLD + [
        ("hw", "operator.mul", ["ch", "cw"]),
        ("t", "aten.transpose.int", ["r", 1, 2]),
        ("r1", "aten.reshape.default", ["t", ["b", 144, "hw", 4]]),
        ("t2", "aten.transpose.int", ["r1", 1, 3]),
        ("b4", "operator.mul", ["b", 4]),
        ("r2", "aten.reshape.default", ["t2", ["b4", "hw", -1]]),
        ("v", "aten.view.default", ["r2", ["b", 4, "hw", -1]]),
        ("t3", "aten.transpose.int", ["v", 1, 3]),
        ("r3", "aten.reshape.default", ["t3", ["rows", "cw", 2, 2]])],
        ["n", 144, "hh", "ww"], [2, 144, 8, 8])
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    fake = symshape.load(path).propagate(example=0, strides="fake").guards
    assert any(g.startswith("144 != ") for g in fake), fake


def test_scalar_operand_makes_a_size_one_dim_literal(tmp_path):
    # wav2vec2's feature extractor at its shortest input: the conv's length is
    # (t - 400) // 400 + 1, 1 at the example. fake_impls' fast binary path runs infer_size
    # against a Python scalar's shape (), which picks the literal 1 once `length == 1` is
    # guarded; gelu's decomposition (refs gelu: `a * 0.5 * ...`) does the same
    doc, path = _graph(tmp_path, "length_one", [
        ("c", "aten.conv1d.default", ["x", "w", None, [400], [0], [1], 1]),
        ("m", "aten.mul.Tensor", ["c", 0.5]),
        ("g", "aten.gelu.default", ["c"]),
        ("s", "aten.add.Tensor", ["m", "g"])],
        ["n", 8, "t"], [2, 8, 400], weights={"w": [8, 8, 400]})
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    shapes = _printed_shapes(doc, path, ["c", "m", "g", "s"])
    assert shapes["c"][0][2] != "1", shapes  # the conv keeps the expression
    for name in ("m", "g", "s"):
        theirs, mine = shapes[name]
        assert theirs[2] == "1" and mine == theirs, (name, shapes)


def test_layer_norm_runs_the_refs_body(tmp_path):
    # wav2vec2's feature extractor: conv (k=10, s=5) then layer_norm over channels. FakeTensorMode
    # runs torch._refs.native_layer_norm: contiguous(input) asks prims is_contiguous's
    # `numel < 2`, and var_mean's true_divide lays out the (N, L, 1) statistics (their
    # `numel < 2`). Over the expanded `8*n*(t // 5) - 8*n` the ranges decide neither
    doc, path = _graph(tmp_path, "conv_layer_norm", [
        ("c", "aten.conv1d.default", ["x", "w", None, [5], [0], [1], 1]),
        ("t", "aten.transpose.int", ["c", 1, 2]),
        ("ln", "aten.layer_norm.default", ["t", [8], "g", "b", 1e-05, False])],
        ["n", 8, "tt"], [2, 8, 400], weights={"w": [8, 8, 10], "g": [8], "b": [8]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert sum(g.endswith(">= 2") and "// 5" in g for g in guards) >= 2, guards


def test_dropout_of_a_strided_select_is_a_dense_clone(tmp_path):
    # coat / deit / convit heads: dropout(x[:, 0]) in eval. The decomposition's clone of the
    # (N, C) select, strides (T*C, 1), is not dense: prims.clone lays it out as refs'
    # empty_like does, so FakeTensorMode's batch stride is C (eager returns the input)
    doc, path = _graph(tmp_path, "dropout_select", [
        ("s", "aten.select.int", ["x", 1, 0]),
        ("d", "aten.dropout.default", ["s", 0.0, False])], ["n", "t", 64], [2, 5, 64])
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    fake = {n["name"]: n["value"] for n in symshape.load(path).propagate(example=0, strides="fake").nodes}
    assert fake["d"]["stride"] == ["64", "1"], fake["d"]
    eager = {n["name"]: n["value"] for n in symshape.load(path).propagate(example=0).nodes}
    assert eager["d"]["stride"] == eager["s"]["stride"], eager["d"]


def test_sdpa_output_asks_only_refs_empty_like(tmp_path):
    # mobilevit's attention over its unfolded patches: a permuted (not dense) query whose
    # batch is the view helper's `H // ceil(H/2)`. The fake flash kernel's meta allocates
    # torch._refs.empty_like(query): the permutation's questions, not C++'s
    # is_non_overlapping_and_dense (which asked `batch >= 2` of a size the ranges leave at 0
    # or more)
    doc, path = _graph(tmp_path, "sdpa_patches", [
        ("b", "aten.sym_size.int", ["x", 0]), ("h", "aten.sym_size.int", ["x", 2]),
        ("th", "operator.truediv", ["h", 2]), ("ch", "math.ceil", ["th"]),
        ("r", "aten.reshape.default", ["x", ["b", 36, "ch", 2, 8]]),
        ("s", "aten.select.int", ["r", 0, 0]),
        ("p", "aten.permute.default", ["s", [2, 0, 1, 3]]),
        ("q", "aten.slice.Tensor", ["p", 3, 0, 4]),
        ("a", "aten.scaled_dot_product_attention.default", ["q", "q", "q", None, 0.0, False])],
        ["n", 36, "hh", 8], [2, 36, 8, 8])
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs]
    # is_non_overlapping_and_dense's questions (`ceil(H/2) >= 2`, `1 < 8*P`, `8*P < 8*H`)
    # are not PyTorch's. Still open: the permutation's should_swap compares another pair of
    # this view's strides (`8*P != 4` where PyTorch asks `8*P != 8`; docs/torchref.md)
    extra = [d["symshape"] for d in guard_diffs if d["field"] == "extra"]
    assert not any(g.endswith(">= 2") or g.startswith("1 < ") or " < 8*" in g for g in extra), extra


def test_view_checks_numel_against_the_reduced_inferred_size(tmp_path):
    # segformer / mobilevit: view(x, [n, 4, m, -1]) of 240*n*k elements. infer_size records
    # Mod(240*n*k, 4*m*n) == 0; the inferred size is SymPy's reduced (60*k) // m, whose Mod is
    # not the recorded one, so _reshape_view_helper's `numel == prod(shape)` check is a guard
    doc, path = _graph(tmp_path, "view_numel", [
        ("b", "aten.sym_size.int", ["x", 0]), ("m", "aten.sym_size.int", ["y", 0]),
        ("v", "aten.view.default", ["x", ["b", 4, "m", -1]])], ["n", 240, "k"], [2, 240, 6],
        weights={"y": (["m"], [3])})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any("//" in g and "==" in g and "%" not in g for g in guards), guards


def _fake_strides_equal(doc, path):
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]


def test_fast_binary_result_takes_the_fast_paths_contiguous_strides(tmp_path):
    # convnext's head norm: (N, 1, 1, C) from a pooled map, strides (C, 1, 1, 1), times its
    # (N, 1, 1, 1) statistic. Both are contiguous to prims, so the fast path allocates
    # torch.empty(contiguous): (C, C, C, 1) where TensorIterator keeps (C, 1, 1, 1)
    _fake_strides_equal(*_graph(tmp_path, "fast_mul_size_one", [
        ("p", "aten.permute.default", ["x", [0, 2, 3, 1]]),
        ("s", "aten.sum.dim_IntList", ["p", [-1], True]),
        ("m", "aten.mul.Tensor", ["p", "s"])], ["n", 64, 1, 1], [2, 64, 1, 1]))


def test_static_operands_lay_out_as_the_refs(tmp_path):
    # MT5's position bias at one query: no symbolic size, so no fast path; the refs' add sorts
    # the operands' strides (a permuted (1, 4, 1, 1) bias gives (4, 1, 4, 4))
    _fake_strides_equal(*_graph(tmp_path, "static_add_refs", [
        ("p", "aten.permute.default", ["y", [2, 0, 1]]),
        ("u", "aten.unsqueeze.default", ["p", 0]),
        ("a", "aten.add.Tensor", ["x", "u"])], [1, 4, 1, 1], [1, 4, 1, 1], weights={"y": [1, 1, 4]}))


def test_gelu_of_a_strided_input_lays_out_as_its_decomposition(tmp_path):
    # wav2vec2's positional conv: gelu(conv(x)[:, :, :-1]) of a (N, C, 1) slice with strides
    # (2*C, 1, C). `a * 0.5` runs the refs (not contiguous), the later products the fast path
    _fake_strides_equal(*_graph(tmp_path, "gelu_strided", [
        ("t", "aten.transpose.int", ["x", 1, 2]),
        ("s", "aten.slice.Tensor", ["t", 2, 0, -1, 1]),
        ("g", "aten.gelu.default", ["s"])], ["n", 2, 32], [2, 2, 32]))


def test_static_layer_norm_keeps_the_refs_strides(tmp_path):
    # maxvit's head at batch 1: layer_norm of a static (1, 1, 1, C) whose strides are
    # (C, 1, 1, 1): no fast path, so each step of the decomposition is laid out by the refs
    _fake_strides_equal(*_graph(tmp_path, "static_layer_norm", [
        ("p", "aten.permute.default", ["x", [0, 2, 3, 1]]),
        ("l", "aten.layer_norm.default", ["p", [8], "w", "b", 1e-5, False])], [1, 8, 1, 1], [1, 8, 1, 1],
        weights={"w": [8], "b": [8]}))


def test_a_mask_indexed_twice_has_one_unbacked_count(tmp_path):
    # torch_geometric's self-loop removal: x[mask] read, then x[mask] = v written back.
    # FakeTensor keeps nonzero's count on the mask (nonzero_memo), so both index ops see u0
    # and the next data-dependent size is u1
    doc, path = _graph(tmp_path, "mask_twice", [
        ("c", "aten.select.int", ["x", 1, 0]),
        ("m", "aten.gt.Scalar", ["c", 0.5]),
        ("a", "aten.index.Tensor", ["x", ["m"]]),
        ("p", "aten.index_put_.default", ["x", ["m"], "a", False]),
        ("m2", "aten.lt.Scalar", ["c", 0.5]),
        ("b", "aten.index.Tensor", ["p", ["m2"]])], ["n", 4], [6, 4])
    _fake_strides_equal(doc, path)
    values = {n["name"]: n["value"] for n in symshape.load(path).propagate(example=0, strides="fake").nodes}
    assert values["a"]["shape"][0] == "u0" and values["b"]["shape"][0] == "u1", (values["a"], values["b"])


def test_values_print_with_the_final_replacements(tmp_path):
    # ClusterGCN: a runtime assert Eq(u0, n) after a masked index replaces u0 by n, and
    # PyTorch prints every SymNode's expr through the replacements as they end up
    doc, path = _graph(tmp_path, "assert_replaces", [
        ("c", "aten.select.int", ["x", 1, 0]),
        ("m", "aten.gt.Scalar", ["c", -1.0]),
        ("a", "aten.index.Tensor", ["x", ["m"]]),
        ("u", "aten.sym_size.int", ["a", 0]), ("b", "aten.sym_size.int", ["x", 0]),
        ("e", "operator.eq", ["u", "b"]),
        ("k", "aten._assert_scalar.default", ["e", "Runtime assertion failed for expression Eq(u0, s0)"]),
        ("r", "aten.mul.Tensor", ["a", 2.0])], ["n", 4], [6, 4])
    _fake_strides_equal(doc, path)
    values = {n["name"]: n["value"] for n in symshape.load(path).propagate(example=0, strides="fake").nodes}
    assert not values["a"]["shape"][0].startswith("u"), values["a"]


def test_batch_norm_of_a_channel_split_runs_the_refs_sort(tmp_path):
    # lambda_resnet26t's attention: batch_norm of one chunk of a qkv conv's channels. The
    # chunk is neither contiguous nor channels_last, so the decomposition's `input - mean`
    # declines the fast path and the refs' layout sort asks `W' != W'*H'` and the like
    _fake_strides_equal(*_graph(tmp_path, "bn_channel_split", [
        ("c", "aten.conv2d.default", ["x", "w", None, [16, 16], [0, 0], [1, 1], 1]),
        ("s", "aten.split_with_sizes.default", ["c", [4, 12], 1]),
        ("q", "operator.getitem", ["s", 0]),
        ("n", "aten.batch_norm.default", ["q", "g", "bb", "rm", "rv", False, 0.1, 1e-5, True])],
        ["n", 3, "h", "w"], [2, 3, 64, 80], weights={"w": [16, 3, 16, 16], "g": [4], "bb": [4], "rm": [4], "rv": [4]}))


def _patch_grid_attention(stride):
    # lowformer's attention: a stride-`stride` conv's (A, B) grid flattened to S = A*B tokens,
    # permuted to (n, 2, S, 120) and chunked into q, k, v along the last dim (last stride S)
    return [
        ("c", "aten.conv2d.default", ["x", "w0", None, [stride, stride], [0, 0], [1, 1], 1]),
        ("b", "aten.sym_size.int", ["c", 0]), ("ha", "aten.sym_size.int", ["c", 2]),
        ("wa", "aten.sym_size.int", ["c", 3]), ("s", "operator.mul", ["ha", "wa"]),
        ("r", "aten.reshape.default", ["c", ["b", 2, 120, "s"]]),
        ("p", "aten.permute.default", ["r", [0, 1, 3, 2]]),
        ("ch", "aten.chunk.default", ["p", 3, 3]),
        ("q", "operator.getitem", ["ch", 0]), ("k", "operator.getitem", ["ch", 1]),
        ("v", "operator.getitem", ["ch", 2]),
        ("a", "aten.scaled_dot_product_attention.default", ["q", "k", "v", None, 0.0, False])]


def test_sdpa_math_path_runs_its_decomposition(tmp_path):
    # a query whose last stride is S is not flash's (check_last_dim_stride_equals_1): the math
    # fallback's ops each ask FakeTensorMode's questions. `q * scale` is torch._refs' mul, whose
    # layout sort asks `ge(1, S)` as Python reflects it (`S <= 1`, a `>` guard) and then
    # `1 % S == 0`; the matmul, _safe_softmax's eq / all / where follow
    doc, path = _graph(tmp_path, "sdpa_math", _patch_grid_attention(32), ["n", 3, "h", "w"], [2, 3, 64, 64],
                       weights={"w0": [240, 3, 1, 1]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.startswith("(1 % ") for g in guards), guards
    assert any(g.endswith(" > 1") and "// 32" in g for g in guards), guards


def test_view_output_questions_stay_undecided_until_the_version_moves(tmp_path):
    # lowformer's upsampled branch: a conv_transpose (2A, 2B) sliced to a stride-16 conv's
    # (C, D), then added to it. The slice's cache entry rebuilds the view with `set_`, whose
    # contiguity walk asks `2A != C`, `4*A*B != C*D` and `320*A*B != 80*C*D` under
    # suppress_guards; the add's contiguity check then records all three, the last although
    # the second implies it, since _maybe_evaluate_static's cache still holds it undecided
    doc, path = _graph(tmp_path, "slice_add", [
        ("c", "aten.conv2d.default", ["x", "w0", None, [32, 32], [0, 0], [1, 1], 1]),
        ("t", "aten.conv_transpose2d.input", ["c", "wt", None, [2, 2], [0, 0], [0, 0], 1, [1, 1]]),
        ("d", "aten.conv2d.default", ["x", "w1", None, [16, 16], [0, 0], [1, 1], 1]),
        ("hd", "aten.sym_size.int", ["d", 2]), ("wd", "aten.sym_size.int", ["d", 3]),
        ("s0", "aten.slice.Tensor", ["t", 2, None, "hd", 1]),
        ("s1", "aten.slice.Tensor", ["s0", 3, None, "wd", 1]),
        ("a", "aten.add.Tensor", ["s1", "d"])], ["n", 3, "h", "w"], [2, 3, 64, 64],
        weights={"w0": [80, 3, 1, 1], "wt": [80, 80, 2, 2], "w1": [80, 3, 1, 1]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.startswith("(320") and "==" in g for g in guards), guards


def test_group_norm_affine_asks_the_input_layout(tmp_path):
    # torch._refs native_group_norm on CPU with a weight ends in `x * w + b`, w and b the
    # per-(N, C) scale and shift unsqueezed to (N, C, 1, 1): the binary fast path asks
    # is_channels_last_contiguous_2d of the contiguous input, `H'*W' != 1` over a stride-2
    # conv's output (timm resnetv2_50d_gn's stem)
    doc, path = _graph(tmp_path, "group_norm_affine", [
        ("c", "aten.conv2d.default", ["x", "w0", None, [2, 2], [1, 1], [1, 1], 1]),
        ("g", "aten.group_norm.default", ["c", 4, "gw", "gb", 1e-5, False])], ["n", 3, "h", "w"], [2, 3, 33, 40],
        weights={"w0": [8, 3, 3, 3], "gw": [8], "gb": [8]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.endswith(" != 1") and "*" in g and "// 2" in g for g in guards), guards


def test_group_norm_without_weight_views_back(tmp_path):
    # without a weight the decomposition normalizes the (N, G, C // G, H*W) reshape and views
    # it back to the input's shape, then adds the bias: each step through the fast path
    doc, path = _graph(tmp_path, "group_norm_plain", [
        ("c", "aten.conv2d.default", ["x", "w0", None, [2, 2], [1, 1], [1, 1], 1]),
        ("g", "aten.group_norm.default", ["c", 2, None, "gb", 1e-5, False])], ["n", 3, "h", "w"], [2, 3, 33, 40],
        weights={"w0": [8, 3, 3, 3], "gb": [8]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]


def test_layer_norm_of_5d_asks_the_statistics_layout(tmp_path):
    # video swin's patch embedding: conv3d, permuted to (B, D, H, W, C), layer_norm over C.
    # prims.var's 4-d result leaves through the dispatch cache, whose suggest_memory_format
    # asks `D*Max(1, H)*Max(1, W) > 1` of its strides (the Max folds for these sizes)
    doc, path = _graph(tmp_path, "layer_norm_5d", [
        ("c", "aten.conv3d.default", ["x", "w0", None, [2, 4, 4], [0, 0, 0], [1, 1, 1], 1]),
        ("p", "aten.permute.default", ["c", [0, 2, 3, 4, 1]]),
        ("n", "aten.layer_norm.default", ["p", [8], "lw", "lb", 1e-5, False])], [1, 3, "d", "h", "w"], [1, 3, 8, 32, 40],
        weights={"w0": [8, 3, 2, 4, 4], "lw": [8], "lb": [8]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.endswith(" > 1") and g.startswith("(L['x'].size()[2] // 2)*") for g in guards), guards


def test_cpp_contiguous_asks_numel_first(tmp_path):
    # C++ contiguous() of a permuted tensor whose size h // 4 may be 0 by its range: c10's
    # _compute_contiguous_sym asks `numel == 0` first and, its walk failing, no per-dim
    # `size == 0` (1.13's is_empty test came last, one question per dim)
    doc, path = _graph(tmp_path, "contiguous_numel", [
        ("hs", "aten.sym_size.int", ["x", 1]), ("q", "operator.floordiv", ["hs", 4]),
        ("s", "aten.slice.Tensor", ["x", 1, None, "q", 1]),
        ("p", "aten.permute.default", ["s", [0, 3, 1, 2]]),
        ("c", "aten.contiguous.default", ["p"])], [2, "h", "w", 3], [2, 9, 7, 3])
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.endswith(" != 0") and "*" in g for g in guards), guards


def test_roll_runs_its_index_decomposition(tmp_path):
    # torchvision swin's shifted windows: torch/_refs roll is index_select(dim, fmod(start +
    # arange(size), size)) per dim; arange's (size,) result goes through the binary fast
    # path, whose is_contiguous asks `size < 2` of a conv output's H' = (H - 4)//4 + 1: its
    # guard refines H's range to 8 and up
    doc, path = _graph(tmp_path, "roll_shift", [
        ("c", "aten.conv2d.default", ["x", "w0", None, [4, 4], [0, 0], [1, 1], 1]),
        ("p", "aten.permute.default", ["c", [0, 2, 3, 1]]),
        ("r", "aten.roll.default", ["p", [-3, -3], [1, 2]])], ["n", 3, "h", "w"], [2, 3, 40, 56],
        weights={"w0": [8, 3, 4, 4]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert "8 <= L['x'].size()[2]" in guards, guards


@pytest.mark.parametrize("op", ["aten.silu_.default", "aten.sigmoid_.default", "aten.hardswish_.default",
                                "aten.neg_.default", "aten.hardtanh.default"])
def test_inplace_pointwise_asks_the_functional_layout(tmp_path, op):
    # nfnet's conv -> silu_: an in-place pointwise op runs its functional meta with out=self,
    # whose empty_like asks is_contiguous (`H' == 1`, `W' == 1`) and
    # is_channels_last_contiguous_2d (`H'*W' != 1`) of self; hardtanh's reference clamps
    # and asks the same (relu_ asks nothing, and stays so)
    doc, path = _graph(tmp_path, "inplace_" + op.split(".")[1], [
        ("c", "aten.conv2d.default", ["x", "w0", None, [2, 2], [1, 1], [1, 1], 1]),
        ("r", op, ["c"])], ["n", 3, "h", "w"], [2, 3, 33, 40], weights={"w0": [8, 3, 3, 3]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert "(1 + (((-1) + L['x'].size()[3]) // 2)) != 1" in guards, guards


def test_a_view_returning_the_mask_keeps_its_count(tmp_path):
    # higgs_audio_v2: a mask passed through a `to` (or `contiguous`) that returns the tensor
    # itself is the same FakeTensor, its version unmoved: indexing with it again reuses
    # nonzero's memo, u0, where an in-place op on the mask would not
    doc, path = _graph(tmp_path, "mask_alias", [
        ("c", "aten.select.int", ["x", 1, 0]),
        ("m", "aten.gt.Scalar", ["c", 0.5]),
        ("a", "aten.index.Tensor", ["x", ["m"]]),
        ("p", "aten.index_put_.default", ["x", ["m"], "a", False]),
        ("mc", "aten.contiguous.default", ["m"]),
        ("b", "aten.index.Tensor", ["p", ["mc"]])], ["n", 4], [6, 4])
    _fake_strides_equal(doc, path)
    values = {n["name"]: n["value"] for n in symshape.load(path).propagate(example=0, strides="fake").nodes}
    assert values["a"]["shape"][0] == "u0" and values["b"]["shape"][0] == "u0", (values["a"], values["b"])


def test_zero_pad_clones_through_prims(tmp_path):
    # video swin pads by amounts that are all 0 at its sizes' multiples: _constant_pad_nd_meta
    # then returns `input.clone()`, whose prims.clone meta sorts the strides of a permuted
    # input (is_non_overlapping_and_dense_or_false's `<` questions)
    doc, path = _graph(tmp_path, "zero_pad", [
        ("c", "aten.conv3d.default", ["x", "w0", None, [2, 4, 4], [0, 0, 0], [1, 1, 1], 1]),
        ("p", "aten.permute.default", ["c", [0, 2, 3, 4, 1]]),
        ("z", "aten.pad.default", ["p", [0, 0, 0, 0, 0, 0, 0, 0], "constant", None])], [1, 3, "d", "h", "w"],
        [1, 3, 8, 32, 40], weights={"w0": [8, 3, 2, 4, 4]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(" < " in g and "8*" in g for g in guards), guards


# A chunk count that is 1 at the example: a stride-64 conv over H in [64, 127] gives
# H' = (H - 64)//64 + 1, whose range holds 1, so `H' == 1` is a guard, not a static answer.
_ONE_CHUNK = [("c", "aten.conv2d.default", ["x", "w0", None, [64, 1], [0, 0], [1, 1], 1])]
_ONE_CHUNK_WEIGHTS = {"w0": [4, 3, 64, 1]}


def _shape(guards_graph_path, node):
    prop = symshape.load(guards_graph_path).propagate(example=0, strides="fake")
    return next(n["value"]["shape"] for n in prop.nodes if n["name"] == node)


def test_cumsum_keeps_the_literal_one_of_refs_broadcast(tmp_path):
    # torch._refs cumsum: where(mask, x.unsqueeze(dim + 1), 0) over _broadcast_shapes, whose
    # common shape starts as 1s and skips a size equal to it, so H' guarded == 1 stays 1 in the
    # result; the refs unsqueezes ask `size == 1` of every dim
    doc, path = _graph(tmp_path, "cumsum_one", _ONE_CHUNK + [
        ("s", "aten.cumsum.default", ["c", 3]),
        ("r", "aten.reshape.default", ["s", [-1]])], [1, 3, "h", 64], [1, 3, 100, 64],
        weights=_ONE_CHUNK_WEIGHTS)
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert _shape(path, "s")[2] == "1", _shape(path, "s")


def test_matmul_broadcasts_batches_through_torch_broadcast_shapes(tmp_path):
    # decompositions.matmul: torch.broadcast_shapes(batch1, batch2) is refs' _broadcast_shapes,
    # so a batch size guarded == 1 is a literal 1 in the expand targets and the result
    doc, path = _graph(tmp_path, "matmul_one", _ONE_CHUNK + [
        ("v", "aten.reshape.default", ["c", [1, 4, -1, 8, 8]]),
        ("m", "aten.matmul.default", ["v", "v"]),
        ("r", "aten.reshape.default", ["m", [-1]])], [1, 3, "h", 64], [1, 3, 100, 64],
        weights=_ONE_CHUNK_WEIGHTS)
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert _shape(path, "m")[2] == "1", _shape(path, "m")


@pytest.mark.parametrize("op", ["masked_fill", "expand"])
def test_refs_take_the_literal_one(tmp_path, op):
    # refs masked_fill is where(mask, value, self) over _maybe_broadcast; refs expand takes the
    # requested length: both give 1 where eager keeps H' (equal to 1 by a guard)
    tail = [("k", "aten.gt.Scalar", ["w1", 0.0]), ("o", "aten.masked_fill.Scalar", ["c", "k", -1.0])] \
        if op == "masked_fill" else [("o", "aten.expand.default", ["c", [1, 4, 1, 64]])]
    doc, path = _graph(tmp_path, f"{op}_one", _ONE_CHUNK + tail + [
        ("r", "aten.reshape.default", ["o", [-1]])], [1, 3, "h", 64], [1, 3, 100, 64],
        weights={**_ONE_CHUNK_WEIGHTS, "w1": [64]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert _shape(path, "o")[2] == "1", _shape(path, "o")


def test_constant_pad_asks_no_sign_of_a_symbolic_pad(tmp_path):
    # _constant_pad_nd_meta takes its crop path only for plain ints <= 0; a SymInt pad (here
    # (64 - W % 64) % 64, 0 at W = 128) is added to the size with no question of its sign
    doc, path = _graph(tmp_path, "pad_symbolic", [
        ("s", "aten.sym_size.int", ["x", 3]),
        ("m", "operator.mod", ["s", 64]),
        ("n", "operator.sub", [64, "m"]),
        ("q", "operator.mod", ["n", 64]),
        ("p", "aten.constant_pad_nd.default", ["x", [0, "q"], 0.0])], [1, 3, 8, "w"], [1, 3, 8, 128])
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert not any("% 64" in g for g in guards), guards


@pytest.mark.parametrize("affine", [True, False])
def test_group_norm_takes_the_broadcast_literal_one(tmp_path, affine):
    # refs native_group_norm ends in binary ops against a (N, C, 1, 1) scale / bias through the
    # fast path, whose infer_size takes the other operand's size where one is guarded == 1:
    # mobilevitv2's W' == 1 is a literal 1 in the result
    params = ["w1", "b1"] if affine else [None, "b1"]
    doc, path = _graph(tmp_path, f"group_norm_one_{affine}", _ONE_CHUNK + [
        ("t", "aten.transpose.int", ["c", 2, 3]),
        ("g", "aten.group_norm.default", ["t", 2] + params + [1e-5, False]),
        ("r", "aten.reshape.default", ["g", [-1]])], [1, 3, "h", 64], [1, 3, 100, 64],
        weights={**_ONE_CHUNK_WEIGHTS, "w1": [4], "b1": [4]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert _shape(path, "g")[3] == "1", _shape(path, "g")


def _tf_same_pad(src, tag, k, s):
    """timm's pad_same (TF 'same' padding) of `src` for a k x k kernel at stride s, as export
    traces it: sym_max((ceil(size / s) - 1)*s + k - size, 0) per spatial dim, split in halves."""
    nodes, pads = [], []
    for d in (3, 2):  # F.pad lists the last dim first
        z, n = f"{tag}_z{d}", f"{tag}_{d}"
        nodes += [(z, "aten.sym_size.int", [src, d]),
                  (n + "_t", "operator.truediv", [z, s]),
                  (n + "_c", "math.ceil", [n + "_t"]),
                  (n + "_s", "operator.sub", [n + "_c", 1]),
                  (n + "_m", "operator.mul", [n + "_s", s]),
                  (n + "_a", "operator.add", [n + "_m", k]),
                  (n + "_d", "operator.sub", [n + "_a", z]),
                  (n + "_p", "torch.sym_max", [n + "_d", 0]),
                  (n + "_lo", "operator.floordiv", [n + "_p", 2]),
                  (n + "_hi", "operator.sub", [n + "_p", n + "_lo"])]
        pads += [n + "_lo", n + "_hi"]
    return nodes + [(tag, "aten.pad.default", [src, pads, "constant", 0.0])]


def test_tf_same_padding_guards_as_pytorch_bounds_them(tmp_path):
    # tf_efficientnetv2: the padded size H + Max(0, 1 - H + 2*ceil(H/2)) is >= 3 for every H,
    # but PyTorch's bound_sympy (intervals, term by term) cannot tell, so the conv's kernel check
    # is a guard; after the next 'same' pad the conv's new_empty asks `size >= 0` and the
    # in-place silu_'s copy back (meta_copy_ -> refs expand) asks `size != -1`, both guards
    doc, path = _graph(tmp_path, "tf_same", _tf_same_pad("x", "p0", 3, 2) + [
        ("c0", "aten.conv2d.default", ["p0", "w0", None, [2, 2], [0, 0], [1, 1], 1]),
        ("a0", "aten.silu_.default", ["c0"])] + _tf_same_pad("a0", "p1", 3, 2) + [
        ("c1", "aten.conv2d.default", ["p1", "w1", None, [2, 2], [0, 0], [1, 1], 1]),
        ("a1", "aten.silu_.default", ["c1"])], ["n", 3, "h", "w"], [2, 3, 64, 64],
        weights={"w0": [8, 3, 3, 3], "w1": [8, 8, 3, 3]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.startswith("L['x'].size()[2] + max(0, ") and g.endswith(">= 3") for g in guards), guards
    assert any(g.endswith(">= 0") and "// 2" in g for g in guards), guards
    assert any(g.endswith("!= (-1)") for g in guards), guards


def test_conv3d_output_asks_the_channels_last_3d_walk(tmp_path):
    # r3d_18: the fake conv's `out.to(memory_format=contiguous)` asks the C++
    # suggest_memory_format() of the 5-d output, whose dim-5 flag starts with the
    # channels_last_3d contiguity walk: `stride_C != 1`, i.e. D*H*W != 1, a guard
    doc, path = _graph(tmp_path, "conv3d_walk", [
        ("c0", "aten.conv3d.default", ["x", "w0", None, [1, 2, 2], [1, 1, 1], [1, 1, 1], 1]),
        ("r0", "aten.relu.default", ["c0"]),
        ("c1", "aten.conv3d.default", ["r0", "w1", None, [2, 2, 2], [1, 1, 1], [1, 1, 1], 1])],
        ["n", 3, "d", "h", "w"], [2, 3, 4, 24, 24], weights={"w0": [8, 3, 3, 3, 3], "w1": [16, 8, 3, 3, 3]})
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert any(g.endswith("!= 1") and "size()[2]" in g and "size()[4]" in g for g in guards), guards


@pytest.mark.parametrize("case", range(5))
def test_static_gelu_runs_its_reference_on_prims(tmp_path, case):
    # focalnet at batch 1 (every size static): no fast path, so gelu's reference runs on prims
    # and its last product sorts the strides of `a * 0.5` (a dense (1, 128, 1, 1) channel slice
    # keeps (259, 1, 259, 259) there, then lays out as (128, 1, 128, 128))
    x, nodes = [
        ([1, 1, 1, 259], [("p", "aten.permute.default", ["x", [0, 3, 1, 2]]),
                          ("s", "aten.slice.Tensor", ["p", 1, 0, 128, 1])]),
        ([1, 8, 1, 1], [("s", "aten.permute.default", ["x", [0, 2, 1, 3]])]),
        ([2, 1, 4, 1], [("s", "aten.permute.default", ["x", [3, 2, 1, 0]])]),
        ([1, 4, 1, 6], [("p", "aten.permute.default", ["x", [0, 3, 2, 1]]),
                        ("s", "aten.slice.Tensor", ["p", 1, 1, 6, 1])]),
        ([2, 5, 7, 3], [("s", "aten.permute.default", ["x", [0, 3, 1, 2]])]),
    ][case]
    _fake_strides_equal(*_graph(tmp_path, f"static_gelu_{case}", nodes + [
        ("g", "aten.gelu.default", ["s"])], x, x))


@pytest.mark.parametrize("size", [[1, 1], [1, 3]])
def test_linear_interpolation_to_one_pixel_keeps_the_blends_strides(tmp_path, size):
    # Pvt's position embedding resized to 1x1: _upsample_linear's blend is row-major and
    # `.contiguous(memory_format=channels_last)` returns it as it is when it already counts as
    # channels_last contiguous (every spatial size 1); a 1x3 output is laid out channels_last
    _fake_strides_equal(*_graph(tmp_path, f"bilinear_{size[1]}", _CHANNELS_LAST + [
        ("u", "aten.upsample_bilinear2d.vec", ["p", size, False, None])], [1, "h", "w", 8], [1, 6, 10, 8]))


def test_static_flash_sdpa_lays_out_as_refs_empty_like(tmp_path):
    # aimv2 at batch 1 (every size static): a (1, 4, 1, 8) query of strides (32, 8, 32, 1). The
    # fake flash kernel's torch._refs.empty_like(query) is empty_permuted in the prims order,
    # so the size-1 dim gets (32, 8, 8, 1) where C++ empty_like (eager) keeps the query's
    _fake_strides_equal(*_graph(tmp_path, "static_flash", [
        ("q", "aten.permute.default", ["x", [0, 2, 1, 3]]),
        ("k", "aten.permute.default", ["y", [0, 2, 1, 3]]),
        ("a", "aten.scaled_dot_product_attention.default", ["q", "k", "k", None, 0.0, False])],
        [1, 1, 4, 8], [1, 1, 4, 8], weights={"y": [1, 16, 4, 8]}))


def test_simplify_is_cached_per_call_form_across_range_refinements(tmp_path):
    # tf_mobilenetv3 (timm): PyTorch's simplify is lru-cached per call form and kept until
    # the count of replacements, divisibility facts or runtime asserts grows, which a range
    # refinement (the pointwise conv's `N < 16`) does not. The second stage's batch_norm
    # guard `Max(1, A)*Max(1, B) != 1` was simplified when recorded and prints so, although
    # `A >= 1` is known later; the stride guards `Eq(Max(1, A), A)` recorded from their `Ne`
    # questions were never simplified in _maybe_evaluate_static's form, so produce_guards
    # simplifies them afresh, folds the Max and drops them
    bn = lambda name, src, c: (name, "aten.batch_norm.default", [src, f"g{c}", f"b{c}", f"m{c}", f"v{c}",
                                                                   False, 0.1, 1e-3, True])
    nodes = _tf_same_pad("x", "p0", 3, 2) + [
        ("c0", "aten.conv2d.default", ["p0", "w0", None, [2, 2], [0, 0], [1, 1], 1]),
        bn("n0", "c0", 16), ("r0", "aten.relu_.default", ["n0"])] + _tf_same_pad("r0", "p1", 3, 2) + [
        ("c1", "aten.conv2d.default", ["p1", "w1", None, [2, 2], [0, 0], [1, 1], 16]),
        bn("n1", "c1", 16), ("r1", "aten.relu_.default", ["n1"]),
        ("c2", "aten.conv2d.default", ["r1", "w2", None, [1, 1], [0, 0], [1, 1], 1]),
        bn("n2", "c2", 24)]
    weights = {"w0": [16, 3, 3, 3], "w1": [16, 1, 3, 3], "w2": [24, 16, 1, 1]}
    for c in (16, 24):
        weights.update({f"g{c}": [c], f"b{c}": [c], f"m{c}": [c], f"v{c}": [c]})
    doc, path = _graph(tmp_path, "tf_same_bn", nodes, ["n", 3, "h", "w"], [2, 3, 64, 64], weights=weights)
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    assert "L['x'].size()[0] <= 15" in " ".join(guards), guards
    assert any(g.startswith("(max(1, ") and g.endswith("!= 1") for g in guards), guards


# mobilevitv2's (timm) unfolding of a feature map into 2 x 2 patches: x (n, 128, h, w) ->
# (n, 128, ceil(h/2), 2, ceil(w/2), 2) -> permuted (0, 1, 3, 5, 2, 4) -> (n, 128, -1,
# ceil(h/2)*ceil(w/2)), normalised next
_PATCH_GRID = [("zh", "aten.sym_size.int", ["x", 2]), ("th", "operator.truediv", ["zh", 2]), ("ch", "math.ceil", ["th"]),
               ("zw", "aten.sym_size.int", ["x", 3]), ("tw", "operator.truediv", ["zw", 2]), ("cw", "math.ceil", ["tw"]),
               ("zn", "aten.sym_size.int", ["x", 0]), ("cc", "operator.mul", ["ch", "cw"]),
               ("r8", "aten.reshape.default", ["x", ["zn", 128, "ch", 2, "cw", 2]]),
               ("p4", "aten.permute.default", ["r8", [0, 1, 3, 5, 2, 4]]),
               ("r9", "aten.reshape.default", ["p4", ["zn", 128, -1, "cc"]])]


def test_group_norm_of_a_contiguous_copy_keeps_its_strides(tmp_path):
    # mobilevitv2 (timm): C++ group_norm normalises `input.contiguous(memory_format)`, which
    # is the input itself when it already is contiguous. Here the input is reshape's copy of
    # a permuted patch grid, whose strides are products of `Max(1, size)` factors per
    # original dim; the decomposition's reshape then asks its contiguity of those strides,
    # which PyTorch decides without a guard (a `Max(1, Ch*Cw)*Max(1, Hq*Wq) == ...` guard
    # appeared when the strides were rebuilt from the sizes)
    doc, path = _graph(tmp_path, "gn_copy", _PATCH_GRID + [
        ("g", "aten.group_norm.default", ["r9", 1, None, None, 1e-5, False])], ["n", 128, "h", "w"], [2, 128, 4, 4])
    node_diffs, guard_diffs, guards = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    ceil_h, ceil_w = "math.ceil(L['x'].size()[2] / 2)", "math.ceil(L['x'].size()[3] / 2)"
    assert any(ceil_h in g and ceil_w in g and g.endswith("!= 1") for g in guards), guards


def test_view_helper_inner_views_leave_undecided_answers_cached(tmp_path):
    # The view helper's prims.collapse_view and prims.split_dim dispatch aten.as_strided, a
    # cache miss of its own: FakeTensorMode rebuilds the output with `set_` under
    # suppress_guards, whose contiguity walk asks `stride != expected` of it. Undecided, the
    # answer stays in _maybe_evaluate_static's cache, so at 2 x 4 (ceil(h/2) == 1) group_norm's
    # walk still records `128*Cw*Ch*Wq*Max(1, Hq) == 128*Cw*Ch*Wq*Hq` after the guard
    # without the 128 made it decidable (it was missing when only the node's own view asked)
    doc, path = _graph(tmp_path, "gn_inner_views", _PATCH_GRID + [
        ("g", "aten.group_norm.default", ["r9", 1, None, None, 1e-5, False])], ["n", 128, "h", "w"], [2, 128, 2, 4])
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    guards = symshape.load(path).propagate(example=0, strides="fake").guards  # the harness's mode
    assert any(g.startswith("(128*") and "max(1, " in g and " == " in g for g in guards), guards


@pytest.mark.parametrize("weight, bias", [(True, True), (False, False), (False, True)])
def test_group_norm_of_a_one_patch_grid_takes_the_view_helpers_sizes(tmp_path, weight, bias):
    # At 2 x 2 the grid has one patch (ceil(h/2) == ceil(w/2) == 1), so r9 is a view. Under
    # FakeTensorMode a view's sizes and strides are _reshape_view_helper's alone (no
    # computeStride questions); its tail squeeze is one more dispatched view (metadata and
    # `set_` walk); and group_norm's decomposition reshapes to (N, G, C // G, HxW) and views
    # back, so its output's last size is the helper's `HxW // HxW`, a literal 1, and the
    # guards after it carry no `ceil(h/2)` factor
    weights = {**({"gw": [128]} if weight else {}), **({"gb": [128]} if bias else {})}
    doc, path = _graph(tmp_path, "gn_one_patch", _PATCH_GRID + [
        ("g", "aten.group_norm.default", ["r9", 1, "gw" if weight else None, "gb" if bias else None, 1e-5, False])],
        ["n", 128, "h", "w"], [2, 128, 2, 2], weights=weights)
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    guards = symshape.load(path).propagate(example=0, strides="fake").guards  # the harness's mode
    bare_factors = ("*math.ceil(L['x'].size()[2] / 2)", "*math.ceil(L['x'].size()[3] / 2)")
    assert any(g.endswith(">= 2") and g.startswith("128*L['x'].size()[0]*") and not any(f in g for f in bare_factors)
               for g in guards), guards


@pytest.mark.parametrize("source, target", [
    ([4], ["one", "zs", 4]),     # hrm_text: a (32,) state expanded to a batch of 1
    ([1, 4], [2, "one", "zs", 4]),
    ([], ["one", "zs"]),         # a 0-dim tensor: a new size-1 dim gets stride 1
])
def test_expand_under_fake_mode_gives_a_new_size_one_dim_the_inputs_extent(tmp_path, source, target):
    # FakeTensorMode runs torch._refs.expand (prims.broadcast_in_dim): a new dim left size 1
    # takes strides[0] * sizes[0] of the input (1 for a 0-dim input), where eager repeats
    # the next dim's extent (0 behind an expanded dim)
    shape = [{"one": 1, "zs": "zs"}.get(t, t) for t in target]
    doc, path = _graph(tmp_path, "expand_new_one", [("zs", "aten.sym_size.int", ["x", 1]),
                                                    ("e", "aten.expand.default", ["z", shape])],
                       [1, "s", 4], [1, 3, 4], weights={"z": source})
    node_diffs, guard_diffs, _ = _compare(doc, path)
    assert node_diffs + guard_diffs == [], [(d["node"], d["field"], d["torch"], d["symshape"]) for d in node_diffs + guard_diffs]
    fake = symshape.load(path).propagate(example=0, strides="fake")
    strides = next(n["value"]["stride"] for n in fake.nodes if n["name"] == "e")
    i = target.index("one")
    assert strides[i] != "0", strides
