"""The spec bindings: load/dump/spec.fb of the DynamicShapesSpec form, a spec applied at
load, and export's constraint check with PyTorch's report and the corrected spec."""
import json
import os

import pytest

import symshape

CORPUS = os.path.join(os.environ.get("SYMSHAPE_SOURCE_DIR", "."), "..", "shared", "corpus", "visible")
VGG = os.path.join(CORPUS, "vgg11_bn.graph.json")
GPT2 = os.path.join(CORPUS, "gpt2_small.graph.json")

pytestmark = pytest.mark.skipif(not os.path.exists(VGG), reason="the corpus is not beside the checkout")


def own_spec(path):
    with open(path) as f:
        return json.load(f)["dynamic_shapes"]


def test_load_spec_returns_the_canonical_dict_and_dump_is_stable():
    spec = own_spec(VGG)
    canonical = symshape.load_spec(spec)
    assert canonical == spec
    text = symshape.dump_spec(spec)
    assert symshape.dump_spec(text) == text
    assert json.loads(text) == spec


def test_spec_fb_round_trip_gives_the_same_text():
    spec = own_spec(GPT2)
    fb = symshape.spec_to_fb(spec)
    assert isinstance(fb, bytes) and fb[4:8] == b"SSPC"
    assert symshape.dump_spec(fb) == symshape.dump_spec(spec)


def test_loader_errors_are_pytorchs():
    bad = {"dynamic_shapes": {"x": ["dx"]}, "dims": {"dx": {"min": 9, "max": 4, "derived": []}}}
    with pytest.raises(symshape.SymshapeError, match=r"Cannot create Dim with inconsistent min=9, max=4"):
        symshape.load_spec(bad)
    with pytest.raises(symshape.BadInputError):
        symshape.load_spec("{not json")
    with pytest.raises(TypeError):
        symshape.load_spec(42)


def test_unknown_placeholder_is_refused_at_load():
    spec = own_spec(VGG)
    spec["dynamic_shapes"]["z"] = spec["dynamic_shapes"].pop("x")
    with pytest.raises(symshape.BadInputError, match=r"top-level keys"):
        symshape.load(VGG, spec=spec)


def test_check_spec_reports_pytorchs_violations_and_the_corrected_spec_is_clean():
    r = symshape.check_spec(VGG)
    assert not r["ok"]
    # torch.export 2.13 at example 1 (97 x 129): per dim the tensor_meta guard
    # `(h // 32) != 1` and the range guard `32 <= h`, as PyTorch 2.13's own report lists them.
    dims = sorted(v["dim"] for v in r["violations"])
    assert dims == ["height", "height", "width", "width"]
    assert r["report"].startswith("Constraints violated (height, width)!")
    assert "satisfy the generated guard (L['x'].size()[2] // 32) != 1." in r["report"]
    assert "satisfy the generated guard 32 <= L['x'].size()[2]" in r["report"]
    # The report's "Suggested fixes:" are export's own: only the range guard's min=32, a spec
    # PyTorch then refuses again. symshape's fix beyond it decides `h // 32 != 1` too (min
    # 64, docs/specs.md "Beyond PyTorch") and is reported apart; the corrected spec takes it,
    # and torch.export 2.13 exports that spec cleanly with ranges [64, int_oo].
    assert "Suggested fixes:\n  height = Dim('height', min=32)\n  width = Dim('width', min=32)" in r["report"]
    assert "min=64" not in r["report"]
    assert r["beyond_pytorch_fixes"].startswith("symshape's fixes, beyond PyTorch's")
    assert "height = Dim('height', min=64)" in r["beyond_pytorch_fixes"]
    assert "width = Dim('width', min=64)" in r["beyond_pytorch_fixes"]
    fixed = r["corrected_spec"]
    assert fixed["dims"]["height"]["min"] == 64 and fixed["dims"]["width"]["min"] == 64
    again = symshape.check_spec(VGG, spec=fixed)
    assert again["ok"] and again["violations"] == [] and again["report"] == ""


def test_a_spec_applied_at_load_drives_propagation():
    spec = own_spec(VGG)
    spec["dynamic_shapes"]["x"][0] = 2  # batch static at 2
    del spec["dims"]["batch"]
    g = symshape.load(VGG, spec=spec)
    assert g.spec["dynamic_shapes"]["x"][0] == 2
    p = g.propagate(sizes={"x": [2, 3, 64, 64]})
    assert not any("L['x'].size()[0]" in guard and "==" not in guard for guard in p.guards)
    with pytest.raises(symshape.SymshapeError):
        g.propagate(sizes={"x": [3, 3, 64, 64]})
