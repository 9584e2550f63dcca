"""Spec suggestion from observed sizes, and ExportedProgram input by duck typing."""
import json
import types

import pytest

torch = pytest.importorskip("torch")

import symshape  # noqa: E402


def test_suggestion_shares_dims_that_move_together():
    obs = [(torch.zeros(2, 7, 4), torch.zeros(2, 7)), (torch.zeros(5, 7, 4), torch.zeros(5, 7)),
           (torch.zeros(1, 12, 4), torch.zeros(1, 12))]
    spec = symshape.suggest_dynamic_shapes(obs, ["x", "mask"])
    assert set(spec["x"]) == {0, 1}  # dim 2 never varies: static
    assert spec["mask"][0] is spec["x"][0] and spec["mask"][1] is spec["x"][1]
    assert spec["x"][0] is not spec["x"][1]


def test_suggestion_rejects_rank_changes():
    with pytest.raises(ValueError, match="ranks"):
        symshape.suggest_dynamic_shapes([(torch.zeros(2, 3),), (torch.zeros(2, 3, 4),)], ["x"])


def test_suggested_spec_verifies():
    class M(torch.nn.Module):
        def forward(self, x, mask):
            return x.sum(-1) * mask
    obs = [(torch.randn(2, 7, 4), torch.ones(2, 7)), (torch.randn(5, 3, 4), torch.ones(5, 3))]
    spec = symshape.suggest_dynamic_shapes(obs, ["x", "mask"])
    doc = json.loads(symshape.export(M(), obs[0], dynamic_shapes=spec))
    assert doc["dynamic_shapes"]["dynamic_shapes"] == {"x": ["x_0", "x_1", 4], "mask": ["x_0", "x_1"]}
    assert symshape.verify(M(), obs + [(torch.randn(2, 7, 4), torch.ones(2, 6))], dynamic_shapes=spec).ok


def test_exported_program_by_duck_typing():
    """An object shaped like torch.export's ExportedProgram: lifted parameter, symbolic size."""
    from torch.fx.experimental.proxy_tensor import make_fx

    w = torch.randn(4, 3)

    def f(p_weight, x):
        return torch.ops.aten.linear.default(x, p_weight)
    gm = make_fx(f)(w, torch.randn(2, 3))
    ph = [n for n in gm.graph.nodes if n.op == "placeholder"]

    class Sym:  # prints like a SymInt of torch.export
        def __str__(self):
            return "s0"
    ph[1].meta["val"] = types.SimpleNamespace(shape=(Sym(), 3))
    ph[0].meta["val"] = types.SimpleNamespace(shape=(4, 3))
    ep = types.SimpleNamespace(
        graph_module=gm, state_dict={"fc.weight": w},
        range_constraints={"s0": types.SimpleNamespace(lower=2, upper=types.SimpleNamespace(is_finite=False))},
        graph_signature=types.SimpleNamespace(inputs_to_parameters={ph[0].name: "fc.weight"}, inputs_to_buffers={}))
    doc = json.loads(symshape.export(ep, (torch.randn(2, 3),), examples=[(torch.randn(5, 3),)]))
    kinds = {n["target"]: n["op"] for n in doc["nodes"]}
    assert kinds["fc.weight"] == "get_attr" and kinds[ph[1].name] == "placeholder"  # the lifted parameter
    assert doc["dynamic_shapes"]["dynamic_shapes"] == {ph[1].name: ["s0", 3]}
    assert doc["dynamic_shapes"]["dims"]["s0"] == {"min": 2, "max": None, "derived": []}
    r = symshape.load(json.dumps(doc).encode()).conform()
    assert [e["outcome"] for e in r["examples"]] == ["correct"]
