"""symshape.export through PyTorch 2.x's torch.export.export (real ExportedPrograms, nothing
mocked): a branch on a size becomes the spec's range (the engine rejects the other side) or
torch.export's refusal reaches the user as ExportError; stock LSTM/GRU, a CNN and a
transformer block export with dynamic batch/seq and agree with PyTorch node by node; derived
dims (`b + 1`, `n - 1`, `2*m`, `2*r + 1`) export as derived dims of their root and verify node by
node, a size in two roots is refused by name."""
import json
import math

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim

import symshape
from symshape.exporter import ExportError

from branchy import Branchy


def _accepts(text, sizes):
    try:
        symshape.load(text.encode()).propagate(sizes=sizes)
        return True
    except symshape.ShapeError:
        return False


@pytest.mark.parametrize("seq, dim, dims, accepted, rejected", [
    (20, Dim("s", min=17), {"s": {"min": 17, "max": None, "derived": []}}, [17, 20, 99], [8, 16]),
    (8, Dim("s", max=16), {"s": {"min": 0, "max": 16, "derived": []}}, [8, 16], [17, 20]),
])
def test_branch_is_the_spec_range(seq, dim, dims, accepted, rejected, tmp_path):
    text = symshape.export(Branchy(), (torch.randn(2, seq, 16),), dynamic_shapes={"x": {1: dim}})
    doc = json.loads(text)
    assert doc["dynamic_shapes"] == {"dynamic_shapes": {"x": [2, "s", 16]}, "dims": dims}
    assert [s for s in accepted if _accepts(text, {"x": [2, s, 16]})] == accepted
    assert [s for s in rejected if _accepts(text, {"x": [2, s, 16]})] == []
    # the same through the CLI: `symshape eval` over the other side of the branch
    import os
    import subprocess
    cli = os.environ.get("SYMSHAPE_CLI")
    if cli:
        g, ex = tmp_path / "branchy.graph.json", tmp_path / "sizes.ndjson"
        g.write_text(text)
        ex.write_text("".join(json.dumps({"x": [2, s, 16]}) + "\n" for s in rejected))
        out = subprocess.run([cli, "eval", str(g), "--examples", str(ex)], capture_output=True, text=True)
        assert f"rejected={len(rejected)}" in out.stdout, out.stdout + out.stderr


@pytest.mark.parametrize("seq", [20, 8])
def test_branch_with_auto_dims_records_the_side_taken(seq):
    text = symshape.export(Branchy(), (torch.randn(2, seq, 16),))  # None: Dim.AUTO everywhere
    spec = json.loads(text)["dynamic_shapes"]
    sym = spec["dynamic_shapes"]["x"][1]
    lo, hi = spec["dims"][sym]["min"], spec["dims"][sym]["max"]
    assert (lo, hi) == ((17, None) if seq > 16 else (2, 16))
    other = 8 if seq > 16 else 20
    assert _accepts(text, {"x": [2, seq, 16]}) and not _accepts(text, {"x": [2, other, 16]})


def test_branch_unbounded_dim_is_torch_exports_error():
    with pytest.raises(ExportError, match=r"(?s)Constraints violated \(s\).*Dim\('s', min=17\)"):
        symshape.export(Branchy(), (torch.randn(2, 20, 16),), dynamic_shapes={"x": {1: Dim("s")}})


class Recurrent(nn.Module):
    def __init__(s, cls, batch_first=True, layers=1, bidirectional=False):
        super().__init__()
        s.r = cls(8, 16, num_layers=layers, batch_first=batch_first, bidirectional=bidirectional)

    def forward(s, x):
        return s.r(x)


