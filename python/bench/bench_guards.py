"""Per-call cost of batch guard verdicts through the Python bindings (compare with
build/bench/python_guard_bench, the same calls in C++): resnet18's guards over N rows."""
import os
import sys
import timeit

import numpy as np

import symshape

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
prog = symshape.load(os.path.join(root, "data", "samples", "resnet18.graph.json")) \
    .propagate(sizes={"x": [2, 3, 64, 64]}).compile_guards()
rng = np.random.default_rng(0)
for rows in (1, 1000, 1_000_000):
    a = np.empty((rows, 4), dtype=np.int64, order="F")
    a[:, 0] = rng.integers(0, 9, rows)
    a[:, 1] = rng.choice([3, 3, 3, 4], rows)
    a[:, 2:] = rng.integers(0, 300, (rows, 2))
    for name, fn in (("evaluate", lambda x: prog.evaluate(x, threads=1)), ("evaluate_scalar", prog.evaluate_scalar)):
        n, t = timeit.Timer(lambda: fn(a)).autorange()
        best = min(timeit.repeat(lambda: fn(a), number=n, repeat=3)) / n
        print(f"{name:16s} rows={rows:8d} ns_per_call={best * 1e9:12.0f} ns_per_row={best * 1e9 / rows:8.2f}")
sys.stdout.flush()
