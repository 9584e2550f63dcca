"""Corpus builder: real architectures of timm, transformers, torchvision and torch_geometric,
built without weights, exported with torch.export 2.x (through symshape's converter) with
dynamic dims, executed at several example sizes to record goldens, written as fx-graph-json
per graph plus a packed corpus.fb. See docs/corpus.md, "Building a corpus from model libraries".

    python -m symshape.corpus_build OUT_DIR [--libraries timm,transformers,torchvision,torch_geometric]
        [--limit N] [--shard i/n] [--seed 0] [--jobs 1] [--timeout 600] [--max-params 40000000]
        [--models lib:name,...] [--retry-failed] [--no-pack] [--cli PATH]

OUT_DIR/
  graphs/<lib>.<model>.graph.json   one per exported model (goldens inside)
  models/<lib>.<model>.json         per-model record (stage reached, error, ops, verify counts)
  timings/<lib>.<model>.txt         seconds per stage (kept apart: the rest is deterministic)
  failures.json                     every model that failed: library, model, stage, error
  manifest.json                     every attempted model's record, sorted
  corpus.fb                         `symshape pack OUT_DIR/graphs`

Each model runs in its own subprocess (`--worker`) under a timeout; a model whose record
exists is skipped (resume), so shards of one run can share OUT_DIR."""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

STAGES = ("budget", "build", "run", "export", "convert", "golden", "verify")


def graph_name(lib, model):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", f"{lib}.{model}")


def clean_error(e):
    """PyTorch's exception text, with what differs between runs (addresses, tmp dirs) masked."""
    text = f"{type(e).__name__}: {e}" if isinstance(e, BaseException) else str(e)
    text = re.sub(r"0x[0-9a-fA-F]{6,}", "0x?", text)
    text = re.sub(r"/tmp/[A-Za-z0-9_.-]+", "/tmp/?", text)
    return text[:4000]


def _write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# ------------------------------------------------------------------------------- one model

class _Fail(Exception):
    def __init__(self, stage, error):
        super().__init__(error)
        self.stage, self.error = stage, error


def _seed_all(seed):
    import numpy as np
    import torch
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def _count_params_meta(factory):
    import torch
    try:
        with torch.device("meta"):
            m = factory()
        return sum(p.numel() for p in m.parameters())
    except Exception:  # noqa: BLE001 - models that cannot be built on meta are built for real
        return None