@pytest.mark.parametrize("batch_first", [True, False], ids=["batch_first", "time_major"])
@pytest.mark.parametrize("layers, bidirectional", [(1, False), (2, False), (2, True)], ids=["1l", "2l", "2l_bi"])
@pytest.mark.parametrize("cls, op", [(nn.LSTM, "aten.lstm.input"), (nn.GRU, "aten.gru.input")], ids=["lstm", "gru"])
def test_recurrent_dynamic_batch_node_by_node(cls, op, layers, bidirectional, batch_first):
    # torch.export keeps the fused op (aten.lstm.input / aten.gru.input) with the sequence
    # length specialised (its decomposition loops over the time steps): only the batch varies
    def x(b, t=5):
        return torch.randn(b, t, 8) if batch_first else torch.randn(t, b, 8)
    bdim = 0 if batch_first else 1
    model = Recurrent(cls, batch_first, layers, bidirectional).eval()
    examples = [(x(2),), (x(3),), (x(1),), (x(7),), (x(2, 6),)]
    r = symshape.verify(model, examples, dynamic_shapes={"x": {bdim: Dim("batch")}})
    doc = json.loads(r.text)
    assert op in [n["target"] for n in doc["nodes"]]
    assert doc["dynamic_shapes"]["dynamic_shapes"]["x"] == (["batch", 5, 8] if batch_first else [5, "batch", 8])
    assert [e.outcome for e in r.examples] == ["correct"] * 5, r.details()
    assert [e.engine_accepted for e in r.examples] == [True, True, True, True, False]  # seq 6: specialised to 5
    assert all(e.nodes_checked >= 10 and not e.node_diffs for e in r.examples[:4])


@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU], ids=["lstm", "gru"])
def test_recurrent_dynamic_seq_is_refused_by_name(cls):
    # PyTorch's own refusal (the decomposition specialises the sequence length), its message kept
    with pytest.raises(ExportError, match=r"(?s)torch.export.export refused the model \(UserError\): "
                                          r"Constraints violated \(seq\)!.*specialized it to be a constant \(5\)"):
        symshape.export(Recurrent(cls).eval(), (torch.randn(2, 5, 8),),
                        dynamic_shapes={"x": {0: Dim("batch"), 1: Dim("seq")}})


class SmallCNN(nn.Module):
    def __init__(s):
        super().__init__()
        s.c = nn.Conv2d(3, 8, 3, padding=1)
        s.bn = nn.BatchNorm2d(8)
        s.fc = nn.Linear(8, 4)

    def forward(s, x):
        return s.fc(F.adaptive_avg_pool2d(F.relu(s.bn(s.c(x))), 1).flatten(1))


class Block(nn.Module):
    def __init__(s):
        super().__init__()
        s.ln = nn.LayerNorm(16)
        s.att = nn.MultiheadAttention(16, 2, batch_first=True)
        s.ff = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16))

    def forward(s, x):
        h = s.ln(x)
        x = x + s.att(h, h, h, need_weights=False)[0]
        return x + s.ff(x)


def test_cnn_node_by_node():
    examples = [(torch.randn(2, 3, 16, 16),), (torch.randn(5, 3, 16, 16),), (torch.randn(2, 4, 16, 16),)]
    r = symshape.verify(SmallCNN().eval(), examples, dynamic_shapes={"x": {0: Dim("batch")}})
    kinds = {n["target"]: n["op"] for n in json.loads(r.text)["nodes"]}
    assert kinds["bn.running_mean"] == "get_attr" and kinds["c.weight"] == "get_attr"  # lifted state
    assert [e.outcome for e in r.examples] == ["correct"] * 3, r.details()
    assert [e.engine_accepted for e in r.examples] == [True, True, False]  # 4 channels: PyTorch refuses too
    assert all(e.nodes_checked > 5 and not e.node_diffs for e in r.examples[:2])


def test_transformer_block_dynamic_batch_and_seq():
    # nn.MultiheadAttention calls aten.scaled_dot_product_attention on (L, B, H, E)-ordered
    # q/k/v views; 2.x's CPU flash path returns empty_like(query), which the engine follows
    examples = [(torch.randn(2, 5, 16),), (torch.randn(3, 9, 16),), (torch.randn(4, 2, 16),)]
    r = symshape.verify(Block().eval(), examples, dynamic_shapes={"x": {0: Dim("batch"), 1: Dim("seq")}})
    assert json.loads(r.text)["dynamic_shapes"]["dynamic_shapes"] == {"x": ["batch", "seq", 16]}
    assert [e.outcome for e in r.examples] == ["correct"] * 3, r.details()
    assert all(e.nodes_checked > 10 and not e.node_diffs for e in r.examples)


class CatKw(nn.Module):
    def forward(self, x, *, y):  # y keyword-only: export's kwargs
        return torch.cat([x + y[1:], y], 0)


class SliceMul(nn.Module):
    def forward(self, x, y):
        return x[1:] * y


class ViewAdd(nn.Module):
    def forward(self, x, z):
        return z.view(-1, 2, 3) + x.unsqueeze(1)


