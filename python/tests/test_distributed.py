"""symshape.distributed: the corpus engine sharded over a Dask cluster gives the bytes of one
`symshape corpus` run, also when a worker is killed mid-run. Clusters are local: 2 worker
processes (one thread each) on 127.0.0.1."""
import os
import shutil
import signal
import subprocess
import sys

import pytest

distributed = pytest.importorskip("distributed")  # Debian: python3-distributed

import symshape  # noqa: E402
from symshape import _symshape  # noqa: E402
from symshape import distributed as symdist  # noqa: E402

COPIES = 20  # the visible corpus packed once, replicated under 20 file names


def _cli():
    cli = os.environ.get("SYMSHAPE_CLI")
    if not cli:
        pytest.skip("SYMSHAPE_CLI not set (ctest sets it)")
    return cli


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Inputs and the single-machine reference: 20 corpus.fb copies of the visible corpus,
    its 25 loose graph files, one malformed graph file, and an examples dir giving one graph
    an NDJSON example stream. `ref` is `symshape corpus --no-timing` over all of it."""
    from conftest import SHARED
    visible = os.path.join(SHARED, "corpus", "visible")
    if not os.path.isdir(visible):
        pytest.skip("shared/corpus/visible not present")
    cli = _cli()
    root = tmp_path_factory.mktemp("corpus")
    packed = root / "packed"
    packed.mkdir()
    subprocess.run([cli, "pack", visible, "-o", str(packed / "v00.corpus.fb")], check=True, capture_output=True)
    for i in range(1, COPIES):
        shutil.copy(packed / "v00.corpus.fb", packed / f"v{i:02d}.corpus.fb")
    bad = root / "bad"
    bad.mkdir()
    (bad / "truncated.graph.json").write_text('{"format": "fx-graph-json", "nodes": [')
    examples = root / "examples"
    examples.mkdir()
    first = sorted(f for f in os.listdir(visible) if f.endswith(".graph.json"))[0]
    name = symshape.load(os.path.join(visible, first)).name
    ndjson = subprocess.run([cli, "examples", os.path.join(visible, first)], check=True, capture_output=True,
                            text=True).stdout
    (examples / f"{name}.examples.ndjson").write_text(ndjson + "not json\n")
    inputs = [str(packed), visible, str(bad)]
    ref = root / "ref.results.fb"
    run = subprocess.run([cli, "corpus", *inputs, "--threads", "2", "--no-timing", "--examples-dir", str(examples),
                          "--out", str(ref)], capture_output=True, text=True)
    assert run.returncode == 1 and "truncated.graph.json" in run.stderr  # the bad file, reported
    return {"inputs": inputs, "examples": str(examples), "ref": ref.read_bytes(), "visible": visible,
            "graphs": 25 * (COPIES + 1) + 1, "root": root}


def _local_cluster():
    return distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                    dashboard_address="127.0.0.1:0", worker_dashboard_address=None)


@pytest.fixture(scope="module")
def client():
    with _local_cluster() as cluster, distributed.Client(cluster) as c:
        c.wait_for_workers(2)
        yield c


def test_plan_shards_groups_graph_files_and_keeps_corpus_files_whole(corpus):
    shards = symdist.plan_shards(corpus["inputs"], shard_size=10)
    files = [f for s in shards for f in s.files]
    assert files == symdist.expand_paths(corpus["inputs"])
    corpus_shards = [s for s in shards if s.files[0].endswith(".corpus.fb")]
    assert len(corpus_shards) == COPIES and all(len(s.files) == 1 for s in corpus_shards)
    assert [len(s.files) for s in shards if not s.files[0].endswith(".corpus.fb")] == [10, 10, 6]
    assert [s.index for s in shards] == list(range(len(shards)))
    with pytest.raises(FileNotFoundError, match="nowhere.graph.json"):
        symdist.plan_shards(["nowhere.graph.json"])
    with pytest.raises(ValueError, match="shard_size"):
        symdist.plan_shards(corpus["inputs"], shard_size=0)


def test_sharded_run_equals_one_machine_run(corpus, client, tmp_path):
    out = tmp_path / "merged.results.fb"
    seen = []
    result = symdist.run_corpus(corpus["inputs"], client=client, shard_size=8, out=out, no_timing=True,
                                examples_dir=corpus["examples"], progress=lambda *a: seen.append(a))
    assert out.read_bytes() == corpus["ref"]
    assert result.data == corpus["ref"]
    s = result.summary
    assert s["graphs"] == corpus["graphs"] and s["shards"] == COPIES + 4 and s["workers"] == 2
    assert s["failed"] == 1 and s["status"] == {"ok": corpus["graphs"] - 1, "load_error": 1}
    assert seen[-1][:2] == (COPIES + 4, COPIES + 4) and seen[-1][2] == corpus["graphs"]
    assert not [f for f in os.listdir(tmp_path) if f != "merged.results.fb"]  # no temp file left


def test_worker_killed_mid_run_loses_no_shard(corpus, tmp_path):
    killed = {}

    def kill_a_busy_worker(done, total, graphs):
        if killed or done == total:
            return
        processing = c.processing()
        busy = [w for w, keys in processing.items() if keys]
        if not busy:
            return
        pid = c.run(os.getpid, workers=[busy[0]])[busy[0]]
        os.kill(pid, signal.SIGKILL)
        killed.update(worker=busy[0], pid=pid, done=done, total=total, running=processing[busy[0]])

    with _local_cluster() as cluster, distributed.Client(cluster) as c:
        c.wait_for_workers(2)
        result = symdist.run_corpus(corpus["inputs"], client=c, shard_size=4, no_timing=True,
                                    examples_dir=corpus["examples"], progress=kill_a_busy_worker)
    assert killed and killed["done"] < killed["total"] and killed["running"]
    assert result.data == corpus["ref"]


def test_shipped_bytes_and_kept_shards(corpus, client, tmp_path):
    cli = _cli()
    ref = tmp_path / "visible.results.fb"
    subprocess.run([cli, "corpus", corpus["visible"], "--no-timing", "--out", str(ref)], check=True,
                   capture_output=True)
    shipped = symdist.run_corpus([corpus["visible"]], client=client, shard_size=6, ship=True, no_timing=True,
                                 progress=False)
    assert shipped.data == ref.read_bytes()
    kept = tmp_path / "shards"
    first = symdist.run_corpus([corpus["visible"]], client=client, shard_size=6, no_timing=True, progress=False,
                               shard_dir=kept)
    assert len([f for f in os.listdir(kept) if f.endswith(".results.fb")]) == 5
    # a rerun submits nothing: every shard is read back from shard_dir
    calls = []
    again = symdist.run_corpus([corpus["visible"]], client=client, shard_size=6, no_timing=True,
                               progress=lambda *a: calls.append(a), shard_dir=kept)
    assert first.data == again.data == ref.read_bytes()
    assert calls == [(5, 5, 25)] and again.summary["engine_seconds"] == 0
    # merge=False: the shard files are the result; `symshape merge` joins them
    apart = tmp_path / "apart"
    r = symdist.run_corpus([corpus["visible"]], client=client, shard_size=6, no_timing=True, progress=False,
                           shard_dir=apart, merge=False)
    assert r.data is None and r.summary["graphs"] == 25 and r.summary["failed"] == 0
    assert r.summary["examples"] == symshape._symshape.results_summary(ref.read_bytes())["examples"]
    joined = tmp_path / "joined.results.fb"
    subprocess.run([cli, "merge", *sorted(str(p) for p in apart.iterdir()), "-o", str(joined)], check=True,
                   capture_output=True)
    assert joined.read_bytes() == ref.read_bytes()
    with pytest.raises(ValueError, match="shard_dir"):
        symdist.run_corpus([corpus["visible"]], client=client, merge=False)


def test_merge_rejects_overlapping_shards(corpus):
    data, _ = _symshape.run_shard([os.path.join(corpus["visible"], sorted(os.listdir(corpus["visible"]))[0])])
    with pytest.raises(symshape.BadInputError, match="more than one shard"):
        _symshape.merge_results([data, data])
    with pytest.raises(symshape.BadInputError, match="results shard 1"):
        _symshape.merge_results([data, b"not results"])


def test_command_line_with_a_scheduler_address(corpus, client, tmp_path):
    out = tmp_path / "cli.json"
    env = dict(os.environ)
    run = subprocess.run([sys.executable, "-m", "symshape.distributed", corpus["visible"], "--scheduler",
                          client.scheduler.address, "--shard-size", "10", "--no-timing", "--out", str(out)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("distributed: graphs=25 nodes=") and " failed=0 shards=3 workers=2 " in last
    ref = tmp_path / "ref.json"
    subprocess.run([_cli(), "corpus", corpus["visible"], "--no-timing", "--out", str(ref)], check=True,
                   capture_output=True)
    assert out.read_text() == ref.read_text()
