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

A TLS-secured scheduler (`tls://host:8786`) takes a `distributed.security.Security` with the
cluster's CA and this client's certificate and key (`security=`; on the command line
`--tls-ca-file --tls-cert --tls-key`, dask's own option names); files, addresses and
certificates are checked before the run, and a scheduler that cannot be reached or refuses
the certificates is an error within `connect_timeout` seconds, not a hang.

`python3 -m symshape.distributed PATH... [--scheduler ADDRESS]` is the command line.
"""
import argparse
import asyncio
import hashlib
import os
import re
import shutil
import ssl
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


# ---------------------------------------------------------------------------- TLS and connecting

# The client's TLS settings: Security attribute, command-line option, what it is.
_TLS_FIELDS = (("tls_ca_file", "--tls-ca-file", "CA file"),
               ("tls_client_cert", "--tls-cert", "client certificate"),
               ("tls_client_key", "--tls-key", "client key"))


def tls_security(ca_file, cert, key=None):
    """The `distributed.security.Security` of a client of a TLS scheduler: the CA file that
    signed the scheduler's and the workers' certificates, this client's certificate and its
    key (None: the key is in the certificate file). Encryption required. What the command
    line's --tls-ca-file, --tls-cert, --tls-key give."""
    from distributed.security import Security
    return Security(tls_ca_file=os.fspath(ca_file) if ca_file else None,
                    tls_client_cert=os.fspath(cert) if cert else None,
                    tls_client_key=os.fspath(key) if key else None, require_encryption=True)


def _in_memory(value):
    return isinstance(value, str) and "\n" in value  # PEM text, as Security.temporary() holds


def _label(value):
    return "(PEM text in memory)" if _in_memory(value) else str(value)


def _describe(attr):
    option, what = next((o, w) for a, o, w in _TLS_FIELDS if a == attr)
    return f"{what} ({option}, Security.{attr})"


def _check_client_tls(security):
    """The client's CA file, certificate and key: present, readable, parseable, matching.
    Raises ValueError / FileNotFoundError naming the file and its option, before any
    connection is tried (dask would say `[Errno 2] No such file or directory` or `PEM lib`)."""
    for attr, _, _ in _TLS_FIELDS:
        value = getattr(security, attr)
        if value is None:
            if attr != "tls_client_key":  # the key may be inside the certificate file
                raise ValueError(f"a TLS scheduler needs the {_describe(attr)}")
            continue
        if _in_memory(value):
            continue
        if not os.path.isfile(value):
            raise FileNotFoundError(f"{_describe(attr)} {value}: no such file")
        try:
            with open(value, "rb") as f:
                text = f.read()
        except OSError as e:
            raise OSError(f"{_describe(attr)} {value}: {e.strerror}") from e
        if attr != "tls_ca_file" and (b"ENCRYPTED PRIVATE KEY-----" in text or b"Proc-Type: 4,ENCRYPTED" in text):
            raise ValueError(f"{_describe(attr)} {value}: the private key is encrypted with a passphrase, which "
                             "dask cannot give it; decrypt it (`openssl pkey -in KEY -out KEY.plain`)")
    ca = security.tls_ca_file
    try:
        ssl.create_default_context(cadata=ca) if _in_memory(ca) else ssl.create_default_context(cafile=ca)
    except (ssl.SSLError, ValueError) as e:
        raise ValueError(f"{_describe('tls_ca_file')} {_label(ca)}: not a PEM CA certificate "
                         f"({getattr(e, 'reason', None) or e})") from e
    cert, key = security.tls_client_cert, security.tls_client_key
    if key is None and not _in_memory(cert):
        with open(cert, "rb") as f:
            if b"PRIVATE KEY-----" not in f.read():
                raise ValueError(f"{_describe('tls_client_cert')} {cert} holds no private key: give the "
                                 f"{_describe('tls_client_key')}")
    try:
        security.get_connection_args("client")
    except (ssl.SSLError, ValueError) as e:
        raise ValueError(f"{_describe('tls_client_cert')} {_label(security.tls_client_cert)} and "
                         f"{_describe('tls_client_key')} {_label(key) if key else '(in the certificate file)'}: "
                         f"not a PEM certificate and its private key ({getattr(e, 'reason', None) or e})") from e


def client_address_and_security(address, security=None):
    """The scheduler address and the Security to connect with, checked: a tls:// address
    needs the CA file and a client certificate (from `security`, or else from dask's
    configuration `distributed.comm.tls.*`, as dask's Client reads it); certificates given
    with a schemeless address make it tls://; certificates with a tcp:// address are an
    error (they would not be used). Raises ValueError / FileNotFoundError naming the
    option and file."""
    address = os.fspath(address)
    scheme = address.split("://", 1)[0] if "://" in address else None
    if security is None and scheme == "tls":
        from distributed.security import Security
        security = Security()  # dask's configuration, e.g. DASK_DISTRIBUTED__COMM__TLS__CA_FILE
        if not (security.tls_ca_file or security.tls_client_cert):
            raise ValueError(f"the scheduler address {address} is TLS: give the CA file and this client's "
                             "certificate and key (--tls-ca-file, --tls-cert, --tls-key; from Python "
                             "security=distributed.security.Security(tls_ca_file=..., tls_client_cert=..., "
                             "tls_client_key=...) or symshape.distributed.tls_security(ca, cert, key))")
    if security is None:
        return address, None
    if any(getattr(security, a) for a, _, _ in _TLS_FIELDS) or scheme == "tls":
        if scheme is None:
            address = "tls://" + address
        elif scheme != "tls":
            raise ValueError(f"TLS certificates given, but the scheduler address {address} is not TLS: "
                             f"use tls://{address.split('://', 1)[1]}")
        _check_client_tls(security)
    return address, security


def _error_chain(e):
    chain = []
    while e is not None and all(e is not x for x in chain):
        chain.append(e)
        e = e.__cause__ or e.__context__
    return chain


def _connect_error(e, address, security, timeout):
    """A clear ConnectionError for a failed connection to the scheduler: which side's
    certificate was refused, by whom, and which option names the file."""
    chain = _error_chain(e)
    text = " | ".join(f"{type(x).__name__}: {x}" for x in chain)
    # the innermost OpenSSL reason ("[SSL: TLSV1_ALERT_UNKNOWN_CA] tlsv1 alert unknown ca"), also
    # when dask wrapped it into a CommClosedError's text
    found = re.search(r"\[SSL: [A-Z0-9_]+\][^|()]*", text)
    ssl_text = found.group(0).strip() if found else next((str(x) for x in chain if isinstance(x, ssl.SSLError)), "")
    tls = security is not None and address.startswith("tls://")
    if tls and ("CERTIFICATE_VERIFY_FAILED" in text or "certificate does not match" in text):
        why = (f"the scheduler's certificate is not signed by the CA in {_label(security.tls_ca_file)} "
               f"(--tls-ca-file, Security.tls_ca_file): {ssl_text or chain[-1]}")
    elif tls and any(a in text for a in ("UNKNOWN_CA", "BAD_CERTIFICATE", "CERTIFICATE_REQUIRED",
                                          "CERTIFICATE_UNKNOWN", "DECRYPT_ERROR")):
        why = (f"the scheduler refused this client's certificate {_label(security.tls_client_cert)} "
               f"(--tls-cert, Security.tls_client_cert): it is not signed by a CA the scheduler trusts "
               f"({ssl_text or chain[-1]})")
    elif tls and ssl_text:
        why = f"TLS handshake failed: {ssl_text} (is the scheduler started with --tls-* options?)"
    elif any(isinstance(x, ConnectionRefusedError) for x in chain):
        why = "connection refused: nothing listens there (check the host, the port and the firewall)"
    elif "Timed out" in text or any(isinstance(x, (TimeoutError, asyncio.TimeoutError)) for x in chain):
        why = (f"no answer within {timeout:g} s (the --connect-timeout): is the scheduler running and its port "
               "open in the firewall?")
        if not address.startswith("tls://"):
            why += " A scheduler started with --tls-* options answers only tls:// addresses"
        else:
            why += " A scheduler started without --tls-* options answers only tcp:// addresses"
    else:
        why = f"{type(e).__name__}: {e}"
    return ConnectionError(f"cannot connect to the Dask scheduler at {address}: {why}")


def connect(address, security=None, connect_timeout=30.0):
    """A `distributed.Client` of the scheduler at `address` (checked by
    `client_address_and_security`), connected within `connect_timeout` seconds or a
    ConnectionError saying why (refused certificate and which file, unreachable port,
    wrong scheme)."""
    from distributed import Client
    address, security = client_address_and_security(address, security)
    try:
        return Client(address, security=security, timeout=connect_timeout)
    except (OSError, TypeError) as e:
        raise _connect_error(e, address, security, connect_timeout) from e


def _wait_for_a_worker(client, timeout):
    """At least one worker, within `timeout` seconds: a scheduler whose workers could not
    join (certificates from another CA, a firewall) would otherwise take the tasks and wait
    forever."""
    if client.scheduler_info().get("workers"):
        return
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, asyncio.TimeoutError) as e:
        address = client.scheduler.address
        how = (f"`dask worker {address} --tls-ca-file CA --tls-cert CERT --tls-key KEY`, with a certificate signed "
               "by the CA the scheduler trusts (for a worker it refuses, the scheduler logs `TLS handshake failed "
               "with remote ...` and the worker keeps `Waiting to connect`)"
               if address.startswith("tls://") else f"`dask worker {address}`")
        raise ConnectionError(f"no worker joined the scheduler at {address} within {timeout:g} s: start workers "
                              f"with {how}") from e


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
               progress=True, ship=False, shard_dir=None, merge=True, n_workers=None, retries=2, security=None,
               connect_timeout=30.0):
    """Run the corpus engine over `paths` on a Dask cluster and merge the shards.

    client: a `distributed.Client` (used as is: it carries its own security), a scheduler
      address ("tcp://host:8786", "tls://host:8786"), or None for a local cluster on this
      machine (one single-threaded worker process per core, on 127.0.0.1, closed afterwards;
      `n_workers` overrides the count).
    security: with a scheduler address, a `distributed.security.Security` holding the
      cluster's CA file and this client's certificate and key (`tls_security(ca, cert, key)`
      makes one); needed by a tls:// address unless dask's configuration gives them. The
      files are checked first (a missing or unreadable file, a key that does not match its
      certificate: an error naming it).
    connect_timeout: seconds to connect to the scheduler (a refused certificate, a closed
      port, a tls:// / tcp:// mismatch: ConnectionError saying which) and then for at least
      one worker to be there.
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
    if security is not None and not isinstance(client, (str, os.PathLike)):
        raise ValueError("security= applies to a scheduler address: a Client passed in is used as is (give it "
                         "security= when making it), and the local cluster (client=None) listens on 127.0.0.1 only")
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
        elif isinstance(client, (str, os.PathLike)):
            client = connect(client, security, connect_timeout)
            closers.append(client)
        _wait_for_a_worker(client, connect_timeout)
        workers = len(client.scheduler_info().get("workers", {}))
        started = time.monotonic()  # the cluster is up: what follows is the run itself
        try:
            results, totals = _run_shards(client, shards, options, progress, ship, shard_dir, retries, merge)
        except (Exception, asyncio.CancelledError) as e:
            if client.status not in ("connecting", "closing", "closed"):
                raise
            # the scheduler went away mid-run (its workers end with it): say so, and how to resume
            resume = (f"the shards that finished are kept in {shard_dir}: rerun the same command once the "
                      "scheduler and workers are back, and only the rest runs" if shard_dir else
                      "with shard_dir (--shard-dir) a rerun runs only the shards that had not finished")
            raise ConnectionError(f"lost the Dask scheduler at {client.scheduler.address} during the run "
                                  f"({type(e).__name__}: {e}); {resume}") from e
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
    ap.add_argument("--scheduler", help="Dask scheduler address (tcp://HOST:8786, tls://HOST:8786); "
                    "default: a local cluster")
    ap.add_argument("--tls-ca-file", metavar="FILE", help="TLS scheduler: the CA certificate (PEM) that signed the "
                    "scheduler's and workers' certificates")
    ap.add_argument("--tls-cert", metavar="FILE", help="TLS scheduler: this client's certificate (PEM)")
    ap.add_argument("--tls-key", metavar="FILE", help="TLS scheduler: this client's private key (PEM; default: "
                    "inside --tls-cert)")
    ap.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS",
                    help="to reach the scheduler and see a worker (default 30)")
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
    security = None
    if args.tls_ca_file or args.tls_cert or args.tls_key:
        if not args.scheduler:
            ap.error("--tls-ca-file / --tls-cert / --tls-key need --scheduler tls://HOST:PORT "
                     "(the local cluster listens on 127.0.0.1 only)")
        for option, value in (("--tls-ca-file", args.tls_ca_file), ("--tls-cert", args.tls_cert)):
            if not value:
                ap.error(f"a TLS scheduler needs {option} too (--tls-ca-file, --tls-cert, --tls-key)")
        security = tls_security(args.tls_ca_file, args.tls_cert, args.tls_key)
    try:
        result = run_corpus(args.paths, client=args.scheduler, shard_size=args.shard_size, out=args.out,
                            examples_dir=args.examples_dir, threads=args.threads, no_timing=args.no_timing,
                            progress=sys.stderr.isatty(), ship=args.ship, shard_dir=args.shard_dir,
                            merge=not args.no_merge, n_workers=args.workers, security=security,
                            connect_timeout=args.connect_timeout)
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
