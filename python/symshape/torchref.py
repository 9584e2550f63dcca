"""The differential harness: symshape against the real PyTorch 2.x code, graph by graph.

    python -m symshape.torchref PATH... [--json] [--examples N] [--serde N] [--dynamism N]

PATH: fx-graph-json files or folders. Per graph: propagation and guards (FakeTensorMode +
ShapeEnv against `symshape prop` / `guards`, torchref_prop), the graph's spec through the
DynamicShapesSpec serializer (torchref_serde) and its examples through
track_dynamism_across_examples (torchref_dynamism); then the generated serializer and
dynamism cases. Differences listed by name in torchref_known.KNOWN are reported as known
and not counted. The last line:

    torchref: graphs=G nodes=N node_diffs=… guard_diffs=… serde_diffs=… dynamism_diffs=… violation_diffs=… errors=…

An input PyTorch itself cannot run is reported (torch_rejected=…), never counted as a
difference; `errors` counts inputs the harness could not compare (a graph that does not
load in symshape, an exception in either side's code)."""
import argparse
import json
import os
import sys
import traceback

_KINDS = ("node", "guard", "serde", "dynamism", "violation")


def graph_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".graph.json"))
        else:
            out.append(p)
    return out


class Summary:
    def __init__(self):
        self.graphs = self.nodes = self.examples = self.same_text = 0
        self.cases = {k: 0 for k in ("serde", "dynamism", "violation")}
        self.diffs = []
        self.known = []
        self.errors = []
        self.torch_rejected = []
        self.inherited = []  # node differences that carry an input's difference forward

    def add_diffs(self, diffs):
        for d in diffs:
            if d.get("inherited_from"):
                self.inherited.append(d)
            else:
                (self.known if d.get("known") else self.diffs).append(d)

    def count(self, kind):
        return sum(1 for d in self.diffs if d["kind"] == kind)

    def line(self):
        return (f"torchref: graphs={self.graphs} nodes={self.nodes} node_diffs={self.count('node')} "
                f"guard_diffs={self.count('guard')} serde_diffs={self.count('serde')} "
                f"dynamism_diffs={self.count('dynamism')} violation_diffs={self.count('violation')} "
                f"errors={len(self.errors)}")

    def as_json(self):
        return {"graphs": self.graphs, "nodes": self.nodes, "examples": self.examples,
                "fields_same_text": self.same_text, "cases": self.cases,
                "diffs": self.diffs, "known": self.known, "errors": self.errors,
                "torch_rejected": self.torch_rejected, "inherited": self.inherited,
                "counts": {k + "_diffs": self.count(k) for k in _KINDS},
                "known_open": sum(1 for d in self.known if str(d.get("known", "")).startswith("OPEN"))}


def _with_known(diffs, known):
    for d in diffs:
        key = d.get("key") or f"{d['kind']}:{d.get('graph')}:{d.get('case')}"
        d["key"] = key
        d["known"] = known.get(key)
    return diffs


def compare_graph(path, summary, known, max_examples, parts, violation_limit=4):
    import symshape
    from . import torchref_prop
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    name = doc.get("name", os.path.basename(path))
    summary.graphs += 1
    if "prop" in parts:
        try:
            graph = symshape.load(path)
        except Exception as e:  # noqa: BLE001
            summary.errors.append({"graph": name, "part": "load", "error": f"{type(e).__name__}: {e}"})
            graph = None
        # accepted examples inside the graph's spec: one outside it (a size above a Dim's max, a
        # static dim at another size) is not an input the exported program takes
        ok = [i for i, ex in enumerate(doc.get("examples", []))
              if ex.get("ok") and ex.get("in_spec", True)][:max_examples]
        counted = False
        for i in ok:
            try:
                nodes, same, node_diffs, guard_diffs = torchref_prop.compare_example(name, doc, graph, i, known)
            except torchref_prop.TorchRejected as e:
                summary.torch_rejected.append({"graph": name, "example": i, "node": e.node, "error": str(e)})
                continue
            except Exception as e:  # noqa: BLE001
                summary.errors.append({"graph": name, "example": i, "part": "prop",
                                       "error": f"{type(e).__name__}: {e}",
                                       "trace": traceback.format_exc(limit=3)})
                continue
            summary.examples += 1
            if not counted:
                summary.nodes += nodes
                counted = True
            summary.same_text += same
            summary.add_diffs(node_diffs + guard_diffs)
    for part, module, fn, args in (
            ("serde", "torchref_serde", "compare_spec_doc", (doc.get("dynamic_shapes"),)),
            ("dynamism", "torchref_dynamism", "compare_graph_examples", (doc,)),
            ("violation", "torchref_violations", "compare_graph_specs", (doc, path))):
        if part not in parts or args[0] is None:
            continue
        try:
            mod = __import__(f"symshape.{module}", fromlist=[fn])
            rejected_before = len(getattr(mod, "torch_rejected", []))
            if part == "dynamism":
                cases, diffs = mod.compare_graph_examples(name, doc, graph_path=path)
            elif part == "violation":
                if not violation_limit:
                    continue
                cases, diffs = mod.compare_graph_specs(name, doc, path, limit=violation_limit)
            else:
                cases, diffs = getattr(mod, fn)(name, *args)
            for r in getattr(mod, "torch_rejected", [])[rejected_before:]:
                summary.torch_rejected.append(r if isinstance(r, dict) else {"graph": name, "part": part,
                                                                             "error": str(r)})
        except Exception as e:  # noqa: BLE001
            summary.errors.append({"graph": name, "part": part, "error": f"{type(e).__name__}: {e}",
                                   "trace": traceback.format_exc(limit=3)})
            continue
        summary.cases[part] += cases
        summary.add_diffs(_with_known(diffs, known))