def build_one(lib, model, out, seed=0, max_params=40_000_000):
    """Build, export, record goldens, verify one model; returns its record (never raises)."""
    import torch
    torch.set_num_threads(1)
    from . import corpus_models as cm
    name = graph_name(lib, model)
    rec = {"library": lib, "model": model, "graph": name, "status": "failed"}
    times = {}
    t0 = time.monotonic()

    def lap(stage):
        nonlocal t0
        now = time.monotonic()
        times[stage] = round(now - t0, 3)
        t0 = now

    try:
        _seed_all(seed)
        try:
            case = cm.CASES[lib](model)
        except Exception as e:  # noqa: BLE001
            raise _Fail("build", clean_error(e)) from e
        rec["kind"] = case.kind
        if case.notes:
            rec["notes"] = case.notes
        n = _count_params_meta(case.factory)
        if n is not None:
            rec["params"] = n
            if n > max_params:
                raise _Fail("budget", f"{n} parameters > --max-params {max_params}")
        lap("budget")
        _seed_all(seed)
        try:
            m = case.factory().eval()
        except Exception as e:  # noqa: BLE001
            raise _Fail("build", clean_error(e)) from e
        rec["params"] = sum(p.numel() for p in m.parameters())
        examples = case.examples() if callable(case.examples) else case.examples
        lap("build")
        eager, first = [], None
        with torch.no_grad():
            for ex in examples:
                try:
                    m(*ex)
                    eager.append("ok")
                    first = ex if first is None else first
                except Exception as e:  # noqa: BLE001 - a rejected example is a negative golden
                    eager.append(clean_error(e).splitlines()[0][:300])
        rec["examples"] = [{"sizes": [list(t.shape) for t in ex], "eager": r} for ex, r in zip(examples, eager)]
        if first is None:
            raise _Fail("run", "PyTorch rejects every example: " + eager[0])
        lap("run")
        from . import torch_export
        from .exporter import ExportError
        program, spec, errors = None, None, []
        for i, cand in enumerate(case.specs):
            try:
                with torch.no_grad():
                    program = torch_export.export_program(m, first, None, cand)
                spec = cand
                rec["spec_tried"] = i
                break
            except ExportError as e:
                errors.append(clean_error(str(e)))
        if program is None:
            raise _Fail("export", "\n---\n".join(errors))
        lap("export")
        from .aten_graph import convert_exported_program
        from .exporter import supported_targets
        inputs = tuple(torch_export.user_inputs(program, first, None))
        try:
            # supported=None: every ATen op is written, the unsupported ones are catalogued below
            w, names, spec_json = convert_exported_program(program, inputs, spec, None)
            w.set_input_meta(names, inputs, {})
            w.dead_code_elimination()
            doc = w.document(name, spec_json)
        except Exception as e:  # noqa: BLE001
            raise _Fail("convert", clean_error(e)) from e
        lap("convert")
        supported = supported_targets() or set()
        targets = sorted({n["target"] for n in doc["nodes"] if n["op"] == "call_function"})
        rec["nodes"] = len(doc["nodes"])
        rec["spec"] = doc.get("dynamic_shapes")
        rec["unsupported_ops"] = [t for t in targets if t not in supported]
        from .golden import record_examples
        try:
            doc["examples"] = record_examples(doc, examples, w.attr_tensors)
        except Exception as e:  # noqa: BLE001
            raise _Fail("golden", clean_error(e)) from e
        text = json.dumps(doc, indent=1)
        os.makedirs(os.path.join(out, "graphs"), exist_ok=True)
        _write(os.path.join(out, "graphs", name + ".graph.json"), text)
        rec["golden_ok"] = [e["ok"] for e in doc["examples"]]
        rec["status"] = "exported"
        lap("golden")
        if rec["unsupported_ops"]:
            rec["status"] = "unsupported"
        else:
            try:
                rec["verify"] = _verify(m, examples, doc, text)
            except Exception as e:  # noqa: BLE001
                raise _Fail("verify", clean_error(e)) from e
            rec["status"] = "verified" if rec["verify"]["ok"] else "mismatch"
        lap("verify")
    except _Fail as f:
        rec["status"], rec["stage"], rec["error"] = "failed", f.stage, f.error
        gpath = os.path.join(out, "graphs", name + ".graph.json")
        if os.path.exists(gpath):  # written, but the engine cannot load it: kept apart from the corpus
            os.makedirs(os.path.join(out, "unloadable"), exist_ok=True)
            os.replace(gpath, os.path.join(out, "unloadable", name + ".graph.json"))
        lap(f.stage)
    return rec, times


def _verify(model, examples, doc, text):
    """symshape.verify's checks on the written graph: conform (engine vs goldens), every
    node's shape/stride/dtype at each example PyTorch and the engine both accept, and the
    exported program's outputs against the model's."""
    from .verification import _eager_matches
    eager_diffs = [i for i, (ex, gold) in enumerate(zip(examples, doc["examples"]))
                   if gold["ok"] and not _eager_matches(model, ex, gold["output"])]
    return check_graph(doc, text, eager_diffs)


