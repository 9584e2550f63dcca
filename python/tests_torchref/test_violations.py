"""torch.export's constraint checks against `symshape spec check` (torchref_violations): real
PyTorch 2.x, nothing mocked. Run with the venv's python and PYTHONPATH=build/python."""
import json
import os

import pytest

torch = pytest.importorskip("torch")
from symshape import torchref_violations as tv  # noqa: E402

SOURCE_DIR = os.environ.get("SYMSHAPE_SOURCE_DIR",
                            os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
CORPUS = os.path.join(SOURCE_DIR, "..", "shared", "corpus", "visible")

# Small graphs chosen so every variant kind is compared at least once: a phase-2 guard
# (zoo_conv), derived fixes over a phantom root (zoo_reduce_pool_pad: `unrelated` drops the
# relation), a bounded dim (whisper: `widened` removes its max), equal static sizes
# (mlp_mixer: `unrelated` gives 32 and 32 separate Dims), a static channel count and a
# batch of 1 (`static_to_dynamic`, `zero_one`); the dim hints: a static size the graph
# specialises given Dim.DYNAMIC (whisper's channels, zoo_reduce_pool_pad's), a derived size
# given Dim.AUTO (zoo_reduce_pool_pad), every Dim made Dim.DYNAMIC (zoo_conv, seq_ops).
SAMPLE = {
    "zoo_conv": ("own", "corrected", "widened", "zero_one", "dynamic_hints"),
    "zoo_reduce_pool_pad": ("own", "corrected", "unrelated", "static_to_dynamic", "unrelated_hint",
                            "static_to_dynamic_hint"),
    "whisper_encoder_tiny": ("own", "widened", "static_to_dynamic", "static_to_dynamic_hint"),
    "mlp_mixer": ("own", "unrelated", "zero_one", "unrelated_hint"),
    "seq_ops": ("own", "corrected", "widened", "zero_one", "dynamic_hints"),
}


def _known():
    try:
        from symshape.torchref_known import KNOWN
    except ImportError:
        return {}
    return KNOWN


def _load(name):
    path = os.path.join(CORPUS, f"{name}.graph.json")
    if not os.path.exists(path):
        pytest.skip(f"corpus graph {path} not found")
    with open(path, encoding="utf-8") as f:
        return json.load(f), path


@pytest.mark.parametrize("name", sorted(SAMPLE))
def test_no_unknown_violation_differences(name):
    doc, path = _load(name)
    cases, diffs = tv.compare_graph_specs(name, doc, path, limit=len(SAMPLE[name]), kinds=SAMPLE[name])
    assert cases >= 2, tv.torch_rejected
    known = _known()
    unknown = [d for d in diffs if d["key"] not in known]
    assert not unknown, json.dumps(unknown, indent=1, default=str)


def test_every_variant_kind_is_built():
    kinds = set()
    for name, wanted in SAMPLE.items():
        doc, path = _load(name)
        import symshape
        own = doc["dynamic_shapes"]
        corrected = symshape.check_spec(path, spec=own)["corrected_spec"]
        kinds.update(k for k, _, _ in tv.spec_variants(doc, own, corrected if corrected != own else None, wanted))
    assert kinds == set(tv.VARIANT_KINDS)


def test_a_planted_wrong_answer_is_a_difference():
    doc, path = _load("zoo_conv")

    def planted(spec_path, spec):
        answer = tv.symshape_side(spec_path, spec)
        return dict(answer, refused=not answer["refused"], dims=[], fixes={}, report="planted",
                    ranges=tv.spec_ranges(spec))

    cases, diffs = tv.compare_graph_specs("zoo_conv", doc, path, limit=1, kinds=("own",), symshape_check=planted)
    assert cases == 1
    assert [d["key"] for d in diffs] == ["violation:zoo_conv:own:refused"]
    assert diffs[0]["kind"] == "violation" and diffs[0]["symshape"] == "planted"


def test_fix_lines_parse():
    msg = ("Constraints violated (dx, dy)! For more information, run with TORCH_LOGS=\"+dynamic\".\n  - ...\n"
           "Suggested fixes:\n  dx = Dim('dx', min=3, max=16)\n  dy = dx + 1\n\nThe error above occurred ...")
    assert tv.violated_dims(msg) == ["dx", "dy"]
    assert tv.suggested_fixes(msg) == {"dx": "Dim('dx', min=3, max=16)", "dy": "dx + 1"}
    assert tv.parse_linear("32*_h - 31") == ("_h", 32, -31)


def test_an_export_over_the_time_limit_is_torch_rejected(monkeypatch):
    doc, path = _load("zoo_conv")
    from symshape.torchref_graph import to_graph_module

    def endless_export(*args, **kwargs):
        while True:  # pure Python, as sympy's solver is: the alarm interrupts it
            pass

    gm, placeholders = to_graph_module(doc)
    monkeypatch.setattr(tv, "CASE_SECONDS", 1)
    monkeypatch.setattr(torch.export, "export", endless_export)
    answer = tv.torch_side(gm, placeholders, doc, doc["dynamic_shapes"], 0)
    assert answer == {"rejected": "TimeoutError: torch.export ran over 1 s"}