def compare_generated(summary, known, counts):
    for part, module, count in (("serde", "torchref_serde", counts.get("serde", 0)),
                                ("dynamism", "torchref_dynamism", counts.get("dynamism", 0))):
        if not count:
            continue
        try:
            mod = __import__(f"symshape.{module}", fromlist=["compare_generated"])
            cases, diffs = mod.compare_generated(count)
        except Exception as e:  # noqa: BLE001
            summary.errors.append({"graph": "generated", "part": part, "error": f"{type(e).__name__}: {e}",
                                   "trace": traceback.format_exc(limit=3)})
            continue
        summary.cases[part] += cases
        summary.add_diffs(_with_known(diffs, known))


def run(paths, max_examples=2, parts=("prop", "serde", "dynamism", "violation"), generated=None, progress=None,
        violation_limit=4):
    """The harness as a function: a Summary (see the module docstring)."""
    try:
        from .torchref_known import KNOWN as known
    except ImportError:
        known = {}
    summary = Summary()
    files = graph_files(paths)
    for k, path in enumerate(files):
        if progress:
            progress(f"[{k + 1}/{len(files)}] {os.path.basename(path)}")
        compare_graph(path, summary, known, max_examples, parts, violation_limit)
    compare_generated(summary, known, generated or {})
    return summary


def _describe(d):
    where = f"{d['graph']}" + (f" example {d['example']}" if d.get("example") is not None else "")
    where += f" node {d['node']}" if d.get("node") else ""
    what = d.get("field") or d.get("case") or ""
    return f"{d['kind']} diff: {where} {what}: torch={d.get('torch')!r} symshape={d.get('symshape')!r}"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m symshape.torchref", description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--json", action="store_true", help="every difference as JSON")
    ap.add_argument("--examples", type=int, default=2, help="accepted examples compared per graph")
    ap.add_argument("--serde", type=int, default=500, help="generated serializer cases")
    ap.add_argument("--dynamism", type=int, default=200, help="generated dynamism cases")
    ap.add_argument("--parts", default="prop,serde,dynamism,violation")
    ap.add_argument("--violations", type=int, default=4,
                    help="spec variants exported per graph for the constraint-violation part (0: none)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    progress = None if a.quiet or a.json else (lambda s: print(s, file=sys.stderr, flush=True))
    s = run(a.paths, a.examples, tuple(a.parts.split(",")), {"serde": a.serde, "dynamism": a.dynamism}, progress,
            a.violations)
    if a.json:
        out = s.as_json()
        out["summary"] = s.line()
        print(json.dumps(out, indent=1, default=str))
        return 0 if not s.diffs and not s.errors else 1
    for d in s.diffs:
        print(_describe(d))
    for e in s.errors:
        print(f"error: {e['graph']} {e.get('part')}: {e['error']}")
    for r in s.torch_rejected:
        where = f"example {r['example']} at {r['node']}" if "example" in r else r.get("part", "")
        print(f"torch rejected: {r['graph']} {where}: {str(r.get('error'))[:200]}")
    # known differences that are not deliberate choices but rules still to follow (their reason says OPEN)
    still_open = sum(1 for d in s.known if str(d.get("known", "")).startswith("OPEN"))
    print(f"known={len(s.known)} known_open={still_open} inherited={len(s.inherited)} "
          f"torch_rejected={len(s.torch_rejected)} "
          f"examples={s.examples} fields_same_text={s.same_text} serde_cases={s.cases['serde']} "
          f"dynamism_cases={s.cases['dynamism']} violation_cases={s.cases['violation']}")
    print(s.line())
    return 0 if not s.diffs and not s.errors else 1


def _pin_hash_seed():
    """PyTorch's guards depend on Python's string hashing: `_maybe_guard_rel` learns a
    divisibility from `next(iter(expr.atoms(Mod)))`, the first of a hash-ordered set, and
    produce_guards keeps one of two equal guards by set order (docs/torchref.md, "PyTorch's
    hash-seed dependence"). So a comparison is reproducible only under a fixed seed: the
    harness re-executes itself with PYTHONHASHSEED=0 unless the caller chose a seed."""
    if os.environ.get("PYTHONHASHSEED") is None:
        os.execve(sys.executable, [sys.executable, "-m", "symshape.torchref", *sys.argv[1:]],
                  {**os.environ, "PYTHONHASHSEED": "0"})


if __name__ == "__main__":
    _pin_hash_seed()
    sys.exit(main())
