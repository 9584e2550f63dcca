"""The cost of distributing a corpus run with Dask (docs/distributed.md): the same corpus
through `symshape corpus` in one process and through symshape.distributed.run_corpus on a
local cluster of 1 and 2 single-threaded worker processes, plus Dask's own per-task
overhead and the per-shard figures the cost model is built from.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/distributed/corpus_shards.py \\
           ../shared/corpus/visible --symshape build/engine/cli/symshape [--copies 88] [--examples 1000]

Corpus: the folder packed once (`symshape pack`) and replicated --copies times under
distinct file names (one corpus.fb per shard). With --examples, also the folder's graphs
each streaming --examples NDJSON examples (its own examples cycled) through
--examples-dir. Wall clock of each run (the CLI's includes process start and loading),
median of --repeat rounds, each round running every configuration once; cluster start-up
excluded (a cluster per worker count, started once). One line per configuration:
  <config>: graphs=G examples=E seconds=T graphs_per_s=R nodes_per_s=N examples_per_s=X result_bytes_per_graph=B
then Dask's per-task overhead (--tasks no-op tasks submitted at once and gathered):
  dask no-op tasks workers=W: tasks=N us_per_task=U tasks_per_s=R
"""
import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import distributed

from symshape import _symshape
from symshape import distributed as symdist


def noop(i):
    return i


def timed(fn, repeat):
    times, value = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), value


def cli_run(cli, paths, threads, extra=()):
    out = tempfile.mktemp(suffix=".results.fb")
    try:
        run = subprocess.run([cli, "corpus", *paths, "--threads", str(threads), "--no-timing", "--out", out, *extra],
                             check=True, capture_output=True, text=True)
        with open(out, "rb") as f:
            return run.stdout.strip().splitlines()[-1], f.read()
    finally:
        if os.path.exists(out):
            os.unlink(out)


def task_overhead(client, n):
    """Seconds per task for n no-op tasks submitted at once and gathered."""
    def once():
        futures = client.map(noop, range(n), pure=False)
        client.gather(futures)
        del futures
    t, _ = timed(once, 3)
    return t / n


def make_examples_dir(cli, visible, root, per_graph):
    d = os.path.join(root, "examples")
    os.mkdir(d)
    for f in sorted(os.listdir(visible)):
        if not f.endswith((".graph.json", ".graph.fb")):
            continue
        path = os.path.join(visible, f)
        lines = subprocess.run([cli, "examples", path], check=True, capture_output=True,
                               text=True).stdout.splitlines()
        name = _symshape.Graph.load(path).name
        with open(os.path.join(d, f"{name}.examples.ndjson"), "w") as out:
            out.write("\n".join(lines[i % len(lines)] for i in range(per_graph)) + "\n")
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--symshape", required=True)
    ap.add_argument("--copies", type=int, default=88)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--examples", type=int, default=1000)
    ap.add_argument("--tasks", type=int, default=2000, help="no-op tasks for the per-task overhead")
    args = ap.parse_args()

    root = tempfile.mkdtemp(prefix="symshape-dist-bench-")
    try:
        packed = os.path.join(root, "packed")
        os.mkdir(packed)
        first = os.path.join(packed, "c0000.corpus.fb")
        subprocess.run([args.symshape, "pack", args.corpus, "-o", first], check=True, capture_output=True)
        for i in range(1, args.copies):
            shutil.copy(first, os.path.join(packed, f"c{i:04d}.corpus.fb"))
        paths = [packed]

        examples_dir = make_examples_dir(args.symshape, args.corpus, root, args.examples) if args.examples else None
        with contextlib.ExitStack() as stack:
            clients = {}
            for workers in (1, 2):
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address="127.0.0.1:0", worker_dashboard_address=None))
                clients[workers] = stack.enter_context(distributed.Client(cluster))
                clients[workers].run(lambda: __import__("symshape._symshape"))  # import cost out of the timing

            # Every configuration once per round, rounds repeated: the machine is shared, so
            # interleaving keeps a change of load from favouring one configuration.
            configs = [(f"symshape corpus --threads {t}", lambda t=t: cli_run(args.symshape, paths, t))
                       for t in (1, 2)]
            configs += [(f"distributed workers={w}",
                         lambda w=w: symdist.run_corpus(paths, client=clients[w], no_timing=True, progress=False))
                        for w in (1, 2)]
            if examples_dir:
                ex = ("--examples-dir", examples_dir)
                configs += [(f"examples symshape corpus --threads {t}",
                             lambda t=t: cli_run(args.symshape, [args.corpus], t, ex)) for t in (1, 2)]
                configs += [(f"examples distributed workers={w}",
                             lambda w=w: symdist.run_corpus([args.corpus], client=clients[w], shard_size=5,
                                                            examples_dir=examples_dir, no_timing=True,
                                                            progress=False)) for w in (1, 2)]
            times, values = {name: [] for name, _ in configs}, {}
            for _ in range(args.repeat):
                for name, fn in configs:
                    t0 = time.perf_counter()
                    values[name] = fn()
                    times[name].append(time.perf_counter() - t0)
            ref = values["symshape corpus --threads 1"][1]
            for name, _ in configs:
                t, v = statistics.median(times[name]), values[name]
                data = v[1] if isinstance(v, tuple) else v.data
                if name.startswith("distributed"):
                    assert data == ref, "distributed result differs from symshape corpus"
                s = _symshape.results_summary(data)
                extra = f" engine_seconds={v.summary['engine_seconds']:.3f} " \
                    f"load_seconds={v.summary['load_seconds']:.3f} shards={v.summary['shards']}" \
                    if not isinstance(v, tuple) else f"  [{v[0]}]"
                print(f"{name}: graphs={s['graphs']} examples={s['examples']} seconds={t:.3f} "
                      f"graphs_per_s={s['graphs'] / t:.0f} nodes_per_s={s['nodes'] / t:.0f} "
                      f"examples_per_s={s['examples'] / t:.0f} result_bytes_per_graph={len(data) / s['graphs']:.0f}"
                      f"{extra}", flush=True)
            for w, client in clients.items():
                per_task = task_overhead(client, args.tasks)
                print(f"dask no-op tasks workers={w}: tasks={args.tasks} us_per_task={per_task * 1e6:.0f} "
                      f"tasks_per_s={1 / per_task:.0f}", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
