"""Per-call overhead of symshape.capture against a plain counting torch.compile backend.

    PYTHONPATH=build/python /opt/symshape-venv/bin/python bench/torch/capture_overhead.py [--calls N]

Both backends return the Dynamo graph's own forward; the capture backend's compiled callable
also appends the call's input sizes (kept in memory until close()). The same model and the
same shape stream (3 batch sizes, after warm-up every call hits a compiled entry) run under
each backend, alternating, several rounds; the figure is the median per-call time difference.
Also reported: the one-off cost of recording a graph (make_fx + conversion) per compile."""
import argparse
import statistics
import tempfile
import time

import torch

import symshape


def counting_backend():
    n = [0]

    def backend(gm, example_inputs):
        n[0] += 1
        return gm.forward
    backend.count = n
    return backend


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=3000)
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    xs = [torch.randn(b, 16) for b in (4, 5, 6)]
    per_call = {"counting": [], "capture": []}
    compile_s = []
    with torch.no_grad():
        for r in range(args.rounds):
            for kind in ("counting", "capture"):
                torch._dynamo.reset()
                cap = symshape.capture(tempfile.mkdtemp(prefix="capbench-")) if kind == "capture" else None
                mc = torch.compile(model, backend=cap if cap is not None else counting_backend())
                for x in xs:  # warm-up: both compiles (static, then dynamic batch)
                    mc(x)
                t0 = time.perf_counter()
                for i in range(args.calls):
                    mc(xs[i % 3])
                per_call[kind].append((time.perf_counter() - t0) / args.calls * 1e6)
                if cap is not None:
                    compile_s.append(cap.capture_seconds / len(cap.graphs) * 1e3)
                    t0 = time.perf_counter()
                    cap.close()
                    close_ms = (time.perf_counter() - t0) * 1e3
    # the wrapper alone, without Dynamo's guard evaluation around it: a no-op compiled fn
    from symshape.capture import Capture, _Graph
    c = Capture(tempfile.mkdtemp(prefix="capbench-"))
    rec = _Graph(0, "0/0", None)
    rec.positions = (2,)
    w1, w2, x = torch.randn(16, 16), torch.randn(16), xs[0]

    def noop(*a):
        return a
    wrapped = c._wrap(noop, rec)
    alone = []
    for _ in range(args.rounds):
        for fn, out in ((noop, None), (wrapped, alone)):
            t0 = time.perf_counter()
            for _ in range(100000):
                fn(w1, w2, x)
            dt = (time.perf_counter() - t0) / 100000 * 1e6
            if out is None:
                ref = dt
            else:
                out.append(dt - ref)
        rec.calls.clear()
    base, cap_us = statistics.median(per_call["counting"]), statistics.median(per_call["capture"])
    diffs = [c - b for b, c in zip(per_call["counting"], per_call["capture"])]
    print(f"torch {torch.__version__}, {args.calls} calls x {args.rounds} rounds, model {sum(p.numel() for p in model.parameters())} params")
    print(f"counting backend: {base:.2f} us/call (median); runs {['%.2f' % v for v in per_call['counting']]}")
    print(f"capture backend:  {cap_us:.2f} us/call (median); runs {['%.2f' % v for v in per_call['capture']]}")
    print(f"capture_overhead: per_call_us={statistics.median(diffs):.2f} "
          f"(paired differences {['%.2f' % d for d in diffs]}) record_ms_per_graph={statistics.median(compile_s):.1f} "
          f"close_ms={close_ms:.1f} wrapper_alone_us={statistics.median(alone):.2f}")


if __name__ == "__main__":
    main()
