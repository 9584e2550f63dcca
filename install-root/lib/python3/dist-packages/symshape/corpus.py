"""Corpus runs from Python: `symshape conform` over files/folders with a progress bar."""
import os
import sys
import time


def _graph_files(paths):
    files = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith((".graph.json", ".graph.fb")))
        else:
            files.append(p)
    return files


def _progress(done, total, start, out):
    width = 30
    filled = width * done // max(total, 1)
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {time.monotonic() - start:.1f}s")
    if done == total:
        out.write("\n")
    out.flush()


def conform_corpus(paths, progress=True, out=None):
    """Conform every graph of `paths` (files or folders); one bad graph is reported, the rest
    still run. Returns (summary dict, per-graph results); summary['line'] is the CLI's last line."""
    from ._symshape import Graph, SymshapeError
    out = out or sys.stderr
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files = _graph_files(paths)
    keys = ("correct", "mismatch", "rejected", "unsound", "value_error", "unsupported")
    counts = dict.fromkeys(keys, 0)
    results, graphs, examples, specs, failed = [], 0, 0, 0, 0
    start = time.monotonic()
    for i, f in enumerate(files):
        try:
            r = Graph.load(f).conform()
            graphs += 1
            specs += r["specializations"]
            for e in r["examples"]:
                counts[e["outcome"] if e["outcome"] in counts else "rejected"] += 1
                examples += 1
        except SymshapeError as e:
            r = {"file": f, "loaded": False, "error": str(e), "examples": []}
            failed += 1
        results.append(r)
        if progress:
            _progress(i + 1, len(files), start, out)
    summary = dict(counts, graphs=graphs, examples=examples, specializations=specs, load_errors=failed)
    summary["line"] = summary_line(summary)
    return summary, results


def summary_line(s):
    """The `symshape conform` summary line."""
    return (f"conform: graphs={s['graphs']} examples={s['examples']} correct={s['correct']} "
            f"mismatch={s['mismatch']} rejected={s['rejected']} unsound={s['unsound']} "
            f"value_errors={s['value_error']} specializations={s['specializations']} unsupported={s['unsupported']}")
