"""Engine bindings: loading (path/bytes, JSON/FlatBuffers), propagation, node values,
guards, errors, conform and corpus runs."""
import json
import os
import subprocess
import sys

import pytest

import symshape


def test_load_path_and_bytes_agree(sample_graph):
    g = symshape.load(sample_graph)
    with open(sample_graph, "rb") as f:
        b = symshape.load(f.read(), name="resnet18 bytes")
    assert g.name == b.name == "resnet18"
    assert g.nodes == b.nodes
    assert g.inputs == [("x", 4, "float32")]


def test_flatbuffers_bytes(sample_graph, tmp_path):
    cli = os.environ.get("SYMSHAPE_CLI")
    if not cli:
        pytest.skip("SYMSHAPE_CLI not set (ctest sets it)")
    out = tmp_path / "r.graph.fb"
    subprocess.run([cli, "convert", sample_graph, str(out)], check=True)
    fb = symshape.load(out.read_bytes())
    assert fb.nodes == symshape.load(sample_graph).nodes


def test_propagate_symbolic_and_concrete(sample_graph):
    g = symshape.load(sample_graph)
    p = g.propagate(sizes={"x": [2, 3, 64, 64]})
    nodes = {n["name"]: n for n in p.nodes}
    out = p.nodes[-2]["value"]  # the node before output
    assert out["dtype"] == "float32" and len(out["shape"]) == 2
    assert any("batch" in str(s) or "s" in str(s) for s in nodes["x"]["value"]["shape"])
    concrete = {n["name"]: n["value"] for n in p.concrete_nodes()}
    assert concrete["x"]["shape"] == [2, 3, 64, 64]
    assert concrete["x"]["stride"] == [3 * 64 * 64, 64 * 64, 64, 1]
    assert p.guards and all(isinstance(s, str) for s in p.guards)


def test_guards_match_cli(sample_graph):
    cli = os.environ.get("SYMSHAPE_CLI")
    if not cli:
        pytest.skip("SYMSHAPE_CLI not set (ctest sets it)")
    text = subprocess.run([cli, "guards", sample_graph, "--example", "1"], check=True, capture_output=True,
                          text=True).stdout.splitlines()
    assert symshape.load(sample_graph).propagate(example=1).guards == text


def test_error_hierarchy(sample_graph):
    assert issubclass(symshape.BadInputError, symshape.SymshapeError)
    assert issubclass(symshape.ShapeError, symshape.SymshapeError)
    assert issubclass(symshape.UnsupportedOpError, symshape.SymshapeError)
    assert issubclass(symshape.DataDependentError, symshape.SymshapeError)
    with pytest.raises(symshape.BadInputError, match="invalid JSON"):
        symshape.load(b'{"format": ')
    with pytest.raises(symshape.BadInputError):
        symshape.load("/nonexistent/x.graph.json")
    g = symshape.load(sample_graph)
    with pytest.raises(symshape.ShapeError, match="does not match input size"):  # the spec's static dim
        g.propagate(sizes={"x": [2, 4, 64, 64]})
    with pytest.raises(symshape.ShapeError, match="channels"):  # conv2d's own check
        g.propagate(sizes={"x": [2, 4, 64, 64]}, policy="duck")
    with pytest.raises(symshape.BadInputError, match="rank"):
        g.propagate(sizes={"x": [2, 3]})


def test_unsupported_op_error(sample_graph):
    doc = json.load(open(sample_graph))
    for n in doc["nodes"]:
        if n["op"] == "call_function" and n["target"] == "aten.relu.default":
            n["target"] = "aten.not_an_op.default"
            break
    g = symshape.load(json.dumps(doc).encode())
    with pytest.raises(symshape.UnsupportedOpError, match="not_an_op"):
        g.propagate(example=0)


def test_conform_one_graph_and_corpus(visible_corpus, capsys):
    r = symshape.load(os.path.join(visible_corpus, "resnet18.graph.json")).conform()
    assert r["examples"] and all(e["outcome"] == "correct" for e in r["examples"])
    summary, results = symshape.conform_corpus(visible_corpus, progress=True)
    assert summary["graphs"] == len(results) >= 25
    assert summary["mismatch"] == summary["rejected"] == summary["unsound"] == 0
    assert summary["line"].startswith(f"conform: graphs={summary['graphs']} ")
    assert f"{len(results)}/{len(results)}" in capsys.readouterr().err  # the progress bar


def test_bindings_work_without_torch(sample_graph):
    code = ("import sys; sys.modules['torch'] = None\n"
            "import symshape\n"
            f"print(symshape.load({sample_graph!r}).propagate(example=0).guards[0])\n"
            "try:\n    symshape.export(None, ())\nexcept ImportError as e:\n    print('ERR', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert "L['x']" in out.stdout
    assert "ERR symshape.export needs PyTorch" in out.stdout
