"""symshape.distributed against a TLS-secured Dask cluster on loopback: a CA made here, the
scheduler, worker and client certificates it signed, `dask scheduler` / `dask worker`
subprocesses started with dask's --tls-* options (as docs/distributed.md tells a real
cluster to), a sharded run through them equal to `symshape corpus`, and misconfigured
clients (no certificates, a missing file, another CA, a refused certificate, the wrong
scheme, no worker) failing with an error naming the file or option within a bounded time."""
import contextlib
import datetime
import ipaddress
import json
import os
import signal
import subprocess
import sys
import time

import pytest

distributed = pytest.importorskip("distributed")  # Debian: python3-distributed
x509 = pytest.importorskip("cryptography.x509")  # Debian: python3-cryptography

from cryptography.hazmat.primitives import hashes, serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID  # noqa: E402
from distributed.security import Security  # noqa: E402

from symshape import distributed as symdist  # noqa: E402

TIMEOUT = 5.0  # connect_timeout of the failing clients; each must fail well within it (+ slack for load)


def _cli():
    cli = os.environ.get("SYMSHAPE_CLI")
    if not cli:
        pytest.skip("SYMSHAPE_CLI not set (ctest sets it)")
    return cli


# ---------------------------------------------------------------------------- certificates

def _name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return str(path)


def _make_ca(d, cn):
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.utcnow()
    cert = (x509.CertificateBuilder().subject_name(_name(cn)).issuer_name(_name(cn)).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                         content_commitment=False, key_encipherment=False, data_encipherment=False,
                                         key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert, _write(d / f"{cn}.pem", cert.public_bytes(serialization.Encoding.PEM))


def _make_leaf(d, cn, ca_key, ca_cert):
    """A certificate for one role, usable as TLS server and client (a worker is both)."""
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.utcnow()
    cert = (x509.CertificateBuilder().subject_name(_name(cn)).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    return _write(d / f"{cn}.pem", cert.public_bytes(serialization.Encoding.PEM)), _write(d / f"{cn}.key", key_pem)


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """The cluster's CA and its scheduler / worker / client certificates; a second CA and a
    'stranger' client certificate it signed."""
    d = tmp_path_factory.mktemp("pki")
    ca_key, ca_cert, ca = _make_ca(d, "symshape-test-ca")
    files = {"ca": ca}
    for role in ("scheduler", "worker", "client"):
        files[role] = _make_leaf(d, role, ca_key, ca_cert)
    other_key, other_cert, files["other_ca"] = _make_ca(d, "other-ca")
    files["stranger"] = _make_leaf(d, "stranger", other_key, other_cert)
    return files


# ---------------------------------------------------------------------------- the cluster

def _stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # its own session: the nanny and its worker processes too
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@contextlib.contextmanager
def _tls_cluster(pki, d, nworkers=2):
    """`dask scheduler` (tls://127.0.0.1, random port) and `dask worker` (`nworkers`
    single-threaded processes under a nanny) with dask's --tls-* options, each run by this
    interpreter in its own session; yields (address, scheduler process, a connected Client)."""
    dask = [sys.executable, "-m", "dask"]
    sched_file = d / "scheduler.json"
    procs, logs = [], []

    def start(name, args):
        log = open(d / f"{name}.log", "wb")
        logs.append(log)
        procs.append(subprocess.Popen(dask + args, stdout=log, stderr=subprocess.STDOUT, cwd=d,
                                      start_new_session=True))
        return procs[-1]

    def fail(why):
        for log in logs:
            log.flush()
        text = "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(d.glob("*.log")))
        pytest.fail(f"{why}\n{text}")

    try:
        sched = start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port", "0", "--protocol", "tls",
                                    "--tls-ca-file", pki["ca"], "--tls-cert", pki["scheduler"][0],
                                    "--tls-key", pki["scheduler"][1], "--dashboard-address", "127.0.0.1:0",
                                    "--scheduler-file", str(sched_file)])
        deadline, address = time.monotonic() + 60, None
        while address is None and sched.poll() is None and time.monotonic() < deadline:
            try:  # the scheduler writes the file in place: it may be there and not complete yet
                address = json.loads(sched_file.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.1)
        if address is None:
            fail("the TLS scheduler did not start")
        assert address.startswith("tls://127.0.0.1:")
        start("worker", ["worker", address, "--tls-ca-file", pki["ca"], "--tls-cert", pki["worker"][0],
                         "--tls-key", pki["worker"][1], "--nworkers", str(nworkers), "--nthreads", "1",
                         "--host", "127.0.0.1", "--no-dashboard", "--local-directory", str(d)])
        with distributed.Client(address, security=symdist.tls_security(pki["ca"], *pki["client"]),
                                timeout=30) as client:
            try:
                client.wait_for_workers(nworkers, timeout=60)
            except (TimeoutError, distributed.TimeoutError):
                fail("the TLS workers did not join")
            yield address, sched, client
    finally:
        for p in reversed(procs):
            _stop(p)
        for log in logs:
            log.close()


