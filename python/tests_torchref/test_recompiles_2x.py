"""`symshape eval --policy compile` against torch.compile itself (PyTorch 2.x, Dynamo).

Each case runs one shape stream through `torch.compile(model, backend=symshape.capture(...))`
(the capture backend counts compiles and records which entry served each call) with
`torch._dynamo.config.recompile_limit = N`, reads the `recompiles` log, and compares with
`symshape eval GRAPH --examples STREAM --policy compile --recompile-limit N --json` on the
graph `symshape.export` makes of the model (torch.export, Dim.AUTO everywhere):
  - the same number of compiles, made by the same calls, in the same order;
  - each call served by the same entry, and the same calls left uncompiled past the limit;
  - for each recompile, the same failing guard of each earlier entry (Dynamo's
    "size mismatch at index d. expected v" is `L['x'].size()[d] == v`; symbolic guards are
    compared after torchref_guard_form's canonical form, sources renamed to input positions).
The same stream is also replayed on the frame graph the capture wrote (`<frame>.graph.json`,
from Dynamo's most dynamic entry) and must give the same compiles."""
import ast
import json
import logging
import os
import re
import subprocess
from pathlib import Path

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import symshape
from symshape.torchref_guard_form import canonical

_SOURCE = Path(os.environ.get("SYMSHAPE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("SYMSHAPE_CLI") or str(_SOURCE / "build" / "engine" / "cli" / "symshape")


# ---- models ---------------------------------------------------------------------------------
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 4))

    def forward(self, x):
        return self.net(x)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 16, 3, stride=2)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.c1(x))), 2)
        x = F.relu(self.c2(x))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))


class Decoder(nn.Module):
    """Causal decoder over token ids, learned positions sliced to the sequence length."""

    def __init__(self, vocab=50, d=32, heads=4, max_len=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(max_len, d))
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab)
        self.h = heads

    def forward(self, ids):
        b, t = ids.shape
        x = self.emb(ids) + self.pos[:t]
        q, k, v = self.qkv(self.ln(x)).chunk(3, dim=-1)
        q = q.view(b, t, self.h, -1).transpose(1, 2)
        k = k.view(b, t, self.h, -1).transpose(1, 2)
        v = v.view(b, t, self.h, -1).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / 8.0
        mask = torch.ones(t, t, dtype=torch.bool, device=ids.device).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, -1)
        return self.head(x + self.proj(y))


class EncDec(nn.Module):
    """Encoder over src features, decoder over tgt features with cross-attention."""

    def __init__(self, d=16):
        super().__init__()
        self.enc = nn.Linear(d, d)
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.out = nn.Linear(d, d)

    def forward(self, src, tgt):
        mem = torch.tanh(self.enc(src))
        k, v = self.kv(mem).chunk(2, dim=-1)
        att = torch.softmax(self.q(tgt) @ k.transpose(1, 2) / 4.0, dim=-1)
        return self.out(att @ v)


class GNN(nn.Module):
    """Message passing over an edge list with index_select / index_add."""

    def __init__(self, f=8):
        super().__init__()
        self.msg = nn.Linear(f, f)
        self.upd = nn.Linear(2 * f, f)

    def forward(self, x, edge_index):
        src, dst = edge_index[0], edge_index[1]
        m = self.msg(x.index_select(0, src))
        agg = torch.zeros_like(x).index_add(0, dst, m)
        return self.upd(torch.cat([x, agg], dim=1))


