#!/usr/bin/env python3
"""Python baseline for the guard-evaluation benchmark: `eval` of the printed guard text
(`symshape guards GRAPH --example 0`) for every visible corpus graph, over examples that all
pass (the first example's sizes, as bench/batch_bench.cpp), with `L` bound to objects whose
.size()/.stride()/.storage_offset() return the sizes. Prints clause evaluations per second
(one guard line for one example = one clause). Usage:
    python3 bench/python_guard_eval.py build/engine/cli/symshape ../shared/corpus/visible [examples]
"""
import glob
import json
import math  # noqa: F401  (guards may call math.isnan)
import os
import subprocess
import sys
import time


class T:
    def __init__(self, sizes):
        self._s = list(sizes)
        st, acc = [], 1
        for s in reversed(self._s):
            st.append(acc)
            acc *= max(s, 1)
        self._st = list(reversed(st))

    def size(self):
        return self._s

    def stride(self):
        return self._st

    def storage_offset(self):
        return 0


def main():
    cli, corpus = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    clauses, seconds = 0, 0.0
    for path in sorted(glob.glob(os.path.join(corpus, "*.graph.json"))):
        g = json.load(open(path))
        guards = subprocess.run([cli, "guards", path, "--example", "0"], capture_output=True, text=True).stdout.splitlines()
        guards = [x for x in guards if x.strip()]
        code = [compile(x, "<guard>", "eval") for x in guards]
        L = {k: T(v) for k, v in g["examples"][0]["inputs"].items()}
        env = {"L": L, "math": math}
        t0 = time.perf_counter()
        for _ in range(n):
            for c in code:
                if not eval(c, env):
                    raise SystemExit(f"guard failed in {path}")
        seconds += time.perf_counter() - t0
        clauses += n * len(code)
    print(f"python eval: clauses={clauses} seconds={seconds:.3f} clauses_per_s={clauses / seconds:.0f}")


if __name__ == "__main__":
    main()