@pytest.fixture(scope="module")
def tls_cluster(pki, tmp_path_factory):
    with _tls_cluster(pki, tmp_path_factory.mktemp("cluster")) as (address, _, client):
        yield {"address": address, "security": symdist.tls_security(pki["ca"], *pki["client"]), "client": client}


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    """data/samples and `symshape corpus --no-timing` over it: results.fb and JSON."""
    from conftest import SOURCE_DIR
    path = os.path.join(SOURCE_DIR, "data", "samples")
    d = tmp_path_factory.mktemp("ref")
    ref = {}
    for ext in ("results.fb", "json"):
        out = d / f"ref.{ext}"
        subprocess.run([_cli(), "corpus", path, "--no-timing", "--out", str(out)], check=True, capture_output=True)
        ref[ext] = out.read_bytes()
    return {"path": path, **ref}


# ---------------------------------------------------------------------------- runs through TLS

def test_tls_scheduler_run_equals_one_machine_run(samples, tls_cluster, tmp_path):
    out = tmp_path / "tls.results.fb"
    result = symdist.run_corpus([samples["path"]], client=tls_cluster["address"], security=tls_cluster["security"],
                                shard_size=2, out=out, no_timing=True, progress=False, connect_timeout=30)
    assert result.data == samples["results.fb"] and out.read_bytes() == samples["results.fb"]
    s = result.summary
    assert s["graphs"] == 5 and s["failed"] == 0 and s["shards"] == 3 and s["workers"] == 2
    # a Client passed in is used as is (it carries its own Security) ...
    again = symdist.run_corpus([samples["path"]], client=tls_cluster["client"], shard_size=3, no_timing=True,
                               progress=False)
    assert again.data == samples["results.fb"]
    # ... so a security= beside it would be ignored: an error instead
    with pytest.raises(ValueError, match="used as is"):
        symdist.run_corpus([samples["path"]], client=tls_cluster["client"], security=tls_cluster["security"])
    # a schemeless address with certificates is TLS
    address, _ = symdist.client_address_and_security(tls_cluster["address"][len("tls://"):],
                                                     tls_cluster["security"])
    assert address == tls_cluster["address"]


def _run_cli(args, timeout=120):
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "symshape.distributed", *args], capture_output=True, text=True,
                         timeout=timeout)
    return run, time.monotonic() - start


def test_tls_command_line(samples, tls_cluster, pki, tmp_path):
    out = tmp_path / "cli.json"
    run, _ = _run_cli([samples["path"], "--scheduler", tls_cluster["address"], "--tls-ca-file", pki["ca"],
                       "--tls-cert", pki["client"][0], "--tls-key", pki["client"][1], "--shard-size", "2",
                       "--no-timing", "--out", str(out)])
    assert run.returncode == 0, run.stderr
    last = run.stdout.strip().splitlines()[-1]
    assert last.startswith("distributed: graphs=5 nodes=") and " failed=0 shards=3 workers=2 " in last
    assert out.read_bytes() == samples["json"]
    # misconfigured: exit 1 (2 for a usage error) at once, the option or file named
    no_certs, seconds = _run_cli([samples["path"], "--scheduler", tls_cluster["address"],
                                  "--connect-timeout", str(TIMEOUT)])
    assert no_certs.returncode == 1 and "--tls-ca-file" in no_certs.stderr and seconds < 30
    missing = str(tmp_path / "nowhere-ca.pem")
    run, seconds = _run_cli([samples["path"], "--scheduler", tls_cluster["address"], "--tls-ca-file", missing,
                             "--tls-cert", pki["client"][0], "--tls-key", pki["client"][1]])
    assert run.returncode == 1 and seconds < 30
    assert f"CA file (--tls-ca-file, Security.tls_ca_file) {missing}: no such file" in run.stderr
    run, _ = _run_cli([samples["path"], "--tls-ca-file", pki["ca"], "--tls-cert", pki["client"][0]])
    assert run.returncode == 2 and "need --scheduler" in run.stderr


# ---------------------------------------------------------------------------- misconfigured clients

def _fails(match, exc, address, security, timeout=TIMEOUT):
    start = time.monotonic()
    with pytest.raises(exc, match=match):
        symdist.run_corpus([os.devnull], client=address, security=security, progress=False,
                           connect_timeout=timeout)
    seconds = time.monotonic() - start
    assert seconds < timeout + 10, seconds  # bounded: never a hang
    return seconds


