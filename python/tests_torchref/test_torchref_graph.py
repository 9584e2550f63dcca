"""torchref_graph: the targets a real exported graph holds besides aten ops resolve to
PyTorch's callables, and a custom op whose library is not imported is PyTorch being unable
to run the graph (torch_rejected), not an error of the harness."""
import math
import operator

import pytest
import torch

from symshape import torchref_graph, torchref_prop


@pytest.mark.parametrize("name, expected", [
    ("aten.add.Tensor", torch.ops.aten.add.Tensor),
    ("math.ceil", math.ceil),
    ("math.floor", math.floor),
    ("torch.sym_float", torch.sym_float),
    ("torch.sym_max", torch.sym_max),
    ("operator.truediv", operator.truediv),
])
def test_targets_resolve(name, expected):
    assert torchref_graph.resolve_target(name) is expected


def test_unknown_targets_are_conversion_errors():
    with pytest.raises(torchref_graph.GraphConversionError, match="has no aten.no_such_op.default"):
        torchref_graph.resolve_target("aten.no_such_op.default")
    with pytest.raises(torchref_graph.GraphConversionError, match="unknown target 'math.no_such'"):
        torchref_graph.resolve_target("math.no_such")
    with pytest.raises(torchref_graph.OpNotRegistered, match="symshape_test_lib::missing.default"):
        torchref_graph.resolve_target("symshape_test_lib.missing.default")


def _doc(target):
    return {"nodes": [
        {"op": "placeholder", "name": "x", "meta": {"dtype": "float32"}},
        {"op": "call_function", "name": "sym_size", "target": "aten.sym_size.int", "args": [{"node": "x"}, 0]},
        {"op": "call_function", "name": "half", "target": "operator.truediv", "args": [{"node": "sym_size"}, 2]},
        {"op": "call_function", "name": "ceil", "target": "math.ceil", "args": [{"node": "half"}]},
        {"op": "call_function", "name": "y", "target": target, "args": [{"node": "x"}]},
        {"op": "output", "name": "output", "args": [[{"node": "y"}, {"node": "ceil"}]]},
    ], "dynamic_shapes": {"dynamic_shapes": {"x": ["n"]}, "dims": {"n": {"min": 2, "max": None}}}}


def test_math_ceil_of_a_symbolic_size_runs():
    ref = torchref_prop.torch_propagate(_doc("aten.relu.default"), {"inputs": {"x": [7]}})
    ceil = ref["values"]["ceil"]
    assert isinstance(ceil, torch.SymInt) and ceil.node.hint == 4


def test_custom_op_of_an_unimported_library_is_torch_rejected():
    with pytest.raises(torchref_prop.TorchRejected) as info:
        torchref_prop.torch_propagate(_doc("symshape_test_lib.missing.default"), {"inputs": {"x": [7]}})
    assert info.value.node == "y"
    assert "not registered in this process" in str(info.value)


def test_custom_op_of_an_unimported_library_is_torch_rejected_by_the_violation_part():
    # the constraint-violation part rebuilds the same GraphModule: PyTorch being unable to run
    # the graph is reported there too, not raised as an error of the harness
    from symshape import torchref_violations
    before = len(torchref_violations.torch_rejected)
    doc = _doc("symshape_test_lib.missing.default")
    own = {"dynamic": True}
    cases, diffs = torchref_violations.compare_graph_specs(
        "missing_op", doc, "unused.graph.json", symshape_check=lambda path, spec: own)
    assert (cases, diffs) == (0, [])
    rejected = torchref_violations.torch_rejected[before:]
    assert len(rejected) == 1 and rejected[0]["graph"] == "missing_op"
    assert "not registered in this process" in rejected[0]["error"]