def check_graph(doc, text, eager_diffs=()):
    """The engine against a graph's goldens: conform, then every node at every example both
    accept. `eager_diffs`: examples whose exported outputs differ from the model's (found
    when the model was at hand, kept by --recheck)."""
    from ._symshape import Graph
    from .verification import _same, bind_unbacked
    graph = Graph.from_bytes(text.encode(), doc["name"])
    conf = graph.conform()
    outcomes, diffs, checked = [], [], 0
    for i, (gold, res) in enumerate(zip(doc["examples"], conf["examples"])):
        outcome = res["outcome"]
        if i in eager_diffs:
            outcome = "mismatch"
            diffs.append("exported outputs differ from the model's")
        if gold["ok"] and res["accepted"]:
            concrete = {n["name"]: n["value"] for n in graph.propagate(sizes=gold["inputs"]).concrete_nodes()}
            for node, value in gold["values"].items():
                checked += 1
                if not _same(bind_unbacked(concrete.get(node), value), value):
                    diffs.append(f"{gold['inputs']}: node {node}")
                    outcome = "mismatch" if outcome == "correct" else outcome
        outcomes.append(outcome)
    counts = {k: outcomes.count(k) for k in sorted(set(outcomes))}
    bad = sum(v for k, v in counts.items() if k in ("mismatch", "rejected", "unsound"))
    return {"outcomes": outcomes, "counts": counts, "nodes_checked": checked, "node_diffs": diffs[:20],
            "eager_diffs": list(eager_diffs), "specializations": conf["specializations"],
            "ok": bad == 0 and not conf["unsupported"]}


def recheck(out, on_done=print):
    """Re-run the engine's checks (check_graph) on every graph of OUT/graphs against the
    engine of this process, without the models: after an engine change, the records'
    status and verify counts say where the corpus stands now, in seconds."""
    from . import golden
    from ._symshape import supported_targets
    supported = set(supported_targets())
    changed = 0
    for f in sorted(os.listdir(os.path.join(out, "models"))):
        path = os.path.join(out, "models", f)
        with open(path) as fh:
            rec = json.load(fh)
        gpath = os.path.join(out, "graphs", rec["graph"] + ".graph.json")
        if rec["status"] == "failed" or not os.path.exists(gpath):
            continue
        with open(gpath) as fh:
            text = fh.read()
        doc = json.loads(text)
        kinds = [golden.error_kind(e["error"]) if not e["ok"] else None for e in doc["examples"]]
        if any(k is not None and k != e.get("error_kind") for k, e in zip(kinds, doc["examples"])):
            # the golden's error_kind from its error text, with this version's classification
            for k, e in zip(kinds, doc["examples"]):
                if k is not None:
                    e["error_kind"] = k
            text = json.dumps(doc, indent=1)
            _write(gpath, text)
        targets = {n["target"] for n in doc["nodes"] if n["op"] == "call_function"}
        rec["unsupported_ops"] = sorted(t for t in targets if t not in supported)
        before = rec["status"]
        if rec["unsupported_ops"]:
            rec["status"] = "unsupported"
            rec.pop("verify", None)
        else:
            rec["verify"] = check_graph(doc, text, rec.get("verify", {}).get("eager_diffs", ()))
            rec["status"] = "verified" if rec["verify"]["ok"] else "mismatch"
        if rec["status"] != before:
            changed += 1
            on_done(f"{rec['library']} {rec['model']}: {before} -> {rec['status']}")
        _write(path, json.dumps(rec, indent=1, sort_keys=True) + "\n")
    return changed


def _worker(argv):
    lib, model, out, seed, max_params = argv[0], argv[1], argv[2], int(argv[3]), int(argv[4])
    import warnings
    warnings.filterwarnings("ignore")
    rec, times = build_one(lib, model, out, seed, max_params)
    name = graph_name(lib, model)
    os.makedirs(os.path.join(out, "models"), exist_ok=True)
    os.makedirs(os.path.join(out, "timings"), exist_ok=True)
    _write(os.path.join(out, "timings", name + ".txt"),
           "".join(f"{k} {v}\n" for k, v in times.items()))
    _write(os.path.join(out, "models", name + ".json"), json.dumps(rec, indent=1, sort_keys=True) + "\n")