def test_misconfigured_clients_fail_with_the_file_named(tls_cluster, pki, tmp_path):
    address = tls_cluster["address"]
    ca, (cert, key) = pki["ca"], pki["client"]
    # a tls:// address and no certificates (nor dask configuration giving them)
    _fails(r"is TLS: give the CA file .*--tls-ca-file, --tls-cert, --tls-key", ValueError, address, None)
    # a missing file, named with its option
    _fails(r"client certificate \(--tls-cert, Security.tls_client_cert\) .*nowhere.pem: no such file",
           FileNotFoundError, address, symdist.tls_security(ca, tmp_path / "nowhere.pem", key))
    # a key that is not the certificate's
    _fails(r"client certificate .*client.pem and client key .*worker.key: not a PEM certificate and its private key",
           ValueError, address, symdist.tls_security(ca, cert, pki["worker"][1]))
    # no key, and none inside the certificate file
    _fails(r"client certificate .*client.pem holds no private key: give the client key \(--tls-key", ValueError,
           address, symdist.tls_security(ca, cert))
    # a CA file that is no certificate
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    _fails(r"CA file \(--tls-ca-file, Security.tls_ca_file\) .*junk.pem: not a PEM CA certificate", ValueError,
           address, symdist.tls_security(junk, cert, key))
    # the wrong CA: the scheduler's certificate does not verify
    seconds = _fails(r"scheduler's certificate is not signed by the CA in .*other-ca.pem \(--tls-ca-file",
                     ConnectionError, address, symdist.tls_security(pki["other_ca"], cert, key))
    assert seconds < TIMEOUT  # a refused handshake is not retried until the timeout
    # a client certificate from another CA: the scheduler refuses it
    _fails(r"scheduler refused this client's certificate .*stranger.pem \(--tls-cert", ConnectionError, address,
           symdist.tls_security(ca, *pki["stranger"]))
    # certificates with a tcp:// address, and a tcp:// client at a TLS scheduler
    tcp = "tcp://" + address[len("tls://"):]
    _fails(r"not TLS: use tls://127.0.0.1", ValueError, tcp, symdist.tls_security(ca, cert, key))
    seconds = _fails(r"no answer within 2 s .*only tls:// addresses", ConnectionError, tcp, None, timeout=2)
    assert seconds >= 2


def test_a_tls_scheduler_without_workers_is_an_error_not_a_hang(pki):
    """Workers that cannot join (certificates of another CA, a firewall) leave the scheduler
    without workers: the run says so after connect_timeout instead of waiting forever."""
    full = Security(tls_ca_file=pki["ca"], tls_scheduler_cert=pki["scheduler"][0],
                    tls_scheduler_key=pki["scheduler"][1], tls_worker_cert=pki["worker"][0],
                    tls_worker_key=pki["worker"][1], tls_client_cert=pki["client"][0],
                    tls_client_key=pki["client"][1], require_encryption=True)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tls://", host="127.0.0.1",
                                  security=full, dashboard_address="127.0.0.1:0") as cluster:
        seconds = _fails(r"no worker joined the scheduler at tls://127.0.0.1:\d+ within 1.5 s: start workers with "
                         r"`dask worker tls://.* --tls-ca-file CA", ConnectionError, cluster.scheduler_address,
                         symdist.tls_security(pki["ca"], *pki["client"]), timeout=1.5)
        assert seconds >= 1.5


def test_a_lost_scheduler_is_an_error_that_says_how_to_resume(samples, pki, tmp_path):
    """The scheduler SIGKILLed after the first shard came back: the run fails within
    connect_timeout (no hang) saying the scheduler was lost, and the shards that finished are
    kept for a rerun."""
    kept = tmp_path / "shards"
    killed = []

    def kill_the_scheduler(done, total, graphs):
        if not killed:
            os.killpg(sched.pid, signal.SIGKILL)
            killed.append(time.monotonic())

    with _tls_cluster(pki, tmp_path, nworkers=1) as (address, sched, _):
        with pytest.raises(ConnectionError, match=r"lost the Dask scheduler at tls://127.0.0.1:\d+ during the run "
                                                  r".*kept in .*shards: rerun the same command"):
            symdist.run_corpus([samples["path"]], client=address, security=symdist.tls_security(pki["ca"],
                               *pki["client"]), shard_size=1, no_timing=True, shard_dir=kept,
                               progress=kill_the_scheduler, connect_timeout=2)
        assert killed and time.monotonic() - killed[0] < 2 + 15
    assert 1 <= len([f for f in os.listdir(kept) if f.endswith(".results.fb")]) < 5
