"""Graphs loaded one after another in one process propagate as when loaded alone: the op
rules cached kwarg keys by OpTable address (now by OpTable::serial()), and a per-graph
table freed and reallocated at the same address handed the next graph
another graph's keys: a floor division of integers came out float32."""
import gc

import pytest

import symshape

torch = pytest.importorskip("torch")


class FloorDiv(torch.nn.Module):
    def forward(self, x, y):
        return torch.div(x, y, rounding_mode="floor")


class ScaledFloorDiv(torch.nn.Module):
    # interns the kwarg key `alpha` before `rounding_mode`: the keys get other indices
    def forward(self, x, y):
        return torch.div(torch.add(x, y, alpha=2), y, rounding_mode="floor")


def div_dtypes(text):
    g = symshape.load(text.encode())
    p = g.propagate(sizes={"x": [2, 3], "y": [2, 3]})
    return [n["value"]["dtype"] for n in p.nodes if n["target"].startswith("aten.div")]


def test_graphs_loaded_in_turn_keep_their_own_kwarg_keys():
    ex = (torch.randint(1, 9, (2, 3)), torch.randint(1, 9, (2, 3)))
    floor_div, scaled = symshape.export(FloorDiv(), ex), symshape.export(ScaledFloorDiv(), ex)
    expected = str(FloorDiv()(*ex).dtype).replace("torch.", "")
    assert expected == "int64"
    for _ in range(3):
        assert div_dtypes(scaled) == [expected]
        gc.collect()  # the graph and its tables are gone; the next load may reuse the memory
        assert div_dtypes(floor_div) == [expected]
        gc.collect()
