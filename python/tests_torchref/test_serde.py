"""The spec serializer against PyTorch 2.x's _dump_dynamic_shapes / _load_dynamic_shapes:
no difference outside torchref_known over the corpus specs and 500 generated specs, and a
planted difference is reported."""
import json

import pytest

from corpus_paths import corpus_graphs
from symshape import torchref_serde
from symshape.torchref_known import KNOWN


def unknown(diffs):
    return [d for d in diffs if d["key"] not in KNOWN]


@pytest.mark.parametrize("path", corpus_graphs(), ids=lambda p: p.name.split(".")[0])
def test_corpus_spec(path):
    doc = json.loads(path.read_text())
    cases, diffs = torchref_serde.compare_spec_doc(doc["name"], doc["dynamic_shapes"])
    assert cases >= 50
    assert unknown(diffs) == []


def test_corpus_has_specs():
    assert len(corpus_graphs()) >= 20


def test_generated_specs():
    cases, diffs = torchref_serde.compare_generated(count=500, seed=0)
    assert cases >= 1000  # dump and load of each spec, plus one mutation each
    assert unknown(diffs) == []


def test_max_null_is_the_known_difference():
    spec = {"dynamic_shapes": {"x": ["dx"]}, "dims": {"dx": {"min": 2, "max": None, "derived": []}}}
    c = torchref_serde.Comparison("planted")
    c.load_case("planted", "max null", spec)
    assert [d["key"] for d in c.diffs] == ["serde:load_from_dict_max_null"]
    assert "to map `max` to an int or None, got dx: None" in c.diffs[0]["torch"]


def test_planted_wrong_dump_is_reported(monkeypatch):
    real = torchref_serde.symshape_dump
    monkeypatch.setattr(torchref_serde, "symshape_dump",
                        lambda d: ("ok", real(d)[1].replace('"min": 2', '"min": 3')))
    dx = torchref_serde.Dim("dx", min=2)
    import torch
    dumped = torchref_serde._dump_dynamic_shapes({"x": (dx, 3)}, (torch.empty(4, 3, device="meta"),), to_dict=True)
    c = torchref_serde.Comparison("planted")
    c.dump_case("planted", "dx min 2", dumped)
    assert len(c.diffs) == 1 and c.diffs[0]["detail"] == "dump: different spec text"
    assert c.diffs[0]["key"] not in KNOWN


def test_planted_wrong_error_is_reported(monkeypatch):
    monkeypatch.setattr(torchref_serde, "symshape_load", lambda d: ("error", "UserError", "some other message"))
    c = torchref_serde.Comparison("planted")
    c.load_case("planted", "min string", {"dynamic_shapes": {"x": ["dx"]},
                                          "dims": {"dx": {"min": "2", "max": 8, "derived": []}}})
    assert [d["detail"] for d in c.diffs] == ["load: different error message"]
