"""symshape.capture: record what torch.compile sees in a training run, as a symshape corpus.

    cap = symshape.capture("run1/")
    model_c = torch.compile(model, backend=cap)      # or backend=cap.backend
    for batch in loader: loss = model_c(batch).sum(); ...
    cap.close()                                      # or `with symshape.capture(...) as cap:`

`cap` is a torch.compile backend. For every graph Dynamo hands over it
  - converts the graph to ATen with `make_fx` under Dynamo's own FakeTensorMode and
    ShapeEnv (so the dims Dynamo made dynamic are symbols with Dynamo's ranges, the static
    ones stay constants) and then to fx-graph-json with the converter of
    `symshape.aten_graph` (lifted parameters/buffers become `get_attr` nodes);
  - returns the graph's own forward (or `inner(gm, example_inputs)` when `inner` is given,
    e.g. inner="inductor") wrapped so that each call appends its input sizes to a list
    (no I/O, no allocation beyond one tuple per tensor input);
  - after the run reads Dynamo's guards of every cache entry (the guard manager's
    TENSOR_MATCH and shape guards, `_debug_get_cache_entry_list`) and writes them with the
    graph.

`close()` writes into out_dir:
  - `<stem>.graph.json` and `<stem>.examples.ndjson` per Dynamo graph (stem
    `g<k>_<frame>_<compile id>`): the calls that entry served, in order;
  - `<frame>.graph.json` + `<frame>.examples.ndjson` per frame whose entries each hold one
    graph: the graph of its most dynamic entry and the stream of every call any of its
    entries served, in call order; `symshape eval <frame>.graph.json --examples
    <frame>.examples.ndjson --policy compile` replays the run's recompiles;
  - `capture.json`: per graph its compile id, frame, inputs (name, Dynamo source, symbolic
    sizes, dynamic dims), Dynamo's guards, call count, and the ATen conversion's error if any.
`symshape corpus out_dir --examples-dir out_dir` and `symshape report` read the folder.
"""
import itertools
import json
import operator
import os
import re
import threading
import time

import torch

_NAME_RE = re.compile(r"[^A-Za-z0-9_]")


def _input_name(ph_name):
    """Dynamo placeholder `l_args_0_` / `l_x_` -> `args_0` / `x`."""
    n = ph_name
    if n.startswith("l_") or n.startswith("L_"):
        n = n[2:]
    return n.rstrip("_") or ph_name


def _state_target(source_name):
    """`L['self']._modules['0']._parameters['weight']` -> `0.weight` (None when not module state)."""
    if "._parameters[" not in source_name and "._buffers[" not in source_name:
        return None
    parts = re.findall(r"\._(?:modules|parameters|buffers)\['([^']+)'\]", source_name)
    return ".".join(parts) if parts else None


class _Graph:
    """One graph Dynamo handed to the backend."""

    def __init__(self, index, compile_id, code):
        self.index = index
        self.compile_id = compile_id
        self.code = code
        self.frame = None         # frame label, set by the Capture
        self.inputs = []          # [{"name", "source", "position", "sizes", "dynamic"}]
        self.positions = ()       # positions of the user tensor inputs in the compiled fn's args
        self.calls = []           # per call: (seq, tuple of size tuples)
        self.doc = None           # fx-graph-json dict
        self.error = None
        self.guards = []
        self.num_dynamic = 0

    @property
    def stem(self):
        return f"g{self.index}_{self.frame}_{self.compile_id.replace('/', '_')}"


