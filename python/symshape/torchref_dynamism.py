"""Dynamism across examples against PyTorch 2.x (the differential harness, part 3; docs/torchref.md).

PyTorch's `track_dynamism_across_examples` (torch/fx/experimental/_dynamism.py) runs on the
examples as Python values (meta tensors, numbers, containers, an nn.Module under "self");
`symshape.dynamism` runs on the same examples in its NDJSON form. The results must be equal,
paths and arguments in the same order (PyTorch's tuples are JSON lists on symshape's side).

- A corpus graph: its OK examples by placeholder, once as plain inputs and once with the
  module the graph's get_attr targets describe under "self" (symshape's `--self`: every
  target is a parameter of its module; PyTorch gets an nn.Module tree with those parameters).
- Generated examples (torchref_dynamism_cases): nested dicts (string and int keys), lists,
  tuples, named tuples, tensors, ints, floats, bools, strings, None, modules with
  attributes, parameters, buffers and children under "self" and elsewhere."""
import json

import torch

import symshape

KIND = "dynamism"


def torch_dynamism(examples):
    """PyTorch's result as JSON text (tuples written as lists), or its error."""
    from torch.fx.experimental._dynamism import track_dynamism_across_examples

    try:
        out = track_dynamism_across_examples(examples)
    except Exception as e:  # noqa: BLE001 - PyTorch cannot run the input
        return ("unrunnable", f"{type(e).__name__}: {e}")
    return ("ok", json.dumps({k: {p: list(v) for p, v in paths.items()} for k, paths in out.items()}))


def symshape_dynamism(lines, graph_path=None, with_self=False):
    """symshape's result for NDJSON example objects (or a graph's own examples)."""
    try:
        if graph_path is not None:
            out = symshape.dynamism(graph=graph_path, with_self=with_self)
        else:
            out = symshape.dynamism(examples=lines)
    except symshape.SymshapeError as e:
        return ("error", f"{type(e).__name__}: {e}")
    problems = out.get("problems") or []
    if problems:  # a line symshape could not read is left out: never an equal result
        return ("error", "examples left out: " + "; ".join(problems))
    return ("ok", json.dumps(out["dynamism"]))


class Comparison:
    def __init__(self, graph):
        self.graph, self.cases, self.diffs, self.unrunnable = graph, 0, [], 0

    def check(self, key, case, torch_out, symshape_out):
        if torch_out[0] == "unrunnable":
            self.unrunnable += 1
            return
        self.cases += 1
        if torch_out == symshape_out:
            return
        detail = "symshape fails" if symshape_out[0] != "ok" else _first_difference(torch_out[1], symshape_out[1])
        self.diffs.append({"kind": KIND, "key": f"{KIND}:{key}", "graph": self.graph, "case": case,
                           "torch": torch_out[1], "symshape": symshape_out[1], "detail": detail})

    def result(self):
        return self.cases, self.diffs


def _first_difference(t, s):
    a, b = json.loads(t), json.loads(s)
    ta = [(k, p, v) for k, paths in a.items() for p, v in paths.items()]
    sb = [(k, p, v) for k, paths in b.items() for p, v in paths.items()]
    for x, y in zip(ta, sb):
        if x != y:
            return f"PyTorch {x[1]}: {x[2]}, symshape {y[1]}: {y[2]}"
    return f"PyTorch has {len(ta)} paths, symshape {len(sb)}"


# --- corpus graphs -------------------------------------------------------------------------

def _graph_module(doc):
    """The nn.Module the graph's get_attr targets describe: each target a parameter of its module."""
    root = torch.nn.Module()
    for node in doc["nodes"]:
        if node["op"] != "get_attr":
            continue
        *path, name = node["target"].split(".")
        m = root
        for part in path:
            if part not in m._modules:
                m.add_module(part, torch.nn.Module())
            m = m._modules[part]
        shape = node.get("meta", {}).get("shape", [])
        m.register_parameter(name, torch.nn.Parameter(torch.empty(shape, device="meta"), requires_grad=False))
    return root


def compare_graph_examples(graph_name, doc, graph_path=None):
    """The graph's OK examples, plain and with the graph's module under "self". `graph_path`
    (the file doc was read from) also runs `symshape.dynamism(graph)` on the graph's own
    examples; without it the examples are given to symshape as NDJSON objects."""
    c = Comparison(graph_name)
    placeholders = [n["name"] for n in doc["nodes"] if n["op"] == "placeholder"]
    inputs = [e["inputs"] for e in doc.get("examples", []) if e.get("ok")]
    if not inputs:
        return c.result()
    lines = [{p: ex[p] for p in placeholders} for ex in inputs]

    def torch_examples(with_self):
        module = _graph_module(doc) if with_self else None
        out = []
        for line in lines:
            ex = {p: torch.empty(sizes, device="meta") for p, sizes in line.items()}
            if with_self:
                ex["self"] = module
            out.append(ex)
        return out

    case = f"{graph_name}: {len(lines)} ok examples"
    c.check("graph_examples", case, torch_dynamism(torch_examples(False)), symshape_dynamism(lines))
    if graph_path is not None:
        c.check("graph_own_examples", case + " (symshape.dynamism(graph))", torch_dynamism(torch_examples(False)),
                symshape_dynamism(None, graph_path))
        c.check("graph_self", case + " with the graph's module as self", torch_dynamism(torch_examples(True)),
                symshape_dynamism(None, graph_path, with_self=True))
    return c.result()


def compare_generated(count=200, seed=0):
    """`count` generated example sets (2-5 examples each) in both forms."""
    import random

    from .torchref_dynamism_cases import random_example_set

    c = Comparison("generated")
    rng = random.Random(seed)
    for i in range(count):
        torch_examples, lines, key = random_example_set(rng)
        text = json.dumps(lines)
        case = f"#{i} {text if len(text) < 200 else text[:197] + '...'}"
        c.check(f"generated/{key}", case, torch_dynamism(torch_examples), symshape_dynamism(lines))
    # docs/dynamism.md's one stated difference: a list index and an int dict key print alike.
    collide = [{"x": [torch.empty(2), 3]}, {"x": {0: torch.empty(5), 1: 3}}]
    lines = [{"x": {"list": [{"tensor": [2]}, 3]}}, {"x": {"dict": [[0, {"tensor": [5]}], [1, 3]]}}]
    c.check("int_key_and_index_collide", json.dumps(lines), torch_dynamism(collide), symshape_dynamism(lines))
    return c.result()