class LinearLSTM(nn.Module):
    """An LSTM built from nn.Linear cells, unrolled over a fixed number of steps."""

    def __init__(self, f=8, h=16, steps=4):
        super().__init__()
        self.ih = nn.Linear(f, 4 * h)
        self.hh = nn.Linear(h, 4 * h)
        self.steps = steps
        self.hsize = h

    def forward(self, x):  # x: [B, steps, f]
        h = x.new_zeros(x.shape[0], self.hsize)
        c = x.new_zeros(x.shape[0], self.hsize)
        for t in range(self.steps):
            i, f, g, o = (self.ih(x[:, t]) + self.hh(h)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h


class LinearLSTMOverTime(LinearLSTM):
    """The same cell looped over the input's own length (a Python loop over a size)."""

    def forward(self, x):
        h = x.new_zeros(x.shape[0], self.hsize)
        c = x.new_zeros(x.shape[0], self.hsize)
        for t in range(x.shape[1]):
            i, f, g, o = (self.ih(x[:, t]) + self.hh(h)).chunk(4, dim=1)
            c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
            h = torch.sigmoid(o) * torch.tanh(c)
        return h


class Patches(nn.Module):
    """ViT-style patching with view/permute over H//4, W//4 and a class token."""

    def __init__(self, d=24):
        super().__init__()
        self.proj = nn.Linear(3 * 16, d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))

    def forward(self, img):
        b, c, h, w = img.shape
        p = img.view(b, c, h // 4, 4, w // 4, 4).permute(0, 2, 4, 1, 3, 5).reshape(b, (h // 4) * (w // 4), -1)
        x = self.proj(p)
        return torch.cat([self.cls.expand(b, -1, -1), x], dim=1).mean(1)


class Conv1dAudio(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(1, 8, 5, stride=2)
        self.c2 = nn.Conv1d(8, 8, 3, stride=2, padding=1)

    def forward(self, wav):
        return self.c2(F.relu(self.c1(wav))).mean(-1)


class MaskedPool(nn.Module):
    """Features with a padding mask of the same batch and length."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(12, 6)

    def forward(self, x, mask):
        y = self.fc(x) * mask.unsqueeze(-1)
        return y.sum(1) / mask.sum(1, keepdim=True).clamp(min=1)


class EmbedBag(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.fc = nn.Linear(16, 3)

    def forward(self, ids):
        return self.fc(self.emb(ids).mean(1))


# ---- streams --------------------------------------------------------------------------------
def _gnn_inputs(n, e):
    g = torch.Generator().manual_seed(n * 1000 + e)
    return (torch.randn(n, 8), torch.randint(0, n, (2, e), generator=g))


def _ids(b, t):
    return (torch.randint(0, 50, (b, t)),)


# name: (model, list of input tuples, recompile limit, xfail reason or None)
CASES = {
    "mlp_varying_batch": (MLP, [(torch.randn(b, 16),) for b in (4, 4, 8, 16, 1, 32, 1, 5)], 8, None),
    "mlp_batch_0_and_1": (MLP, [(torch.randn(b, 16),) for b in (3, 0, 1, 7, 0, 2)], 8, None),
    "mlp_rank_change": (MLP, [(torch.randn(*s, 16),) for s in ((4,), (5,), (2, 3), (4,), (3, 5))], 8, None),
    "cnn_batch_and_odd_sizes": (CNN, [(torch.randn(*s),) for s in ((2, 3, 32, 32), (2, 3, 32, 32), (4, 3, 32, 32),
                                                                    (4, 3, 48, 40), (1, 3, 33, 31), (3, 3, 17, 64))],
                                8, None),
    "decoder_growing_seq": (Decoder, [_ids(2, t) for t in range(2, 14)], 8, None),
    "decoder_seq_from_1": (Decoder, [_ids(1, t) for t in (1, 2, 3, 4, 5)] + [_ids(3, 5), _ids(1, 9)], 8, None),
    "encdec_src_and_tgt": (EncDec, [(torch.randn(2, s, 16), torch.randn(2, t, 16))
                                    for s, t in ((7, 3), (7, 4), (9, 5), (9, 1), (12, 7), (1, 7))], 8, None),
    "gnn_edge_list": (GNN, [_gnn_inputs(n, e) for n, e in ((10, 30), (10, 30), (12, 30), (12, 41), (5, 1),
                                                            (20, 64))], 8, None),
    "lstm_cells_varying_batch": (LinearLSTM, [(torch.randn(b, 4, 8),) for b in (2, 3, 5, 1, 8)], 8, None),
    "patches_h_w": (Patches, [(torch.randn(2, 3, h, w),) for h, w in ((16, 16), (16, 24), (32, 24), (8, 8),
                                                                        (20, 12))], 8, None),
    "conv1d_odd_lengths": (Conv1dAudio, [(torch.randn(b, 1, n),) for b, n in ((2, 100), (2, 101), (3, 57),
                                                                             (2, 9), (1, 200))], 8, None),
    "masked_pool_two_inputs": (MaskedPool, [(torch.randn(b, t, 12), torch.ones(b, t)) for b, t in
                                            ((2, 5), (2, 7), (3, 7), (4, 9), (1, 9))], 8, None),
    "embed_over_limit": (EmbedBag, [(torch.randint(0, 100, (b, t)),) for b, t in
                                    ((4, 6), (4, 7), (1, 7), (4, 1), (1, 1), (0, 3), (5, 5), (3, 0))], 3, None),
    "lstm_loop_over_length": (LinearLSTMOverTime, [(torch.randn(2, t, 8),) for t in (3, 4, 5, 6, 7, 8)], 4,
                              "a Python loop over x.shape[1] unrolls once per length: Dynamo guards the length "
                              "(`L['x'].size()[1] == 4`, one entry per length), the exported graph is one "
                              "unrolling whose simulation makes the length dynamic instead"),
}


# ---- the two sides --------------------------------------------------------------------------
class _Log(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _run_torch(make, stream, limit, out_dir):
    """compiles (call index of each entry's first call), served (entry per call or None),
    reasons (per recompile: {entry: guard}), the capture."""
    torch._dynamo.reset()
    log = _Log()
    logger = logging.getLogger("torch._dynamo")
    logger.addHandler(log)
    torch._logging.set_logs(recompiles=True)
    old = torch._dynamo.config.recompile_limit
    torch._dynamo.config.recompile_limit = limit
    try:
        torch.manual_seed(0)
        model = make().eval()
        cap = symshape.capture(out_dir)
        mc = torch.compile(model, backend=cap)
        with torch.no_grad():
            for inputs in stream:
                mc(*inputs)
        cap.close()
    finally:
        torch._dynamo.config.recompile_limit = old
        torch._logging.set_logs()
        logger.removeHandler(log)
        torch._dynamo.reset()
    assert len({g.frame for g in cap.graphs}) == 1, "a graph break: one frame per case expected"
    # calls past the limit run eagerly and never reach a wrapper: renumber by position
    order = _positions(cap, stream)
    served = [None] * len(stream)
    compiles = []
    for k, g in enumerate(cap.graphs):
        pos = [order[s] for s, _ in g.calls]
        compiles.append(pos[0])
        for p in pos:
            served[p] = k
    reasons = []
    for m in log.messages:
        if "triggered by the following guard failure" in m:
            reasons.append({int(e): guard.split("  #")[0].strip()
                            for e, guard in re.findall(r"- \d+/(\d+): (.*)", m)})
    return compiles, served, reasons, cap


def _positions(cap, stream):
    """call sequence number -> stream position: the calls the wrappers saw, matched in order
    against the stream by their sizes (eager calls past the limit are skipped)."""
    seen = sorted((s, sizes) for g in cap.graphs for s, sizes in g.calls)
    out, i = {}, 0
    for s, sizes in seen:
        # Dynamo orders a graph's inputs by first use: compare the sizes as a multiset
        while sorted(tuple(t.shape) for t in stream[i] if isinstance(t, torch.Tensor)) != \
                sorted(tuple(x) for x in sizes):
            i += 1
        out[s] = i
        i += 1
    return out


def _eval(graph_path, names, stream, limit, tmp_path, tag):
    """symshape's compiles (first call of each entry), served entry per call (None: not
    compiled), per recompile {earlier entry: failing guard}, and each entry's guards."""
    ex = tmp_path / f"{tag}.ndjson"
    ex.write_text("".join(json.dumps(dict(zip(names, [list(t.shape) for t in inputs]))) + "\n" for inputs in stream))
    r = subprocess.run([CLI, "eval", str(graph_path), "--examples", str(ex), "--policy", "compile",
                        "--recompile-limit", str(limit), "--json"], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stdout + r.stderr
    js = json.loads(r.stdout.splitlines()[0])
    assert js["rejected"] == [], f"symshape rejected calls: {js['rejected']}"
    compiles = [s["first_example"] for s in js["specializations"]]
    served = [v if v >= 0 else None for v in js["verdicts"]]
    # triggered_by follows Dynamo's cache entry list (most recently used first);
    # triggered_entries names the entry of each line
    reasons = [dict(zip(s["triggered_entries"], s["triggered_by"])) for s in js["specializations"][1:]]
    return compiles, served, reasons, [s["guards"] for s in js["specializations"]]


class _Sizes:
    """What a guard line reads of an input: sizes, contiguous strides, offset 0."""

    def __init__(self, shape):
        self.shape = list(shape)

    def size(self):
        return self.shape

    def stride(self):
        out, acc = [], 1
        for d in reversed(self.shape):
            out.append(acc)
            acc *= max(d, 1)
        return out[::-1]

    def storage_offset(self):
        return 0


def _failing(guards, names, inputs):
    """The guard lines of one entry that are false at the call's sizes."""
    env = {"L": {n: _Sizes(t.shape) for n, t in zip(names, inputs)}, "Max": max, "Min": min}
    out = []
    for g in guards:
        try:
            ok = eval(g, env)  # noqa: S307 - guard text the engine printed, Python syntax by contract
        except IndexError:  # a size the input (of another rank) does not have
            ok = False
        if not ok:
            out.append(g)
    return out


def _canon(guard, names):
    """One guard of either side in one form: sources by input position."""
    m = re.fullmatch(r"tensor '(.+)' (size|stride) mismatch at index (\d+)\. expected (\d+), actual \d+", guard)
    if m:
        src = m.group(1) if "[" in m.group(1) else f"L['{m.group(1)}']"
        guard = f"{src}.{m.group(2)}()[{m.group(3)}] == {m.group(4)}"
    if re.fullmatch(r"tensor '.+' rank mismatch\. expected \d+, actual \d+", guard) or \
            guard == "input rank differs from the traced one":
        return "rank"
    guard = re.sub(r"L\['args'\]\[(\d+)\]|\bargs\[(\d+)\]", lambda k: f"L['in{k.group(1) or k.group(2)}']", guard)
    for i, n in enumerate(names):
        guard = guard.replace(f"L['{n}']", f"L['in{i}']")
        guard = re.sub(rf"(?<![\w'])({n})(?=\.(?:size|stride|storage_offset)\()", f"L['in{i}']", guard)
    return canonical(_unchain(guard))


def _unchain(guard):
    """`a <= b <= c` (Dynamo's printing of a range) -> `a <= b and b <= c` (symshape's)."""
    try:
        tree = ast.parse(guard, mode="eval").body
    except SyntaxError:
        return guard
    if not isinstance(tree, ast.Compare) or len(tree.ops) < 2:
        return guard
    terms = [tree.left] + tree.comparators
    parts = [ast.Compare(left=terms[i], ops=[op], comparators=[terms[i + 1]]) for i, op in enumerate(tree.ops)]
    return ast.unparse(ast.BoolOp(op=ast.And(), values=parts))


def _placeholders(path):
    return [n["name"] for n in json.loads(Path(path).read_text())["nodes"] if n["op"] == "placeholder"
            and not n["name"].startswith("_")]


@pytest.mark.skipif(not Path(CLI).exists(), reason="no symshape CLI (SYMSHAPE_CLI)")
@pytest.mark.parametrize("case", list(CASES))
def test_recompiles_match_torch_compile(case, tmp_path):
    make, stream, limit, xfail = CASES[case]
    t_compiles, t_served, t_reasons, cap = _run_torch(make, stream, limit, tmp_path / "capture")

    # the graph symshape exports for the model, at the first call without a size 0 or 1 in a
    # dim that varies over the stream (torch.export would specialise it)
    def general(inp):
        return all(d >= 2 or all(o[a].dim() == t.dim() and o[a].shape[k] == d for o in stream)
                   for a, t in enumerate(inp) for k, d in enumerate(t.shape))
    first = next(inp for inp in stream if general(inp))
    torch.manual_seed(0)
    graph = tmp_path / f"{case}.graph.json"
    symshape.export(make().eval(), first, path=str(graph))
    names = _placeholders(graph)

    try:
        s_compiles, s_served, s_reasons, s_guards = _eval(graph, names, stream, limit, tmp_path, "export")
        assert s_compiles == t_compiles, f"compiles: symshape {s_compiles}, torch.compile {t_compiles}"
        uncompiled = [i for i, v in enumerate(t_served) if v is None]
        assert [i for i, v in enumerate(s_served) if v is None] == uncompiled, \
            f"served: symshape {s_served}, torch.compile {t_served}"
        # Dynamo looks entries up most recently used first (extra_state.cpp lookup,
        # move_to_front), and so does symshape's compile policy: the same entry serves each call
        assert s_served == t_served, f"served: symshape {s_served}, torch.compile {t_served}"
        # Dynamo logs the reasons also for the call that finds the cache full (then runs it
        # eagerly): those calls are the uncompiled ones
        assert len(s_reasons) == len(t_compiles) - 1 and len(t_reasons) - len(s_reasons) <= len(uncompiled)
        for r, (mine, theirs) in enumerate(zip(s_reasons, t_reasons)):
            call = t_compiles[r + 1]
            assert sorted(mine) == sorted(theirs), f"recompile {r + 1}: symshape {mine}, torch {theirs}"
            for j in mine:
                # when several guards of entry j fail, Dynamo names the first in its guard
                # manager's order (inputs' TENSOR_MATCH by accessor, dims in order, then the
                # symbolic guards in produce_guards order); symshape names the same one
                assert _canon(mine[j], names) == _canon(theirs[j], names), \
                    f"recompile {r + 1}, entry {j}: symshape {mine[j]!r}, torch {theirs[j]!r}; " \
                    f"failing here {[_canon(g, names) for g in _failing(s_guards[j], names, stream[call])]}"
        # the capture's own frame graph replays the same compiles
        frame = cap.graphs[0].frame
        fg = tmp_path / "capture" / f"{frame}.graph.json"
        if fg.exists():
            c_compiles, c_served, _, _ = _eval(fg, names, stream, limit, tmp_path, "capture")
            assert c_compiles == t_compiles, f"capture graph: compiles {c_compiles}; torch.compile {t_compiles}"
    except AssertionError:
        if xfail:
            pytest.xfail(xfail)
        raise
    if xfail:
        pytest.fail(f"known difference no longer differs: {xfail}")
