#!/usr/bin/env python3
"""Examples per second on a stream of random input sizes: `symshape eval` (the graph's own
spec, one thread) against a Python loop that serves the same stream from the same
specialisations' guard text, in cache order, short-circuiting as PyTorch's cache lookup does
(the first entry whose guards all hold serves the example; `all()` stops at the first false
guard). The Python verdicts are checked against symshape's on the examples the loop runs.

    python3 bench/stream_vs_python.py build/engine/cli/symshape ../shared/corpus/visible/resnet18.graph.json \
        [--examples 2000000] [--python-examples 200000] [--seed 0]

The stream draws every dim the spec leaves dynamic uniformly from [--lo, --hi] (batch-like
dims, those whose example sizes stay below 64, from [1, 32]); static dims keep the graph's
first example's size. Prints one line per side and the ratio; the figures go to docs/batch.md.
"""
import argparse
import json
import math  # noqa: F401  (guards may call math functions)
import os
import random
import subprocess
import sys
import tempfile
import time


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from python_guard_eval import T  # noqa: E402  (what a guard line reads of an input)


def stream(graph, n, seed, lo, hi):
    spec = graph["dynamic_shapes"]["dynamic_shapes"]
    first = graph["examples"][0]["inputs"]
    names = list(spec)
    rng = random.Random(seed)
    ranges = {}
    for name in names:
        for d, entry in enumerate(spec[name] or []):
            if isinstance(entry, str):
                seen = [ex["inputs"][name][d] for ex in graph["examples"] if name in ex["inputs"]]
                ranges[(name, d)] = (1, 32) if max(seen) < 64 else (lo, hi)
    rows = []
    for _ in range(n):
        row = {}
        for name in names:
            sizes = list(first[name])
            for d in range(len(sizes)):
                if (name, d) in ranges:
                    sizes[d] = rng.randint(*ranges[(name, d)])
            row[name] = sizes
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("graph")
    ap.add_argument("--examples", type=int, default=2_000_000)
    ap.add_argument("--python-examples", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lo", type=int, default=32)
    ap.add_argument("--hi", type=int, default=512)
    args = ap.parse_args()
    graph = json.load(open(args.graph))
    rows = stream(graph, args.examples, args.seed, args.lo, args.hi)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stream.ndjson")
        with open(path, "w") as f:
            for r in rows:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
        out = subprocess.run([args.cli, "eval", args.graph, "--examples", path, "--threads", "1", "--json"],
                             capture_output=True, text=True, check=True).stdout
    result = json.loads(out.splitlines()[0])
    specs = result["specializations"]
    eps = result["examples"] / result["guard_seconds"]
    print(f"symshape eval: examples={result['examples']} specializations={len(specs)} "
          f"rejected={len(result['rejected'])} examples_per_s={eps:.3g}")

    # The cache in order: each entry's guard lines compiled once, as Dynamo's guard
    # manager is built once per entry.
    entries = [[compile(g, "<guard>", "eval") for g in s["guards"]] for s in specs]
    names = list(rows[0])
    n = min(args.python_examples, len(rows))
    inputs = [{k: T(r[k]) for k in names} for r in rows[:n]]
    verdicts = [None] * n
    t0 = time.perf_counter()
    for i, L in enumerate(inputs):
        env = {"L": L, "math": math}
        for idx, code in enumerate(entries):
            if all(eval(c, env) for c in code):
                verdicts[i] = idx
                break
    seconds = time.perf_counter() - t0
    py_eps = n / seconds
    print(f"python loop: examples={n} examples_per_s={py_eps:.3g}")
    expected = result["verdicts"][:n]
    mismatch = sum(1 for a, b in zip(verdicts, expected) if isinstance(b, int) and a != b)
    if mismatch:
        print(f"python loop and symshape disagree on {mismatch} examples", file=sys.stderr)
        sys.exit(1)
    print(f"ratio: {eps / py_eps:.0f}x (verdicts agree on {n} examples)")


if __name__ == "__main__":
    main()
