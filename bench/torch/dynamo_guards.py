"""Guard checks per call: Dynamo's (PyTorch 2.x torch.compile) against symshape's, in one run.

For each graph the GraphModule of aten calls (symshape.torchref_graph) is compiled with
`torch.compile(backend=<counting backend>)` (no code generation) and called at the graph's
accepted example sizes until the cache holds its specialisations. Then, at sizes that hit
the cache:
- Dynamo: the C++ guard manager's `check(frame locals)` of the cache entry serving those
  sizes (`torch._dynamo.eval_frame._debug_get_cache_entry_list`), median per call;
- symshape, one example: `GuardProgram.evaluate` of a 1-row array for the same
  specialisation (the graph's spec, propagated at the same sizes), Python call included;
- symshape, a batch: the same program on 1M rows of sizes that pass (ns per example).

usage: PYTHONPATH=build/python /opt/symshape-venv/bin/python bench/torch/dynamo_guards.py \\
           ../shared/corpus/visible/resnet18.graph.json ... [--rows 1000000]
One line per graph and the medians:
  dynamo_guards: graphs=G dynamo_us_per_call=A symshape_us_per_call=B symshape_ns_per_example=C
                 per_call_ratio=A/B batch_ratio=A/C
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np
import torch
from torch._dynamo.eval_frame import _debug_get_cache_entry_list

import symshape
from symshape.torchref_graph import DTYPES, to_graph_module


def _timed(fn, min_seconds=0.3):
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < min_seconds:
        fn()
        n += 1
    return (time.perf_counter() - start) / n


def _inputs(doc, sizes):
    out = []
    for node in doc["nodes"]:
        if node["op"] != "placeholder":
            continue
        meta = node.get("meta", {})
        dtype = DTYPES[meta.get("dtype", "float32")]
        shape = sizes[node["name"]]
        if dtype.is_floating_point:
            out.append(torch.randn(*shape, dtype=dtype))
        else:
            lo, hi = meta.get("range", [0, 2])
            out.append(torch.randint(lo, hi, shape, dtype=dtype))
    return out


def measure(path, rows):
    doc = json.load(open(path))
    ok = [ex for ex in doc["examples"] if ex.get("ok")]
    gm, placeholders = to_graph_module(doc)
    calls = []

    def counting_backend(g, example_inputs):
        calls.append(g)
        return g.forward

    torch._dynamo.reset()
    compiled = torch.compile(gm, backend=counting_backend)
    with torch.no_grad():
        for ex in ok:
            compiled(*_inputs(doc, ex["inputs"]))
    sizes = ok[-1]["inputs"]
    args = _inputs(doc, sizes)
    frame = {"self": gm, **{name: a for (name, _), a in zip(placeholders, args)}}
    entries = _debug_get_cache_entry_list(gm.forward.__code__)
    with torch.no_grad():  # grad mode is one of the global guards: check as the calls ran
        serving = [e for e in entries if e.guard_manager.check(frame)]
        if not serving:
            raise RuntimeError("no cache entry accepts the example")
        dynamo = _timed(lambda: serving[0].guard_manager.check(frame))

    g = symshape.load(path)
    prog = g.propagate(sizes=sizes).compile_guards()
    row = np.array([[v for name in prog.columns for v in [_column_value(name, sizes)]]], dtype=np.int64)
    assert prog.evaluate(row)[0], "symshape's specialisation must accept its own sizes"
    one = _timed(lambda: prog.evaluate(row))
    batch = np.asfortranarray(np.repeat(row, rows, axis=0))
    per_batch = min(_timed(lambda: prog.evaluate(batch), 0.5) for _ in range(3))
    return {"graph": doc["name"], "compiles": len(calls), "dynamo_us": dynamo * 1e6, "symshape_us": one * 1e6,
            "symshape_ns_per_example": per_batch / rows * 1e9}


def _column_value(column, sizes):
    # columns are named "<input>.size()[d]"
    name, rest = column.split(".", 1)
    d = int(rest[rest.index("[") + 1:rest.index("]")])
    return sizes[name][d]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--rows", type=int, default=1_000_000)
    a = ap.parse_args()
    results = []
    for path in a.graphs:
        try:
            r = measure(path, a.rows)
        except Exception as e:  # noqa: BLE001
            print(f"{path}: left out ({type(e).__name__}: {str(e).splitlines()[0][:120]})", file=sys.stderr)
            continue
        results.append(r)
        print(f"{r['graph']}: compiles={r['compiles']} dynamo_us_per_call={r['dynamo_us']:.1f} "
              f"symshape_us_per_call={r['symshape_us']:.2f} symshape_ns_per_example={r['symshape_ns_per_example']:.2f} "
              f"per_call={r['dynamo_us'] / r['symshape_us']:.0f}x batch={r['dynamo_us'] * 1000 / r['symshape_ns_per_example']:.0f}x")
    if not results:
        sys.exit("dynamo_guards: no graph measured")
    med = {k: statistics.median(r[k] for r in results) for k in ("dynamo_us", "symshape_us", "symshape_ns_per_example")}
    print(f"dynamo_guards: graphs={len(results)} dynamo_us_per_call={med['dynamo_us']:.1f} "
          f"symshape_us_per_call={med['symshape_us']:.2f} symshape_ns_per_example={med['symshape_ns_per_example']:.2f} "
          f"per_call_ratio={med['dynamo_us'] / med['symshape_us']:.0f} "
          f"batch_ratio={med['dynamo_us'] * 1000 / med['symshape_ns_per_example']:.0f}")


if __name__ == "__main__":
    main()