class Capture:
    """A torch.compile backend that records every Dynamo graph, its guards and its calls."""

    def __init__(self, out_dir, inner=None, aten=True, name="capture"):
        self.out_dir = str(out_dir)
        self.inner = inner
        self.aten = aten
        self.name = _NAME_RE.sub("_", name)
        self.graphs = []
        self._codes = {}          # code object -> frame label
        self._counter = itertools.count(1)  # call sequence numbers across graphs
        self._lock = threading.Lock()
        self.closed = False
        self.capture_seconds = 0.0

    # ---- the backend ------------------------------------------------------------------
    @property
    def backend(self):
        return self

    def __call__(self, gm, example_inputs):
        t0 = time.perf_counter()
        rec = self._record(gm, example_inputs)
        compiled = gm.forward
        if self.inner is not None:
            inner = self.inner
            if isinstance(inner, str):
                from torch._dynamo.backends.registry import lookup_backend
                inner = lookup_backend(inner)
            compiled = inner(gm, example_inputs)
        self.capture_seconds += time.perf_counter() - t0
        return self._wrap(compiled, rec)

    def _wrap(self, compiled, rec):
        calls = rec.calls
        positions = rec.positions
        counter = self._counter
        append = calls.append
        # one tuple of torch.Size per call (ints only: no tensor is kept alive)
        if len(positions) == 1:
            p0 = positions[0]

            def run(*args):
                append((next(counter), (args[p0].shape,)))
                return compiled(*args)
        else:
            get = operator.itemgetter(*positions) if positions else (lambda a: ())

            def run(*args):
                append((next(counter), tuple([t.shape for t in get(args)])))
                return compiled(*args)
        run._symshape_graph = rec
        return run

    def _record(self, gm, example_inputs):
        from torch._dynamo.symbolic_convert import InstructionTranslator
        cid = torch._guards.CompileContext.current_compile_id()
        tx = InstructionTranslator.current_tx()
        code = tx.f_code if tx is not None else None
        with self._lock:
            rec = _Graph(len(self.graphs), str(cid) if cid is not None else str(len(self.graphs)), code)
            if code not in self._codes:
                self._codes[code] = f"f{len(self._codes)}_{_NAME_RE.sub('_', getattr(code, 'co_name', 'frame'))}"
            rec.frame = self._codes[code]
            self.graphs.append(rec)
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        positions, plan, lifted = [], [], {}
        for pos, ph in enumerate(placeholders):
            ga = ph.meta.get("grapharg")
            source = ga.source.name if ga is not None and ga.source is not None else ph.name
            val = ph.meta.get("example_value")
            target = _state_target(source)
            if isinstance(val, torch.Tensor) and (target is not None or isinstance(val, torch.nn.Parameter)):
                real = ga.example if ga is not None and isinstance(ga.example, torch.Tensor) else val
                plan.append(("state", pos, target or ph.name, real))
            elif isinstance(val, torch.Tensor):
                positions.append(pos)
                sizes = [str(s) if isinstance(s, torch.SymInt) else int(s) for s in val.shape]
                dyn = [d for d, s in enumerate(val.shape) if isinstance(s, torch.SymInt)
                       and not s.node.expr.is_number]
                rec.num_dynamic += len(dyn)
                rec.inputs.append({"name": _input_name(ph.name), "source": source, "position": pos,
                                   "sizes": sizes, "dynamic": dyn, "dtype": str(val.dtype).replace("torch.", "")})
                plan.append(("input", pos, _input_name(ph.name), example_inputs[pos]))
            else:
                plan.append(("symint", pos, source, val))
        rec.positions = tuple(positions)
        if self.aten:
            try:
                rec.doc = self._to_fx_json(gm, placeholders, plan, rec)
            except Exception as e:  # noqa: BLE001 - recorded in capture.json; the run goes on
                rec.error = f"{type(e).__name__}: {e}"
        return rec

    def _to_fx_json(self, gm, placeholders, plan, rec):
        """make_fx under Dynamo's fake mode -> ATen GraphModule -> fx-graph-json dict."""
        from torch.fx.experimental.proxy_tensor import make_fx
        from .aten_graph import _program_spec, convert_graph_module
        tensor_pos = [p for kind, p, _, _ in plan if kind != "symint"]
        by_source = {}
        for kind, p, _, _ in plan:
            if kind == "input":
                ga = placeholders[p].meta.get("grapharg")
                by_source[ga.source.name if ga is not None else placeholders[p].name] = p
        symint_from = {}
        for kind, p, source, _ in plan:
            if kind != "symint":
                continue
            m = re.fullmatch(r"(.*)\.(size|stride)\(\)\[(\d+)\]", source)
            if m is None or m.group(1) not in by_source:
                raise RuntimeError(f"graph input {placeholders[p].name} ({source}) is a SymInt that is not a "
                                   f"tensor input's size; fx-graph-json inputs are tensors")
            symint_from[p] = (by_source[m.group(1)], m.group(2), int(m.group(3)))

        def f(*tensors):
            full = [None] * len(placeholders)
            for p, t in zip(tensor_pos, tensors):
                full[p] = t
            for p, (src, prop, d) in symint_from.items():
                full[p] = getattr(full[src], prop)(d)
            return gm(*full)

        fakes = [placeholders[p].meta["example_value"] for p in tensor_pos]
        # the mode the example values were made in (the TracingContext may hold a fresh one)
        fake_mode = next(t.fake_mode for t in fakes if hasattr(t, "fake_mode"))
        with torch._guards.tracing(None), fake_mode:
            aten_gm = make_fx(f, tracing_mode="symbolic", pre_dispatch=True)(*fakes)
        aten_ph = [n for n in aten_gm.graph.nodes if n.op == "placeholder"]
        lifted, names, user_inputs, shapes = {}, [], [], {}
        by_pos = {p: (kind, name, value) for kind, p, name, value in plan}
        for node, p in zip(aten_ph, tensor_pos):
            kind, name, value = by_pos[p]
            if kind == "state":
                lifted[node.name] = (name, value)
            else:
                node._rename(name)
                names.append(node.name)
                user_inputs.append(value)
                shapes[node.name] = list(placeholders[p].meta["example_value"].shape)
        aten_gm.recompile()
        w, got = convert_graph_module(aten_gm, user_inputs, lifted)
        shape_env = fake_mode.shape_env
        ranges = {}
        for shape in shapes.values():
            for s in shape:
                if isinstance(s, torch.SymInt) and s.node.expr.is_Symbol:
                    ranges[s.node.expr] = shape_env.var_to_range.get(s.node.expr)
        spec = _program_spec(shapes, {k: v for k, v in ranges.items() if v is not None}, {})
        w.set_input_meta(got, user_inputs, {})
        w.dead_code_elimination()
        doc = w.document(rec.stem, spec)
        doc["producer"]["tool"] = "symshape.capture"
        return doc

    # ---- after the run ----------------------------------------------------------------
    def _read_guards(self):
        """Dynamo's guards of every cache entry of the frames seen, by compile id."""
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list
        out = {}
        for code in self._codes:
            if code is None:
                continue
            try:
                entries = _debug_get_cache_entry_list(code)
            except Exception:  # noqa: BLE001
                continue
            for e in entries:
                lines = []
                for line in str(e.guard_manager).splitlines():
                    body = line.lstrip("| +-").split("  #")[0].rstrip()
                    kind, _, text = body.partition(": ")
                    if kind in ("TENSOR_MATCH", "LAMBDA_GUARD", "SYMBOLIC_SHAPE_GUARD", "NO_TENSOR_ALIASING") or \
                            "size()" in body or "stride()" in body:
                        lines.append(text if text else body)
                out[str(e.compile_id)] = lines
        return out

    def summary(self):
        return [{"graph": g.stem, "compile_id": g.compile_id, "frame": g.frame, "inputs": g.inputs,
                 "calls": len(g.calls), "guards": g.guards, "aten": g.doc is not None, "error": g.error}
                for g in self.graphs]

    def _ndjson(self, inputs, calls):
        names = [i["name"] for i in inputs]
        return "".join(json.dumps(dict(zip(names, [list(s) for s in sizes]))) + "\n" for _, sizes in calls)

    def close(self):
        """Read the guards and write the corpus (idempotent)."""
        if self.closed:
            return self.out_dir
        self.closed = True
        from .fxjson import write_whole
        os.makedirs(self.out_dir, exist_ok=True)
        guards = self._read_guards()
        frames = {}
        for g in self.graphs:
            g.guards = guards.get(g.compile_id, [])
            frames.setdefault(g.frame, []).append(g)
            if g.doc is not None:
                write_whole(os.path.join(self.out_dir, g.stem + ".graph.json"), json.dumps(g.doc, indent=1))
                write_whole(os.path.join(self.out_dir, g.stem + ".examples.ndjson"), self._ndjson(g.inputs, g.calls))
        frame_files = {}
        for frame, gs in frames.items():
            ids = [g.compile_id.split("/")[:2] for g in gs]
            one_graph_per_entry = len({tuple(i) for i in ids}) == len(gs)
            best = max((g for g in gs if g.doc is not None), key=lambda g: g.num_dynamic, default=None)
            if not one_graph_per_entry or best is None or \
                    any([i["name"] for i in g.inputs] != [i["name"] for i in best.inputs] for g in gs):
                continue
            doc = dict(best.doc, name=frame)
            calls = sorted((c for g in gs for c in g.calls), key=lambda c: c[0])
            write_whole(os.path.join(self.out_dir, frame + ".graph.json"), json.dumps(doc, indent=1))
            write_whole(os.path.join(self.out_dir, frame + ".examples.ndjson"), self._ndjson(best.inputs, calls))
            frame_files[frame] = {"graph": frame + ".graph.json", "from": best.stem, "calls": len(calls)}
        manifest = {"format": "symshape-capture", "version": 1, "torch": torch.__version__,
                    "capture_seconds": self.capture_seconds, "graphs": self.summary(), "frames": frame_files}
        write_whole(os.path.join(self.out_dir, "capture.json"), json.dumps(manifest, indent=1))
        return self.out_dir

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def capture(out_dir, inner=None, aten=True, name="capture"):
    """A Capture: pass it (or `.backend`) as torch.compile's backend; `close()` or the end of a
    `with` block writes the corpus to `out_dir`. `inner`: the backend that compiles each graph
    after it is recorded (a callable or a registered name such as "inductor"; default: run
    the graph as Dynamo gave it)."""
    return Capture(out_dir, inner=inner, aten=aten, name=name)
