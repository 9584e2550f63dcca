"""Corpora beyond one machine: `symshape corpus` sharded over a Dask cluster.

    from symshape.distributed import run_corpus
    result = run_corpus(["corpus/"], client="tcp://scheduler:8786", shard_size=64, out="all.results.fb")
    result.line  # 'distributed: graphs=... nodes=... failed=... shards=... workers=... seconds=...'

The input (graph files, packed corpus.fb files, folders of them) is split into shards;
each shard runs on a Dask worker through the corpus engine (`_symshape.run_shard`, the GIL
released, one process-wide engine per worker process), its results come back as
results.fb bytes and are merged into the canonical result of one `symshape corpus` run
over everything (`symshape merge`'s rules: graphs keyed by (name, file name), shards
disjoint). Shard tasks are pure functions of their inputs, so Dask recomputes a shard
whose worker died elsewhere; a bad graph fails only its own entry (a load_error result);
the merged output is written whole or not at all. See docs/distributed.md.

`python3 -m symshape.distributed PATH... [--scheduler ADDRESS]` is the command line.
"""
import argparse
import hashlib
import os
import shutil
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field

GRAPH_SUFFIXES = (".graph.json", ".graph.fb")
CORPUS_SUFFIX = ".corpus.fb"


# ---------------------------------------------------------------------------- planning

def expand_paths(paths):
    """Files and folders -> files, as `symshape corpus` expands them: a folder gives its
    *.graph.json, *.graph.fb and *.corpus.fb files, sorted. A missing path is an error."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = []
    for p in map(os.fspath, paths):
        if os.path.isdir(p):
            found = [os.path.join(p, f) for f in os.listdir(p)
                     if f.endswith(GRAPH_SUFFIXES + (CORPUS_SUFFIX,)) and os.path.isfile(os.path.join(p, f))]
            files += sorted(found)
        elif os.path.exists(p):
            files.append(p)
        else:
            raise FileNotFoundError(f"{p}: no such file or directory")
    return files


@dataclass(frozen=True)
class Shard:
    """One task's input: files run together by one engine call."""
    index: int
    files: tuple

    def key(self, options):
        """A Dask key that depends only on the inputs (paths and options), so a task
        recomputed after a worker died is the same task."""
        h = hashlib.sha1(repr((self.files, options)).encode()).hexdigest()[:16]
        return f"symshape-shard-{self.index:06d}-{h}"


def plan_shards(paths, shard_size=64):
    """Graph files in groups of `shard_size`, in the order given; a packed corpus.fb is a
    shard of its own (`symshape pack` already chose its size). Returns [Shard]."""
    if shard_size < 1:
        raise ValueError(f"shard_size must be >= 1, got {shard_size}")
    shards, group = [], []

    def close():
        if group:
            shards.append(Shard(len(shards), tuple(group)))
            group.clear()

    for f in expand_paths(paths):
        if f.endswith(CORPUS_SUFFIX):
            close()
            shards.append(Shard(len(shards), (f,)))
            continue
        group.append(f)
        if len(group) == shard_size:
            close()
    close()
    return shards


# ---------------------------------------------------------------------------- worker side

def run_shard(files, threads=1, examples_dir="", no_timing=False):
    """Task body: one shard through the corpus engine on this worker. Pure: the same files
    and options give the same bytes (timings aside, zeroed with no_timing). Returns
    (results.fb bytes, {graphs, nodes, examples, failed, seconds, load_seconds})."""
    from ._symshape import run_shard as _run
    return _run(list(files), threads=threads, examples_dir=examples_dir or "", no_timing=no_timing)


def run_shipped_shard(blobs, threads=1, examples_dir="", no_timing=False):
    """Task body when workers share no filesystem with the client: `blobs` is
    ((file name, bytes), ...); they are written to a private temporary folder (file names
    kept, since results name graphs by file name) and run like `run_shard`."""
    tmp = tempfile.mkdtemp(prefix="symshape-shard-")
    try:
        files = []
        for i, (name, data) in enumerate(blobs):
            d = os.path.join(tmp, str(i))  # one folder per file: equal names cannot collide
            os.mkdir(d)
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(data)
            files.append(path)
        return run_shard(files, threads, examples_dir, no_timing)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------------------- client side

@dataclass
class DistributedResult:
    """The merged run: `data` is the results.fb bytes (canonical, as `symshape corpus
    --out X.results.fb` writes them; None with merge=False), `summary` the counts, `line`
    the summary line."""
    data: object  # bytes, or None
    summary: dict = field(default_factory=dict)

    @property
    def line(self):
        s = self.summary
        return (f"distributed: graphs={s['graphs']} nodes={s['nodes']} failed={s['failed']} "
                f"shards={s['shards']} workers={s['workers']} seconds={s['seconds']:.3f} "
                f"graphs_per_s={s['graphs_per_s']:.0f} engine_seconds={s['engine_seconds']:.3f} "
                f"load_seconds={s['load_seconds']:.3f}")


