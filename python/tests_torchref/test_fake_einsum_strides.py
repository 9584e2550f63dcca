"""einsum's strides where PyTorch 2.x's FakeTensorMode and its eager kernels disagree, which
they do only on size-1 dims: after the last contraction at::einsum views the summed dims (all
1 by then) away, eager's computeStride gives a kept size-1 dim the stride of its place in the
new shape, FakeTensorMode's view (torch._refs._reshape_view_helper) keeps the dim's stride.
`propagate(strides="eager")` (the default) gives eager's, `strides="fake"` FakeTensorMode's;
both are checked against the real PyTorch on random contractions with size-1 dims."""
import json
import random
import string

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import symshape


def _doc(operand_sizes, equation):
    nodes = []
    for i, sizes in enumerate(operand_sizes):
        nodes.append({"op": "placeholder", "name": f"x{i}", "target": f"x{i}",
                      "meta": {"dtype": "float32", "rank": len(sizes)}})
    nodes.append({"op": "call_function", "name": "e", "target": "aten.einsum.default",
                  "args": [equation, [{"node": f"x{i}"} for i in range(len(operand_sizes))]]})
    nodes.append({"op": "output", "name": "output", "target": "output", "args": [{"node": "e"}]})
    spec = {f"x{i}": sizes for i, sizes in enumerate(operand_sizes)}
    return {"format": "fx-graph-json", "version": 1, "name": "e", "producer": {"torch": "2.13.0"}, "nodes": nodes,
            "dynamic_shapes": {"dynamic_shapes": spec, "dims": {}}, "examples": []}


def _cases(n, seed=0):
    """Contractions of two or three operands over labels of size 1 or more, some summed away."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        labels = string.ascii_lowercase[:rng.randint(2, 6)]
        size = {c: rng.choice([1, 1, 2, 3, 4]) for c in labels}
        operands = []
        for _ in range(rng.choice([2, 2, 3])):
            own = [c for c in labels if rng.random() < 0.7] or [labels[0]]
            rng.shuffle(own)
            operands.append("".join(own))
        used = sorted(set("".join(operands)))
        out = [c for c in used if rng.random() < 0.6]
        rng.shuffle(out)
        if len(out) == len(used):
            continue  # nothing summed: no final view
        equation = ",".join(operands) + "->" + "".join(out)
        cases.append(([[size[c] for c in op] for op in operands], equation))
    return cases


def _torch_strides(operand_sizes, equation, fake):
    def run():
        return torch.einsum(equation, *[torch.empty(s) for s in operand_sizes]).stride()
    if fake:
        with FakeTensorMode():
            return run()
    return run()


def test_einsum_strides_eager_and_fake_match_pytorch():
    differ = 0
    cases = _cases(200)
    for operand_sizes, equation in cases:
        eager = _torch_strides(operand_sizes, equation, fake=False)
        fake = _torch_strides(operand_sizes, equation, fake=True)
        g = symshape.load(json.dumps(_doc(operand_sizes, equation)).encode())
        sizes = {f"x{i}": s for i, s in enumerate(operand_sizes)}
        for mode, expected in (("eager", eager), ("fake", fake)):
            prop = g.propagate(sizes=sizes, strides=mode)
            got = {n["name"]: n["value"] for n in prop.concrete_nodes()}["e"]["stride"]
            assert tuple(got) == tuple(expected), (mode, operand_sizes, equation)
        differ += eager != fake
    assert differ > 10  # the cases do exercise the disagreement


@pytest.mark.parametrize("batch", [1, 2])
def test_maxvit_window_attention_einsum(batch):
    """maxvit_t's attention scores at one window (`B G H I D, B G H J D -> B G H I J`, G = 1):
    FakeTensorMode keeps stride 49 on G where eager gives B's."""
    operand_sizes = [[batch, 1, 16, 49, 32], [batch, 1, 16, 49, 32]]
    equation = "B G H I D, B G H J D -> B G H I J"
    g = symshape.load(json.dumps(_doc(operand_sizes, equation)).encode())
    sizes = {"x0": operand_sizes[0], "x1": operand_sizes[1]}
    fake = {n["name"]: n["value"] for n in g.propagate(sizes=sizes, strides="fake").concrete_nodes()}["e"]
    eager = {n["name"]: n["value"] for n in g.propagate(sizes=sizes).concrete_nodes()}["e"]
    assert tuple(fake["stride"]) == _torch_strides(operand_sizes, equation, fake=True)
    assert tuple(eager["stride"]) == _torch_strides(operand_sizes, equation, fake=False)
    assert fake["stride"][1] == 49
