"""symshape.verify: check the engine on your own model in one call.

Exports the model with every example as a golden (the reference interpreter runs the
graph in PyTorch), also runs the model itself in PyTorch to make sure the export computes
what the model computes, runs `symshape conform` on the result, and compares every
node's shape, stride and dtype at each accepted example."""
from dataclasses import dataclass, field

from .corpus import summary_line


@dataclass
class NodeDiff:
    node: str
    target: str
    engine: object
    pytorch: object

    def __str__(self):
        return f"{self.node} ({self.target}): engine {self.engine} != pytorch {self.pytorch}"


@dataclass
class ExampleReport:
    sizes: dict
    outcome: str                 # correct / mismatch / rejected / unsound / value_error / unsupported
    engine_accepted: bool
    pytorch_ok: bool
    pytorch_error: str = ""
    engine_detail: str = ""
    nodes_checked: int = 0
    node_diffs: list = field(default_factory=list)


@dataclass
class Report:
    graph: str
    text: str                    # the exported fx-graph-json (with goldens)
    examples: list
    specializations: int
    unsupported: bool
    # ExportedProgram (torch.export) vs engine: range constraints and guards over input sizes
    # (export_constraints.ConstraintDiff); empty when they agree or without torch.export.
    # Reported, never counted in `ok`: torch.export's own ranges are the spec the engine runs.
    constraint_differences: list = field(default_factory=list)

    def count(self, outcome):
        return sum(1 for e in self.examples if e.outcome == outcome)

    correct = property(lambda self: self.count("correct"))
    mismatch = property(lambda self: self.count("mismatch"))
    rejected = property(lambda self: self.count("rejected"))
    unsound = property(lambda self: self.count("unsound"))
    value_errors = property(lambda self: self.count("value_error"))

    @property
    def ok(self):
        return self.mismatch == 0 and self.rejected == 0 and self.unsound == 0 and not self.unsupported

    def __str__(self):
        return summary_line({"graphs": 1, "examples": len(self.examples), "correct": self.correct,
                             "mismatch": self.mismatch, "rejected": self.rejected, "unsound": self.unsound,
                             "value_error": self.value_errors, "specializations": self.specializations,
                             "unsupported": int(self.unsupported)})

    def details(self):
        lines = [str(self)]
        for i, e in enumerate(self.examples):
            lines.append(f"  example {i} {e.sizes}: {e.outcome}"
                         f" (pytorch {'ok' if e.pytorch_ok else e.pytorch_error}; engine "
                         f"{'accepted' if e.engine_accepted else 'rejected'}; {e.nodes_checked} nodes checked)")
            lines += [f"    {d}" for d in e.node_diffs]
            if e.engine_detail and e.outcome != "correct":
                lines.append(f"    engine: {e.engine_detail}")
        if self.constraint_differences:
            lines.append(f"  constraints: {len(self.constraint_differences)} difference(s) between the "
                         f"ExportedProgram and symshape")
            lines += [f"    {d}" for d in self.constraint_differences]
        return "\n".join(lines)


def bind_unbacked(engine, gold):
    """The engine's concrete value with its unbacked entries (None: a data-dependent size has
    no value at given input sizes) taken from the golden; conform binds them the same way
    and checks every later use against that binding."""
    if isinstance(engine, dict) and isinstance(gold, dict) and "shape" in gold:
        fill = lambda e, g: [gv if ev is None else ev for ev, gv in zip(e, g)] if len(e) == len(g) else e  # noqa
        return dict(engine, shape=fill(engine.get("shape", []), gold["shape"]),
                    stride=fill(engine.get("stride", []), gold["stride"]))
    if engine is None and isinstance(gold, dict) and "int" in gold:
        return gold["int"]
    if isinstance(engine, list) and isinstance(gold, list) and len(engine) == len(gold):
        return [bind_unbacked(e, g) for e, g in zip(engine, gold)]
    return engine


def _same(engine, gold):
    if isinstance(gold, dict) and "shape" in gold:
        return isinstance(engine, dict) and engine.get("shape") == gold["shape"] and \
            engine.get("stride") == gold["stride"] and engine.get("dtype") == gold["dtype"]
    if isinstance(gold, dict) and "int" in gold:
        return engine == gold["int"]
    if isinstance(gold, list):
        return isinstance(engine, list) and len(engine) == len(gold) and all(map(_same, engine, gold))
    return True  # bool / float / None values: the engine keeps them symbolic or drops them


