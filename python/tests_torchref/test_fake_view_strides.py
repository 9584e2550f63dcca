"""A view's strides where PyTorch 2.x's FakeTensorMode (torch._refs._reshape_view_helper) and
its eager kernels (computeStride) disagree, which they do only on size-1 dims:
`propagate(strides="eager")` (the default) gives eager's, `strides="fake"` FakeTensorMode's.
Both are checked against the real PyTorch on random views and reshapes of permuted tensors
with size-1 dims."""
import json
import random

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode

import symshape


def _doc(sizes, perm, op, shape):
    return {"format": "fx-graph-json", "version": 1, "name": "v", "producer": {}, "nodes": [
        {"op": "placeholder", "name": "x", "target": "x", "meta": {"dtype": "float32", "rank": len(perm)}},
        {"op": "call_function", "name": "p", "target": "aten.permute.default", "args": [{"node": "x"}, perm]},
        {"op": "call_function", "name": "v", "target": f"aten.{op}.default", "args": [{"node": "p"}, shape]},
        {"op": "output", "name": "output", "target": "output", "args": [{"node": "v"}]},
    ], "dynamic_shapes": {"dynamic_shapes": {"x": sizes}, "dims": {}}, "examples": []}


def _cases(n, seed=0):
    rng = random.Random(seed)
    cases = []
    while len(cases) < n:
        rank = rng.randint(1, 4)
        sizes = [rng.choice([1, 1, 2, 3, 4, 6]) for _ in range(rank)]
        perm = list(range(rank))
        rng.shuffle(perm)
        # a target shape: the permuted sizes with dims merged, split, and 1s inserted or dropped
        permuted = [sizes[p] for p in perm]
        target = []
        for s in permuted:
            if target and rng.random() < 0.3:
                target[-1] *= s
            elif s == 1 and rng.random() < 0.4:
                continue
            else:
                target.append(s)
            if rng.random() < 0.25:
                target.insert(rng.randint(0, len(target)), 1)
        if not target:
            target = [1]
        cases.append((sizes, perm, target))
    return cases


def _torch_strides(sizes, perm, op, target, fake):
    def run():
        x = torch.empty(sizes).permute(perm)
        return getattr(x, op)(target).stride()
    try:
        if fake:
            with FakeTensorMode():
                return run()
        return run()
    except (RuntimeError, ValueError):
        return None  # a view PyTorch refuses (eager: RuntimeError, the fake helper: ValueError)


@pytest.mark.parametrize("op", ["view", "reshape"])
def test_view_strides_eager_and_fake_match_pytorch(op):
    checked = differ = 0
    for sizes, perm, target in _cases(300):
        eager = _torch_strides(sizes, perm, op, target, fake=False)
        fake = _torch_strides(sizes, perm, op, target, fake=True)
        g = symshape.load(json.dumps(_doc(sizes, perm, op, target)).encode())
        if eager is None or fake is None:
            # which views PyTorch refuses: eager's computeStride (FakeTensorMode's helper accepts a
            # few eager refuses, e.g. (2, 1, 4, 1) strides (1, 1, 2, 2) as (8, 1)); symshape follows eager
            if eager is None:
                with pytest.raises(symshape.ShapeError, match="view size is not compatible"):
                    g.propagate(sizes={"x": sizes})
            continue
        for mode, expected in (("eager", eager), ("fake", fake)):
            prop = g.propagate(sizes={"x": sizes}, strides=mode)
            got = {n["name"]: n["value"] for n in prop.concrete_nodes()}["v"]["stride"]
            assert tuple(got) == tuple(expected), (mode, sizes, perm, target)
        checked += 1
        differ += eager != fake
    assert checked > 150
    assert differ > 10  # the cases do exercise the disagreement


def test_strides_argument_is_checked():
    g = symshape.load(json.dumps(_doc([2], [0], "view", [2])).encode())
    with pytest.raises(ValueError, match="strides must be 'eager'"):
        g.propagate(sizes={"x": [2]}, strides="meta")
