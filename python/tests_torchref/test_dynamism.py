"""Dynamism across examples against PyTorch 2.x's track_dynamism_across_examples: no
difference outside torchref_known over the corpus graphs' examples (plain, and with the
graph's module as "self") and 200 generated example sets, and a planted difference is
reported."""
import json

import pytest
import torch

from corpus_paths import corpus_graphs
from symshape import torchref_dynamism
from symshape.torchref_known import KNOWN


def unknown(diffs):
    return [d for d in diffs if d["key"] not in KNOWN]


@pytest.mark.parametrize("path", corpus_graphs(), ids=lambda p: p.name.split(".")[0])
def test_corpus_examples(path):
    doc = json.loads(path.read_text())
    cases, diffs = torchref_dynamism.compare_graph_examples(doc["name"], doc, graph_path=str(path))
    assert cases == 3
    assert unknown(diffs) == []


def test_generated_examples():
    cases, diffs = torchref_dynamism.compare_generated(count=200, seed=0)
    assert cases >= 200
    assert unknown(diffs) == []


def test_planted_difference_is_reported(monkeypatch):
    real = torchref_dynamism.symshape_dynamism
    monkeypatch.setattr(torchref_dynamism, "symshape_dynamism",
                        lambda lines, *a, **k: ("ok", real(lines, *a, **k)[1].replace("true", "false")))
    doc = {"name": "planted", "nodes": [{"name": "x", "op": "placeholder", "target": "x"}],
           "examples": [{"ok": True, "inputs": {"x": [2, 3]}}, {"ok": True, "inputs": {"x": [5, 3]}}]}
    cases, diffs = torchref_dynamism.compare_graph_examples("planted", doc)
    assert cases == 1 and len(diffs) == 1
    assert diffs[0]["detail"] == "PyTorch L['x']: [True, False], symshape L['x']: [False, False]"


def test_pytorch_reference_itself():
    # The reference is PyTorch's function, not a reimplementation (G.5 example 3).
    examples = [{"a": torch.ones(k, 2), "b": [torch.ones(k), k + 2], "c": {"d": 42}} for k in range(1, 6)]
    out = torchref_dynamism.torch_dynamism(examples)
    assert json.loads(out[1]) == {"a": {"L['a']": [True, False]}, "b": {"L['b'][0]": [True], "L['b'][1]": [True]},
                                  "c": {"L['c']['d']": [False]}}