def _brief(v):
    if isinstance(v, dict) and "shape" in v:
        return f"{v.get('dtype')}{v.get('shape')} stride {v.get('stride')}"
    return v


def _eager_matches(model, inputs, golden_output):
    import torch
    with torch.no_grad():
        out = model(*inputs)
    flat = []

    def walk(o):
        if isinstance(o, torch.Tensor):
            flat.append(list(o.shape))
        elif isinstance(o, dict):
            for v in o.values():
                walk(v)
        elif isinstance(o, (list, tuple)):
            for v in o:
                walk(v)
    walk(out)
    gold = []

    def walk_gold(g):
        if isinstance(g, dict) and "shape" in g:
            gold.append(g["shape"])
        elif isinstance(g, list):
            for v in g:
                walk_gold(v)
    walk_gold(golden_output)
    return flat == gold


def verify(model, examples, dynamic_shapes=None, name=None, check_nodes=True):
    """Report for `model` over `examples` (a list of input tuples). str(report) is the
    `symshape conform` summary line; report.examples has per-example, per-node detail."""
    import json

    import torch

    from ._symshape import Graph
    from .exporter import ExportError, export
    examples = [tuple(e) if isinstance(e, (tuple, list)) else (e,) for e in examples]
    if not examples:
        raise ValueError("verify needs at least one example")
    # trace at the first example PyTorch accepts
    first = None
    for e in examples:
        try:
            import torch
            with torch.no_grad():
                model(*e)
            first = e
            break
        except Exception:  # noqa: BLE001 - an example PyTorch rejects is a valid negative example
            continue
    if first is None:
        raise ExportError("PyTorch rejects every example: nothing to export")
    from . import torch_export
    program = None
    if torch_export.available() and isinstance(model, torch.nn.Module) and not isinstance(model, torch.fx.GraphModule):
        # torch.export here, so that its ExportedProgram's constraints can be compared
        program = torch_export.export_program(model, first, None, dynamic_shapes)
        flat = tuple(torch_export.user_inputs(program, first, None))
        text = export(program, flat, dynamic_shapes=dynamic_shapes, name=name or type(model).__name__,
                      examples=examples)
    else:
        text = export(model, first, dynamic_shapes=dynamic_shapes, name=name, examples=examples)
    doc = json.loads(text)
    graph = Graph.from_bytes(text.encode(), doc["name"])
    constraint_diffs = []
    if program is not None:
        from .export_constraints import constraint_differences
        at = next((g["inputs"] for g in doc["examples"] if g["ok"]), None)
        if at is not None:
            constraint_diffs = constraint_differences(program, graph, [n for n, _, _ in graph.inputs], at)
    conf = graph.conform()
    nodes = {n["name"]: n["target"] for n in doc["nodes"]}
    reports = []
    for ex, gold, res in zip(examples, doc["examples"], conf["examples"]):
        r = ExampleReport(sizes=gold["inputs"], outcome=res["outcome"], engine_accepted=res["accepted"],
                          pytorch_ok=gold["ok"], pytorch_error=gold.get("error", ""), engine_detail=res["detail"])
        if gold["ok"] and not _eager_matches(model, ex, gold["output"]):
            r.outcome = "mismatch"
            r.engine_detail = "the exported graph's output shapes differ from the model's (an exporter bug)"
        if check_nodes and gold["ok"] and res["accepted"]:
            concrete = {n["name"]: n["value"] for n in graph.propagate(sizes=gold["inputs"]).concrete_nodes()}
            for node, value in gold["values"].items():
                r.nodes_checked += 1
                if not _same(bind_unbacked(concrete.get(node), value), value):
                    r.node_diffs.append(NodeDiff(node, nodes[node], _brief(concrete.get(node)), _brief(value)))
            if r.node_diffs and r.outcome == "correct":
                r.outcome = "mismatch"
        reports.append(r)
    return Report(graph=doc["name"], text=text, examples=reports, specializations=conf["specializations"],
                  unsupported=conf["unsupported"], constraint_differences=constraint_diffs)
