"""Graph.infer and symshape.dynamism: the engine's shape inference and dynamism tracking
return `symshape infer --json` / `symshape dynamism`'s objects as Python data, and the
specs they give flow into load(spec=...) / check_spec unedited."""
import json
import os
import subprocess

import pytest

import symshape

CORPUS = os.path.join(os.environ.get("SYMSHAPE_SOURCE_DIR", "."), "..", "shared", "corpus", "visible")
VGG = os.path.join(CORPUS, "vgg11_bn.graph.json")
CLI = os.environ.get("SYMSHAPE_CLI")

pytestmark = pytest.mark.skipif(not os.path.exists(VGG), reason="the corpus is not beside the checkout")


def test_infer_from_too_small_sizes_gives_the_nearest_valid_sizes_and_a_spec_that_checks_clean():
    g = symshape.load(VGG)
    r = g.infer(sizes={"x": [1, 3, 16, 20]})
    assert r["status"] == "valid"
    assert r["sizes"] == {"x": [1, 3, 32, 32]}
    assert any(c["kind"] == "Le" and c["node"].startswith("max_pool2d") for c in r["constraints"])
    checked = symshape.check_spec(VGG, spec=r["spec"])
    assert checked["ok"], checked["report"]


def test_infer_equals_the_cli():
    if not CLI:
        pytest.skip("SYMSHAPE_CLI not set")
    cli = json.loads(subprocess.run([CLI, "infer", VGG, "--sizes", "x=1,3,16,20", "--json"],
                                    capture_output=True, text=True).stdout)
    assert symshape.load(VGG).infer(sizes={"x": [1, 3, 16, 20]}) == cli


def test_infer_rejects_a_wrong_rank():
    with pytest.raises(symshape.BadInputError, match="rank"):
        symshape.load(VGG).infer(sizes={"x": [3, 16, 20]})


def test_dynamism_of_a_graphs_examples_finds_the_varying_dims_and_a_verified_spec():
    d = symshape.dynamism(VGG)
    assert d["dynamism"] == {"x": {"L['x']": [True, False, True, True]}}
    assert d["verified"] is True
    assert d["suggested_spec"]["dynamic_shapes"] == {"x": ["batch", 3, "height", "width"]}
    # torch.export 2.x's `h // 32 != 1` at the checked example: the ranges start at 64 ...
    assert d["suggested_spec"]["dims"]["height"]["min"] == 64 and d["suggested_spec"]["dims"]["width"]["min"] == 64
    assert symshape.check_spec(VGG, spec=d["suggested_spec"])["ok"]
    # ... and the examples PyTorch ran below 64 are reported, not dropped.
    assert d["outside_examples"] == ["example 2: height = 32 is outside [64, int_oo]",
                                     "example 4: width = 48 is outside [64, int_oo]"]
    assert d["rejected_examples"] == []


def test_dynamism_of_example_dicts_and_a_derived_relation():
    d = symshape.dynamism(examples=[{"x": [k, 3], "y": [k + 1]} for k in (2, 5, 9)])
    assert d["dynamism"] == {"x": {"L['x']": [True, False]}, "y": {"L['y']": [True]}}
    assert d["verified"] is False  # no graph to check against
    assert any(r["expr"].endswith("+ 1") for r in d["relations"])


def test_dynamism_reports_malformed_examples_and_uses_the_rest(tmp_path):
    f = tmp_path / "ex.ndjson"
    f.write_text('{"x": [2, 3]}\n{"x": [2, \n{"x": [4, 3]}\n')
    d = symshape.dynamism(examples=str(f))
    assert d["dynamism"] == {"x": {"L['x']": [True, False]}}
    assert len(d["problems"]) == 1 and "line 2" in d["problems"][0]
    with pytest.raises(symshape.BadInputError):
        symshape.dynamism(examples=str(tmp_path / "missing.ndjson"))