class OddView(nn.Module):
    def forward(self, z):
        return z[1:].view(-1, 2, 3)


def _t(*shape):
    return torch.randn(*shape)


_B = Dim("b", min=2, max=64)
_N = Dim("n", min=2, max=32)
_M = Dim("m")


# Derived dims of one root export as derived dims of the root's name (PyTorch's text, listed
# under the root), and verify node by node at several sizes: the root used first (b + 1, a
# keyword input), a root export rewrites over the smaller derived input (n - 1: x's size is
# s + 1 in the program), a root used by a later input (2*m), a phantom root (2*r + 1). Sizes
# off the relation or the range are refused by both (PyTorch's own error) or out of the spec.
@pytest.mark.parametrize("model, examples, kwargs, shapes, spec", [
    (CatKw(), [(_t(4, 3),), (_t(7, 3),), (_t(2, 3),), (_t(4, 3),)],
     [{"y": _t(5, 3)}, {"y": _t(8, 3)}, {"y": _t(3, 3)}, {"y": _t(6, 3)}],
     {"x": {0: _B}, "y": {0: _B + 1}},
     {"dynamic_shapes": {"x": ["b", 3], "y": ["b + 1", 3]}, "dims": {"b": {"min": 2, "max": 64, "derived": ["b + 1"]}}}),
    (SliceMul(), [(_t(5, 3), _t(4, 3)), (_t(9, 3), _t(8, 3)), (_t(32, 3), _t(31, 3)), (_t(33, 3), _t(32, 3))], None,
     {"x": {0: _N}, "y": {0: _N - 1}},
     {"dynamic_shapes": {"x": ["n", 3], "y": ["n - 1", 3]}, "dims": {"n": {"min": 2, "max": 32, "derived": ["n - 1"]}}}),
    (ViewAdd(), [(_t(3, 3), _t(6, 3)), (_t(5, 3), _t(10, 3)), (_t(2, 3), _t(4, 3)), (_t(5, 3), _t(12, 3))], None,
     {"x": {0: _M}, "z": {0: 2 * _M}},
     {"dynamic_shapes": {"x": ["m", 3], "z": ["2*m", 3]}, "dims": {"m": {"min": 0, "max": None, "derived": ["2*m"]}}}),
    (OddView(), [(_t(5, 3),), (_t(9, 3),), (_t(101, 3),), (_t(6, 3),)], None,
     {"z": {0: 2 * Dim("r") + 1}},
     {"dynamic_shapes": {"z": ["2*r + 1", 3]}, "dims": {"r": {"min": 0, "max": None, "derived": ["2*r + 1"]}}}),
], ids=["plus_one_kwarg", "minus_one", "double_later_root", "phantom_odd"])
def test_derived_dims_export_and_verify(model, examples, kwargs, shapes, spec):
    if kwargs is None:
        text = symshape.export(model, examples[0], dynamic_shapes=shapes)
    else:
        text = symshape.export(model, examples[0], kwargs[0], dynamic_shapes=shapes)
    assert json.loads(text)["dynamic_shapes"] == spec
    if kwargs is not None:
        return  # verify takes positional examples; the kwarg export itself is the check
    r = symshape.verify(model, examples, dynamic_shapes=shapes)
    assert json.loads(r.text)["dynamic_shapes"] == spec
    assert [e.outcome for e in r.examples] == ["correct"] * len(examples), r.details()
    assert [e.engine_accepted for e in r.examples] == [True, True, True, False], r.details()
    assert all(e.nodes_checked >= 3 and not e.node_diffs for e in r.examples[:3]), r.details()
    assert r.constraint_differences == [], r.details()


def test_derived_dim_guards_are_produce_guards():
    class Cat(nn.Module):
        def forward(self, x, y):
            return torch.cat([x + y[1:], y], 0)
    examples = [(_t(4, 3), _t(5, 3)), (_t(7, 3), _t(8, 3)), (_t(64, 3), _t(65, 3)), (_t(4, 3), _t(6, 3))]
    r = symshape.verify(Cat(), examples, dynamic_shapes={"x": {0: _B}, "y": {0: _B + 1}})
    assert [e.outcome for e in r.examples] == ["correct"] * 4, r.details()
    assert [e.engine_accepted for e in r.examples] == [True, True, True, False]
    assert all(e.nodes_checked >= 4 and not e.node_diffs for e in r.examples[:3]), r.details()
    # the guards are produce_guards': the relation as a source equality, the range on the root
    g = symshape.load(r.text.encode()).propagate(sizes={"x": [4, 3], "y": [5, 3]}).guards
    assert "L['y'].size()[0] == 1 + L['x'].size()[0]" in g
    assert "2 <= L['x'].size()[0] and L['x'].size()[0] <= 64" in g