class _ProgressBar:
    """`distributed [#####.....] 12/40 shards 300 graphs 1.2s` redrawn in place on stderr."""

    def __init__(self, total, out=None):
        self.total, self.out, self.start = total, out or sys.stderr, time.monotonic()

    def __call__(self, done, total, graphs):
        width = 30
        filled = width * done // max(total, 1)
        self.out.write(f"\rdistributed [{'#' * filled}{'.' * (width - filled)}] {done}/{total} shards "
                       f"{graphs} graphs {time.monotonic() - self.start:.1f}s")
        if done == total:
            self.out.write("\n")
        self.out.flush()


def _write_atomically(path, data):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".shard-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run_corpus(paths, client=None, shard_size=64, out=None, *, examples_dir=None, threads=1, no_timing=False,
               progress=True, ship=False, shard_dir=None, merge=True, n_workers=None, retries=2):
    """Run the corpus engine over `paths` on a Dask cluster and merge the shards.

    client: a `distributed.Client`, a scheduler address ("tcp://host:8786"), or None for a
      local cluster on this machine (one single-threaded worker process per core, on
      127.0.0.1, closed afterwards; `n_workers` overrides the count).
    shard_size: graph files per task (a corpus.fb file is one task).
    out: merged results file (`.json`: JSON, otherwise results.fb), written atomically.
    examples_dir: as `symshape corpus --examples-dir`; a path the workers can read.
    threads: engine threads per task (TBB); 1 suits one-thread workers.
    no_timing: zero per-graph timings, so results compare byte for byte across runs.
    progress: True draws a bar on stderr; a callable gets (shards_done, shards, graphs_done).
    ship: send the files' bytes with the tasks (workers without the client's filesystem).
    shard_dir: keep each shard's results there as it arrives (`symshape-shard-*.results.fb`,
      atomically); a later run with the same inputs reuses them instead of recomputing.
    merge: False (needs shard_dir) keeps the results as the shard files only, for corpora
      whose merged result would not fit in memory or in one results.fb (docs/distributed.md);
      each shard file is canonical and `symshape merge` joins any subset of them.
    retries: re-runs of a task that raised (a worker that died is handled by the scheduler:
      its tasks are recomputed on other workers).
    Returns a DistributedResult (data None when merge=False); raises when a shard fails
    beyond its retries.
    """
    from ._symshape import merge_results, results_summary, write_results

    if not merge and (not shard_dir or out):
        raise ValueError("merge=False keeps results only as shard files: give shard_dir, not out")
    start = time.monotonic()
    shards = plan_shards(paths, shard_size)
    options = (threads, os.fspath(examples_dir) if examples_dir else "", bool(no_timing))
    closers = []  # what this call started, closed in reverse order
    try:
        if client is None:
            from distributed import Client, LocalCluster
            # loopback only; the HTTP endpoint (health/metrics, no bokeh) on a free port
            cluster = LocalCluster(n_workers=n_workers or os.cpu_count() or 1, threads_per_worker=1,
                                   processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                   worker_dashboard_address=None)
            closers.append(cluster)
            client = Client(cluster)
            closers.append(client)
            client.wait_for_workers(len(cluster.workers))
        elif isinstance(client, str):
            from distributed import Client
            client = Client(client)
            closers.append(client)
        workers = len(client.scheduler_info().get("workers", {}))
        started = time.monotonic()  # the cluster is up: what follows is the run itself
        results, totals = _run_shards(client, shards, options, progress, ship, shard_dir, retries, merge)
    finally:
        for c in reversed(closers):
            c.close()

    merged = None
    if merge:
        merged = merge_results([results[i] for i in sorted(results)], no_timing=bool(no_timing))
        if out:
            write_results(os.fspath(out), merged)
        m = results_summary(merged)
        totals.update(graphs=m["graphs"], nodes=m["nodes"], examples=m["examples"], status=m["status"],
                      failed=m["graphs"] - m["status"].get("ok", 0))
    seconds = time.monotonic() - started
    summary = dict(totals, shards=len(shards), workers=workers, seconds=seconds, startup_seconds=started - start,
                   graphs_per_s=totals["graphs"] / seconds if seconds > 0 else 0.0)
    return DistributedResult(merged, summary)


