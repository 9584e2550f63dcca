"""symshape.corpus_build: the model lists, one model end to end (subprocess worker, record,
graph, failures.json, resume), byte-identical rebuilds, and failure isolation.

Run: PYTHONPATH=build/python /opt/symshape-models-venv/bin/python -m pytest python/tests_torchref/test_corpus_build.py"""
import json
import os

import pytest

pytest.importorskip("torch_geometric")
from symshape import corpus_build as cb  # noqa: E402


def test_model_list_is_sorted_seeded_and_interleaved():
    a = cb.model_list(["torch_geometric", "torchvision"], 5, 0)
    assert a == cb.model_list(["torch_geometric", "torchvision"], 5, 0)
    assert [lib for lib, _ in a[:4]] == ["torch_geometric", "torchvision"] * 2
    for lib in ("torch_geometric", "torchvision"):
        names = [n for l, n in a if l == lib]
        assert names == sorted(names) and len(names) == 5
    # a larger limit keeps the smaller sample (so a run resumes into a bigger one)
    small = set(cb.model_list(["torchvision"], 10, 0))
    assert small <= set(cb.model_list(["torchvision"], 20, 0))


def test_clean_error_masks_addresses():
    assert cb.clean_error("at 0x7f12ab34cd56 in /tmp/tmpab_c1/x") == "at 0x? in /tmp/?/x"


def _build(out, models):
    return cb.main([str(out), "--models", models, "--no-pack", "--jobs", "1", "--timeout", "300"])


def test_one_model_end_to_end_and_resume(tmp_path, capsys):
    models = "torch_geometric:conv.SAGEConv,torch_geometric:conv.NoSuchConv"
    assert _build(tmp_path / "a", models) == 0
    a = tmp_path / "a"
    rec = json.loads((a / "models" / "torch_geometric.conv.SAGEConv.json").read_text())
    assert rec["status"] == "verified" and rec["verify"]["counts"] == {"correct": 5}
    doc = json.loads((a / "graphs" / "torch_geometric.conv.SAGEConv.graph.json").read_text())
    assert len(doc["examples"]) == 5 and doc["dynamic_shapes"]["dynamic_shapes"]["x"] == ["nodes", 8]
    fails = json.loads((a / "failures.json").read_text())
    assert [(f["model"], f["stage"]) for f in fails] == [("conv.NoSuchConv", "build")]
    assert "KeyError" in fails[0]["error"]
    capsys.readouterr()
    assert _build(a, models) == 0  # resume: both records kept, nothing rebuilt
    assert capsys.readouterr().out.count("(kept)") == 2
    assert _build(tmp_path / "b", models) == 0  # same seed, same bytes
    for f in ("failures.json", "manifest.json", "graphs/torch_geometric.conv.SAGEConv.graph.json"):
        assert (a / f).read_bytes() == (tmp_path / "b" / f).read_bytes(), f
    assert os.path.exists(a / "report.md")


def test_forked_workers_isolate_hangs_and_crashes(tmp_path, monkeypatch):
    """Workers are forked from the driver: a model that hangs is killed at --timeout and
    recorded as `timeout`, one that kills its process is recorded as `crash` with its exit
    status and stderr, and the models next to them still build."""
    import time as _time

    from symshape import corpus_models as cm
    real = cm.CASES["torch_geometric"]

    def case(name):
        if name == "conv.Hang":
            _time.sleep(600)
        if name == "conv.Crash":
            import sys
            print("about to crash", file=sys.stderr, flush=True)
            os._exit(7)
        return real(name)

    monkeypatch.setitem(cm.CASES, "torch_geometric", case)
    models = "torch_geometric:conv.Hang,torch_geometric:conv.Crash,torch_geometric:conv.GraphConv"
    t = _time.monotonic()
    assert cb.main([str(tmp_path), "--models", models, "--no-pack", "--jobs", "2", "--timeout", "3"]) == 0
    assert _time.monotonic() - t < 60
    fails = {f["model"]: f for f in json.loads((tmp_path / "failures.json").read_text())}
    assert fails["conv.Hang"]["stage"] == "timeout" and "3 s" in fails["conv.Hang"]["error"]
    assert fails["conv.Crash"]["stage"] == "crash"
    assert "status 7" in fails["conv.Crash"]["error"] and "about to crash" in fails["conv.Crash"]["error"]
    rec = json.loads((tmp_path / "models" / "torch_geometric.conv.GraphConv.json").read_text())
    assert rec["status"] == "verified"
    assert not (tmp_path / "work").exists()  # the workers' stderr files are cleaned up


def test_index_out_of_bounds_is_a_value_error():
    """A position id past the position table fails on values (gather / index / embedding),
    not on sizes: golden.error_kind says `value`; size failures stay `shape`."""
    from symshape.golden import error_kind
    assert error_kind("RuntimeError: index 128 is out of bounds for dimension 1 with size 128") == "value"
    assert error_kind("IndexError: index 128 is out of bounds for dimension 0 with size 128") == "value"
    assert error_kind("IndexError: index out of range in self") == "value"
    assert error_kind("IndexError: select(): index 5 out of range for tensor of size [3] at dimension 0") == "shape"
    assert error_kind("RuntimeError: shape '[2, 3]' is invalid for input of size 7") == "shape"