# ----------------------------------------------------------------------------- the driver

def models_arg(text):
    """`--models`: lib:name,... or @FILE with one lib:name per line (blank lines and # comments
    skipped)."""
    if text.startswith("@"):
        with open(text[1:]) as f:
            items = [line.split("#", 1)[0].strip() for line in f]
    else:
        items = text.split(",")
    items = [x for x in items if x]
    for x in items:
        if ":" not in x:
            raise SystemExit(f"corpus_build: --models entry '{x}' is not lib:name")
    return items


def model_list(libraries, limit, seed):
    """(lib, model) pairs: per library its sorted names, a seeded sample of `limit` of them
    (kept in sorted order) when `limit` is given; the libraries interleaved."""
    from . import corpus_models as cm
    out = []
    for lib in libraries:
        names = cm.NAMES[lib]()
        if limit is not None and limit < len(names):
            names = sorted(random.Random(f"{seed}:{lib}").sample(names, limit))
        out += [(i, lib, n) for i, n in enumerate(names)]
    # libraries interleaved (1st of each, 2nd of each, ...): a run cut short covers all of them
    return [(lib, n) for _, lib, n in sorted(out)]


_WORKER_ENV = {"PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1",
               "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
_LIBRARY_MODULES = {"timm": "timm", "transformers": "transformers", "torchvision": "torchvision.models",
                    "torch_geometric": "torch_geometric.nn"}


def prewarm(libraries):
    """Import torch, the libraries and symshape's exporter once in the driver, so that each
    forked worker starts with them loaded: the ~4 s interpreter + torch import and the
    libraries' first imports are paid once per run, not once per model. Nothing runs a
    tensor op here (the driver stays free of thread pools, so forking it is safe)."""
    import importlib
    for k, v in _WORKER_ENV.items():
        if k != "PYTHONHASHSEED":
            os.environ.setdefault(k, v)
    import torch
    torch.set_num_threads(1)
    import torch.export  # noqa: F401 - dynamo, sympy and the export machinery
    import torch._dynamo  # noqa: F401
    from . import corpus_models
    for lib in libraries:
        importlib.import_module(_LIBRARY_MODULES[lib])
        corpus_models.NAMES[lib]()  # the name lists (transformers': every model class imported, memoised)
    from . import aten_graph, golden, torch_export, verification  # noqa: F401
    try:
        from . import _symshape  # noqa: F401
    except ImportError:
        pass


class _Forked:
    """A worker forked from the (prewarmed) driver: its own session, so a timeout kills
    everything it started; stdout discarded, stderr to `err_path`."""

    def __init__(self, argv, err_path):
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            code = 1
            try:
                os.setsid()
                fd = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 2)
                os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
                sys.stdout = open(1, "w", closefd=False)
                sys.stderr = open(2, "w", buffering=1, closefd=False)
                _worker(argv)
                code = 0
            except BaseException:  # noqa: BLE001 - reported through the missing record + stderr
                import traceback
                traceback.print_exc()
            finally:
                try:
                    sys.stderr.flush()
                finally:
                    os._exit(code)
        self.returncode = None

    def poll(self):
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


class _Spawned:
    """A worker in a fresh interpreter (`--spawn`): slower (torch imported per model), but
    nothing is shared with the driver."""

    def __init__(self, argv, err_path):
        with open(err_path, "wb") as err:
            self.p = subprocess.Popen([sys.executable, "-m", "symshape.corpus_build", "--worker", *argv],
                                      stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
                                      env=dict(os.environ, **_WORKER_ENV))
        self.pid = self.p.pid

    def poll(self):
        return self.p.poll()