def test_size_in_two_roots_is_refused_by_name():
    # z's length is x's + y's (OPT's mask length = past + q): no Dim or derived Dim of one root
    class Sum(nn.Module):
        def forward(self, x, y, z):
            return torch.cat([x, y], 0) + z
    with pytest.raises(ExportError, match=r"input 'z' has size s\d+ \+ s\d+ \(dim 0, over a and b\): a size in "
                                          r"several Dims has no DynamicShapesSpec form"):
        symshape.export(Sum(), (_t(3, 4), _t(5, 4), _t(8, 4)),
                        dynamic_shapes={"x": {0: Dim("a")}, "y": {0: Dim("b")}, "z": {0: Dim.AUTO}})


def test_runtime_assert_is_never_dropped():
    class Item(nn.Module):
        def forward(self, x, n):
            k = n.item()
            torch._check(k < 5)
            return x[:k]
    # torch._check on an unbacked item() becomes aten._assert_scalar nodes: kept in the graph
    # (no users) and propagated as deferred runtime asserts, never dropped
    text = symshape.export(Item(), (torch.randn(6, 3), torch.tensor(2)))
    targets = [n["target"] for n in json.loads(text)["nodes"]]
    assert "aten._assert_scalar.default" in targets
    # (propagating it stops at x[:k]: the slice rule guards on the sign of an unbacked end,
    # the known data_dependent --pending case, not the assert)


def test_torch_cond_is_named_with_its_module():
    class Inner(nn.Module):
        def forward(self, x):
            return torch.cond(x.shape[0] > 4, lambda x: x.sin(), lambda x: x.cos(), (x,))

    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.block = Inner()

        def forward(self, x):
            return self.block(x) + 1
    # a branch taken at run time cannot be one fx-graph-json graph: refused by op, node and module
    with pytest.raises(ExportError, match=r"node 'cond' in module 'block' calls the higher-order op torch.cond"):
        symshape.export(Outer(), (torch.randn(6, 3),), dynamic_shapes={"x": {0: Dim("b")}})


def test_math_ceil_of_a_size_exports_and_verifies():
    class PadToPatch(nn.Module):
        # timm's mobilevit: pad H and W up to a multiple of the patch, math.ceil on SymFloats
        def forward(self, x):
            h, w = x.shape[2], x.shape[3]
            nh, nw = math.ceil(h / 4) * 4, math.ceil(w / 4) * 4
            return torch.nn.functional.pad(x, (0, nw - w, 0, nh - h)).flatten(2)
    examples = [(torch.randn(2, 3, 9, 12),), (torch.randn(1, 3, 17, 5),), (torch.randn(3, 3, 8, 7),)]
    spec = {"x": {0: Dim("b"), 2: Dim("h", min=2), 3: Dim("w", min=2)}}
    text = symshape.export(PadToPatch(), examples[0], dynamic_shapes=spec)
    assert "math.ceil" in {n["target"] for n in json.loads(text)["nodes"]}
    r = symshape.verify(PadToPatch(), examples, dynamic_shapes=spec)
    assert [e.outcome for e in r.examples] == ["correct"] * 3, r.details()
    assert all(e.nodes_checked > 3 and not e.node_diffs for e in r.examples)


def test_histc_exports_and_verifies():
    class Counts(nn.Module):
        # an MoE router's tokens-per-expert count
        def forward(self, x):
            return torch.histc(x.argmax(-1).float(), bins=4, min=0, max=3), x.softmax(-1)
    examples = [(torch.randn(2, 7, 4),), (torch.randn(1, 3, 4),), (torch.randn(3, 9, 4),)]
    spec = {"x": {0: Dim("b"), 1: Dim("s")}}
    assert "aten.histc.default" in {n["target"] for n in json.loads(symshape.export(Counts(), examples[0],
                                                                                    dynamic_shapes=spec))["nodes"]}
    r = symshape.verify(Counts(), examples, dynamic_shapes=spec)
    assert [e.outcome for e in r.examples] == ["correct"] * 3, r.details()