def _run_shards(client, shards, options, progress, ship, shard_dir, retries, keep_bytes):
    """Submits the shards not already in shard_dir, collects results.fb bytes as shards
    complete (releasing each task's result on the cluster as soon as it is here).
    Returns ({shard index: bytes, or None when not keep_bytes}, totals of the shards)."""
    from distributed import as_completed

    from ._symshape import read_results, results_summary

    results, futures = {}, {}
    totals = {"graphs": 0, "nodes": 0, "examples": 0, "failed": 0, "engine_seconds": 0.0, "load_seconds": 0.0}

    def add(index, data, s):
        results[index] = data if keep_bytes else None
        for k in ("graphs", "nodes", "examples", "failed"):
            totals[k] += s[k]

    if shard_dir:
        os.makedirs(shard_dir, exist_ok=True)
    for shard in shards:
        key = shard.key(options)
        kept = shard_dir and os.path.join(shard_dir, f"{key}.results.fb")
        if kept and os.path.exists(kept):
            data = read_results(kept)
            s = results_summary(data)
            add(shard.index, data, dict(s, failed=s["graphs"] - s["status"].get("ok", 0)))
            continue
        if ship:
            # The bytes travel inside the task, through the scheduler, on purpose: Dask's
            # advice (scatter them to a worker first) would lose them with that worker,
            # and the shard could not be recomputed elsewhere.
            blobs = tuple((os.path.basename(f), _read_bytes(f)) for f in shard.files)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Large object of size", category=UserWarning)
                fut = client.submit(run_shipped_shard, blobs, *options, key=key, pure=True, retries=retries)
        else:
            fut = client.submit(run_shard, shard.files, *options, key=key, pure=True, retries=retries)
        futures[key] = (fut, shard)

    report = progress if callable(progress) else (_ProgressBar(len(shards)) if progress else None)
    if report and results:
        report(len(results), len(shards), totals["graphs"])
    for fut in as_completed([f for f, _ in futures.values()]):
        _, shard = futures.pop(fut.key)
        try:
            data, s = fut.result()
        except Exception as e:
            for f, _ in futures.values():
                f.cancel()
            raise RuntimeError(f"shard {shard.index} ({', '.join(shard.files)}) failed: {e!r}") from e
        fut.release()
        if shard_dir:
            _write_atomically(os.path.join(shard_dir, f"{fut.key}.results.fb"), data)
        add(shard.index, data, s)
        totals["engine_seconds"] += s["seconds"]
        totals["load_seconds"] += s["load_seconds"]
        if report:
            report(len(results), len(shards), totals["graphs"])
    return results, totals


def _read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


# ---------------------------------------------------------------------------- command line

def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m symshape.distributed",
        description="`symshape corpus` sharded over a Dask cluster; merged results written atomically")
    ap.add_argument("paths", nargs="+", help="graph files (.graph.json, .graph.fb), .corpus.fb files or folders")
    ap.add_argument("--scheduler", help="Dask scheduler address (tcp://HOST:8786); default: a local cluster")
    ap.add_argument("--workers", type=int, help="local cluster: worker processes (default: one per core)")
    ap.add_argument("--shard-size", type=int, default=64, help="graph files per task (a corpus.fb is one task)")
    ap.add_argument("--out", help="merged results: *.json, otherwise results.fb")
    ap.add_argument("--examples-dir", help="as `symshape corpus --examples-dir` (a path the workers can read)")
    ap.add_argument("--threads", type=int, default=1, help="engine threads per task (default 1)")
    ap.add_argument("--no-timing", action="store_true", help="zero per-graph timings (byte-comparable results)")
    ap.add_argument("--ship", action="store_true", help="send file bytes with the tasks (no shared filesystem)")
    ap.add_argument("--shard-dir", help="keep per-shard results here; reused by a rerun with the same inputs")
    ap.add_argument("--no-merge", action="store_true", help="results only as the --shard-dir files (huge corpora)")
    args = ap.parse_args(argv)
    try:
        result = run_corpus(args.paths, client=args.scheduler, shard_size=args.shard_size, out=args.out,
                            examples_dir=args.examples_dir, threads=args.threads, no_timing=args.no_timing,
                            progress=sys.stderr.isatty(), ship=args.ship, shard_dir=args.shard_dir,
                            merge=not args.no_merge, n_workers=args.workers)
    except (OSError, ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for status, n in sorted(result.summary.get("status", {}).items()):
        if status != "ok":
            print(f"error: {n} graph(s) with status {status} (see the results file)", file=sys.stderr)
    print(result.line)
    return 0 if result.summary["failed"] == 0 else 1


if __name__ == "__main__":
    # Run as `python3 -m symshape.distributed`: call the package's copy of this module, so
    # the task functions pickle by reference (symshape.distributed.run_shard), not by value.
    from symshape.distributed import main as _main
    sys.exit(_main())