def run_workers(args, todo, on_done):
    """Build every (lib, model) of `todo`, `args.jobs` at a time, each in its own process
    (forked from this prewarmed driver, or spawned with --spawn) under `args.timeout`
    seconds; a worker that times out is killed with its process group, one that dies
    without a record is recorded as a crash. `on_done(k, lib, model, seconds)` after each."""
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    start = _Spawned if args.spawn else _Forked
    pending, running = list(enumerate(todo)), {}
    pending.reverse()
    while pending or running:
        while pending and len(running) < max(1, args.jobs):
            k, (lib, model) = pending.pop()
            name = graph_name(lib, model)
            err_path = os.path.join(work, name + ".err")
            argv = [lib, model, args.out, str(args.seed), str(args.max_params)]
            running[k] = (lib, model, start(argv, err_path), time.monotonic(), err_path)
        time.sleep(0.02)
        for k, (lib, model, w, t0, err_path) in list(running.items()):
            if w.poll() is None:
                if time.monotonic() - t0 <= args.timeout:
                    continue
                try:
                    os.killpg(w.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                while w.poll() is None:
                    time.sleep(0.01)
                _crash(args.out, lib, model, "timeout", f"no result within {args.timeout:g} s")
            elif not os.path.exists(os.path.join(args.out, "models", graph_name(lib, model) + ".json")):
                with open(err_path, errors="replace") as f:
                    tail = f.read().strip().splitlines()[-5:]
                _crash(args.out, lib, model, "crash",
                       f"worker exited with status {w.poll()}: " + " | ".join(clean_error(x) for x in tail))
            del running[k]
            os.remove(err_path)
            on_done(k, lib, model, time.monotonic() - t0)
    shutil.rmtree(work, ignore_errors=True)


def _crash(out, lib, model, stage, error):
    name = graph_name(lib, model)
    os.makedirs(os.path.join(out, "models"), exist_ok=True)
    rec = {"library": lib, "model": model, "graph": name, "status": "failed", "stage": stage, "error": error}
    _write(os.path.join(out, "models", name + ".json"), json.dumps(rec, indent=1, sort_keys=True) + "\n")


def _find_cli(given):
    if given:
        return given
    if os.environ.get("SYMSHAPE_CLI"):
        return os.environ["SYMSHAPE_CLI"]
    here = os.path.dirname(os.path.abspath(__file__))
    guess = os.path.normpath(os.path.join(here, "..", "..", "engine", "cli", "symshape"))
    return guess if os.path.exists(guess) else shutil.which("symshape")


def summarise(out):
    """failures.json and manifest.json from every record in OUT/models (sorted, no timings)."""
    recs = []
    mdir = os.path.join(out, "models")
    for f in sorted(os.listdir(mdir)) if os.path.isdir(mdir) else []:
        if f.endswith(".json"):
            with open(os.path.join(mdir, f)) as fh:
                recs.append(json.load(fh))
    recs.sort(key=lambda r: (r["library"], r["model"]))
    fails = [{"library": r["library"], "model": r["model"], "stage": r["stage"], "error": r["error"]}
             for r in recs if r["status"] == "failed"]
    _write(os.path.join(out, "failures.json"), json.dumps(fails, indent=1) + "\n")
    _write(os.path.join(out, "manifest.json"), json.dumps(recs, indent=1, sort_keys=True) + "\n")
    by_lib = {}
    for r in recs:
        d = by_lib.setdefault(r["library"], {"attempted": 0, "exported": 0, "verified": 0, "unsupported": 0,
                                             "mismatch": 0, "failed": 0})
        d["attempted"] += 1
        d["exported"] += r["status"] != "failed"
        d[{"failed": "failed", "verified": "verified", "unsupported": "unsupported", "mismatch": "mismatch",
           "exported": "exported"}[r["status"]]] += r["status"] != "exported"
    try:  # the engine of this run may support more than the one the graphs were built with
        from ._symshape import supported_targets
        supported = set(supported_targets())
    except ImportError:
        supported = None
    ops = {}
    for r in recs:  # graphs of the corpus only (a failed model's ops are in its record)
        gpath = os.path.join(out, "graphs", r["graph"] + ".graph.json")
        if supported is not None and r["status"] != "failed" and os.path.exists(gpath):
            with open(gpath) as fh:
                doc = json.load(fh)
            r["unsupported_ops_now"] = sorted({n["target"] for n in doc["nodes"] if n["op"] == "call_function"
                                               and n["target"] not in supported})
        for op in r.get("unsupported_ops_now", r.get("unsupported_ops", [])) if r["status"] != "failed" else []:
            ops.setdefault(op, []).append(r["graph"])
    return recs, fails, by_lib, ops


def _conform_json(cli, graphs):
    r = subprocess.run([cli, "conform", "--json", graphs], capture_output=True, text=True)
    doc, end = json.JSONDecoder().raw_decode(r.stdout.lstrip())
    line = [x for x in (r.stdout.lstrip()[end:] + "\n" + r.stderr).splitlines() if x.startswith("conform:")]
    return doc, (line[-1] if line else "")


def report(out, cli):
    """OUT/report.md: per-library counts, failures by stage, the engine's conform verdicts,
    unsupported ops by graphs blocked, mismatches, runtime per model."""
    recs, fails, by_lib, ops = summarise(out)
    lines = ["# Corpus build report", ""]
    lines += ["| library | attempted | exported | verified | unsupported | mismatch | failed |", "|---|---|---|---|---|---|---|"]
    tot = {}
    for lib, d in sorted(by_lib.items()):
        lines.append(f"| {lib} | {d['attempted']} | {d['exported']} | {d['verified']} | {d['unsupported']} | "
                     f"{d['mismatch']} | {d['failed']} |")
        for k, v in d.items():
            tot[k] = tot.get(k, 0) + v
    if tot:
        lines.append(f"| **all** | {tot['attempted']} | {tot['exported']} | {tot['verified']} | {tot['unsupported']} | "
                     f"{tot['mismatch']} | {tot['failed']} |")
    stages = {}
    for f in fails:
        stages.setdefault(f["stage"], []).append(f"{f['library']}:{f['model']}")
    lines += ["", "Failures by stage (failures.json has PyTorch's text):", ""]
    for st, ms in sorted(stages.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"- {st}: {len(ms)} ({', '.join(ms[:12])}{', ...' if len(ms) > 12 else ''})")
    graphs = os.path.join(out, "graphs")
    if cli and os.path.isdir(graphs):
        doc, line = _conform_json(cli, graphs)
        # exact: every verdict equals PyTorch's; a value_error (PyTorch failed on tensor contents,
        # e.g. a position id past the table, which sizes cannot show: FORMAT.md error_kind) counts
        exact = [g["graph"] for g in doc if not g["unsupported"] and all(e["outcome"] in ("correct", "value_error")
                                                                            for e in g["examples"])]
        wrong = ("mismatch", "rejected", "unsound")
        bad = [g for g in doc if not g["unsupported"] and any(e["outcome"] in wrong for e in g["examples"])]
        val = [g["graph"] for g in doc if not g["unsupported"] and g not in bad and
               any(e["outcome"] == "value_error" for e in g["examples"])]
        lines += ["", "## symshape conform over OUT/graphs", "", "```", line, "```", "",
                  f"- graphs fully supported and exact (every example's verdict equals PyTorch's, value errors "
                  f"included): {len(exact)} of {len(doc)} ({100.0 * len(exact) / max(1, len(doc)):.1f}%)",
                  f"- graphs with an unsupported op: {sum(1 for g in doc if g['unsupported'])}",
                  f"- of them, graphs with value_error outcomes (PyTorch failed on tensor contents, "
                  f"e.g. a sequence past the position table): {len(val)} ({', '.join(val[:20])}"
                  f"{', ...' if len(val) > 20 else ''})",
                  f"- graphs with a wrong verdict (mismatch / rejected / unsound): {len(bad)}"]
        for g in bad:
            outs = [e["outcome"] for e in g["examples"]]
            det = next((e["detail"] for e in g["examples"] if e["outcome"] in wrong), "")
            lines.append(f"  - {g['graph']}: {outs} — {det[:300]}")
    node_bad = [r for r in recs if r["status"] == "mismatch"]
    lines += ["", f"Node-level mismatches (symshape.verify's shape/stride/dtype check): {len(node_bad)}"]
    for r in node_bad:
        lines.append(f"- {r['graph']}: {r['verify']['counts']} {r['verify']['node_diffs'][:3]}")
    lines += ["", "## Unsupported ops (graphs containing each, against the engine running the report; "
                  "a graph is blocked by its first one)", "",
              "| op | graphs | examples |", "|---|---|---|"]
    for op, gs in sorted(ops.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"| `{op}` | {len(gs)} | {', '.join(gs[:4])}{', ...' if len(gs) > 4 else ''} |")
    only = {}
    for r in recs:
        u = r.get("unsupported_ops_now", r.get("unsupported_ops", []))
        if len(u) == 1:
            only[u[0]] = only.get(u[0], 0) + 1
    gold = {}
    for r in recs:
        if r["status"] == "failed" and r.get("stage") == "golden":
            gold.setdefault(r["error"].splitlines()[0][:200], []).append(r["graph"])
    for err, gs in sorted(gold.items()):
        lines.append(f"| (golden failed, not in the corpus) {err} | {len(gs)} | {', '.join(gs[:4])} |")
    lines += ["", "Graphs whose only unsupported op it is (supporting it unblocks them): " +
              ", ".join(f"`{k}` {v}" for k, v in sorted(only.items(), key=lambda kv: (-kv[1], kv[0])))]
    secs = []
    tdir = os.path.join(out, "timings")
    for f in sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []:
        with open(os.path.join(tdir, f)) as fh:
            secs.append(sum(float(x.split()[1]) for x in fh if x.strip()))
    if secs:
        secs.sort()
        lines += ["", f"Runtime per model in its worker (from the case's construction on; the interpreter's "
                      f"torch import, ~3-5 s, comes on top): "
                      f"median {secs[len(secs) // 2]:.1f} s, mean {sum(secs) / len(secs):.1f} s, "
                      f"max {secs[-1]:.1f} s over {len(secs)} models"]
    _write(os.path.join(out, "report.md"), "\n".join(lines) + "\n")
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--worker":
        return _worker(argv[1:])
    from .corpus_models import LIBRARIES
    ap = argparse.ArgumentParser(prog="python -m symshape.corpus_build", description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--libraries", default=",".join(LIBRARIES))
    ap.add_argument("--limit", type=int, default=None, help="a seeded sample of N models per library")
    ap.add_argument("--shard", default="0/1", help="i/n: every n-th model from the i-th (0-based)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1, help="models built at once (one process each)")
    ap.add_argument("--spawn", action="store_true", help="each model in a fresh interpreter instead of a "
                    "process forked from the prewarmed driver (slower: torch is imported per model)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per model")
    ap.add_argument("--max-params", type=int, default=40_000_000,
                    help="models with more parameters (counted on the meta device) are listed as failures "
                         "at stage 'budget'")
    ap.add_argument("--models", default=None, help="lib:name,... instead of the library lists, or @FILE: "
                    "one lib:name per line (# comments), e.g. @scripts/corpus/ci_sample.txt")
    ap.add_argument("--retry-failed", action="store_true", help="rebuild models whose record says failed")
    ap.add_argument("--no-pack", action="store_true")
    ap.add_argument("--recheck", action="store_true", help="re-run the engine's checks on every graph of "
                    "OUT_DIR against the goldens (no model is built), update the records, then --report-only")
    ap.add_argument("--report-only", action="store_true", help="only (re)write failures.json, manifest.json, "
                    "corpus.fb and report.md from what OUT_DIR holds")
    ap.add_argument("--cli", default=None, help="the symshape CLI (default: SYMSHAPE_CLI, the build tree, PATH)")
    args = ap.parse_args(argv)
    libs = [x for x in args.libraries.split(",") if x]
    for lib in libs:
        if lib not in LIBRARIES:
            ap.error(f"unknown library {lib!r} (one of {', '.join(LIBRARIES)})")
    i, n = (int(x) for x in args.shard.split("/"))
    os.makedirs(args.out, exist_ok=True)
    if args.recheck:
        print(f"corpus_build: recheck: {recheck(args.out)} records changed status", flush=True)
        args.report_only = True
    if args.report_only:
        todo = []
    elif args.models:
        todo = [tuple(x.split(":", 1)) for x in models_arg(args.models)]
    else:
        todo = model_list(libs, args.limit, args.seed)
    todo = [] if args.report_only else todo[i::n]
    print(f"corpus_build: {len(todo)} models (shard {i}/{n}, seed {args.seed}) -> {args.out}", flush=True)
    start = time.monotonic()

    fresh = []
    for k, (lib, model) in enumerate(todo):
        rec_path = os.path.join(args.out, "models", graph_name(lib, model) + ".json")
        if os.path.exists(rec_path):
            with open(rec_path) as f:
                old = json.load(f)
            if not (args.retry_failed and old["status"] == "failed"):
                print(f"[{k + 1}/{len(todo)}] {lib} {model}: {old['status']} (kept)", flush=True)
                continue
            os.remove(rec_path)
        fresh.append((lib, model))
    index = {lm: k for k, lm in enumerate(todo)}

    def done(_, lib, model, secs):
        with open(os.path.join(args.out, "models", graph_name(lib, model) + ".json")) as f:
            rec = json.load(f)
        what = rec["status"]
        if what == "failed":
            what += f" at {rec['stage']}: {rec['error'].splitlines()[0][:160]}"
        elif what == "unsupported":
            what += f" ({', '.join(rec['unsupported_ops'][:4])})"
        elif "verify" in rec:
            what += f" {rec['verify']['counts']}"
        print(f"[{index[(lib, model)] + 1}/{len(todo)}] {lib} {model}: {what} nodes={rec.get('nodes', '-')} "
              f"({secs:.1f}s)", flush=True)

    if fresh:
        if not args.spawn:
            t = time.monotonic()
            prewarm(sorted({lib for lib, _ in fresh}))
            print(f"corpus_build: libraries imported in {time.monotonic() - t:.1f}s", flush=True)
        run_workers(args, fresh, done)
    recs, fails, by_lib, ops = summarise(args.out)
    print(f"corpus_build: done in {time.monotonic() - start:.0f}s", flush=True)
    for lib, d in sorted(by_lib.items()):
        print(f"  {lib}: " + " ".join(f"{k}={v}" for k, v in d.items()), flush=True)
    for op, graphs in sorted(ops.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:15]:
        print(f"  unsupported {op}: {len(graphs)} graphs", flush=True)
    cli = _find_cli(args.cli)
    if not args.no_pack and os.path.isdir(os.path.join(args.out, "graphs")):
        if cli is None:
            print("corpus_build: no symshape CLI found (--cli): corpus.fb not packed", flush=True)
        else:
            r = subprocess.run([cli, "pack", os.path.join(args.out, "graphs"), "-o",
                                os.path.join(args.out, "corpus.fb")], capture_output=True, text=True)
            print(f"corpus_build: pack exit {r.returncode} {r.stdout.strip()} {r.stderr.strip()[:500]}",
                  flush=True)
    report(args.out, cli)
    print(f"corpus_build: report in {os.path.join(args.out, 'report.md')}", flush=True)
    return 0


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":  # forked workers inherit the driver's str hashes
        os.execve(sys.executable, [sys.executable, "-m", "symshape.corpus_build", *sys.argv[1:]],
                  dict(os.environ, PYTHONHASHSEED="0"))
    sys.exit(main())
