"""The exporter's output follows shared/corpus/FORMAT.md."""
import json

import pytest

torch = pytest.importorskip("torch")

import symshape  # noqa: E402
from models import CausalDecoder, PatchEncoder  # noqa: E402


class ConvView(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, stride=2)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        return y.view(y.size(0), -1)


def _nodes(text):
    return json.loads(text)["nodes"]


def test_schema_ordered_arguments_and_sym_size():
    nodes = _nodes(symshape.export(ConvView(), (torch.randn(2, 3, 9, 8),)))
    conv = next(n for n in nodes if n["target"] == "aten.conv2d.default")
    assert conv["args"][3:] == [[2, 2], [0, 0], [1, 1], 1]  # every positional schema arg, lists as lists
    size = next(n for n in nodes if n["target"] == "aten.sym_size.int")
    view = next(n for n in nodes if n["target"] == "aten.view.default")
    assert view["args"][1] == [{"node": size["name"]}, -1]
    assert nodes[-1]["op"] == "output"


def test_nothing_about_example_sizes_is_baked_in():
    a = _nodes(symshape.export(PatchEncoder(), (torch.randn(2, 3, 16, 16),)))
    b = _nodes(symshape.export(PatchEncoder(), (torch.randn(5, 3, 12, 20),)))
    strip = [{k: v for k, v in n.items() if k != "meta"} for n in a]
    assert strip == [{k: v for k, v in n.items() if k != "meta"} for n in b]
    assert any(n["target"].startswith("operator.") for n in a)  # size arithmetic as nodes


def test_dynamic_shapes_spec_and_goldens():
    spec = {"input_ids": {0: symshape.Dim("batch"), 1: symshape.Dim("seq", min=1, max=16)}}
    ids = torch.randint(0, 50, (2, 7))
    doc = json.loads(symshape.export(CausalDecoder(), (ids,), dynamic_shapes=spec,
                                     examples=[(ids,), (torch.randint(0, 50, (1, 20)),)]))
    assert doc["dynamic_shapes"]["dynamic_shapes"] == {"input_ids": ["batch", "seq"]}
    assert doc["dynamic_shapes"]["dims"]["seq"] == {"min": 1, "max": 16, "derived": []}
    ph = doc["nodes"][0]
    assert ph["meta"]["dtype"] == "int64" and ph["meta"]["rank"] == 2 and "range" in ph["meta"]
    ok, bad = doc["examples"]
    assert ok["ok"] and ok["in_spec"] and ok["values"]
    assert not bad["ok"] and not bad["in_spec"] and bad["error_kind"] == "value" and bad["error_node"]


def test_export_writes_file_and_engine_reads_it(tmp_path):
    path = tmp_path / "m.graph.json"
    text = symshape.export(ConvView(), (torch.randn(1, 3, 9, 8),), path=str(path), name="convview")
    assert path.read_text() == text
    assert symshape.load(str(path)).name == "convview"


def test_unexportable_names_the_module():
    class Writes(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = torch.nn.Identity()

        def forward(self, x):
            return self.inner(x)

    class Bad(torch.nn.Module):
        def forward(self, x):
            x[0] = 1.0
            return x

    m = Writes()
    m.inner = Bad()
    with pytest.raises(symshape.exporter.ExportError, match="module 'inner'"):
        symshape.export(m, (torch.randn(2, 3),))


def test_aten_graph_module_from_make_fx():
    from torch.fx.experimental.proxy_tensor import make_fx

    def f(x, y):
        return torch.ops.aten.add.Tensor(torch.ops.aten.relu.default(x), y)
    gm = make_fx(f)(torch.randn(2, 3), torch.randn(2, 3))
    text = symshape.export(gm, (torch.randn(2, 3), torch.randn(2, 3)), examples=[(torch.randn(2, 3), torch.randn(2, 3))])
    targets = [n["target"] for n in _nodes(text)]
    assert "aten.relu.default" in targets and "aten.add.Tensor" in targets
    r = symshape.load(text.encode()).conform()
    assert [e["outcome"] for e in r["examples"]] == ["correct"]
