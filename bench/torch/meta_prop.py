"""PyTorch 1.13's own meta-tensor execution of the corpus graphs, timed per node: the
reference figure `symshape bench-prop` is compared with (docs/performance in
docs/batch.md). Each graph runs at its first example's input sizes with every placeholder
and parameter a meta tensor (shape, stride and dtype only, no data), node by node through
torch.ops.aten exactly as the golden interpreter (symshape/golden.py) does. Graphs with an
op that has no meta kernel in 1.13 (data-dependent sizes) are listed and left out.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/torch/meta_prop.py ../shared/corpus/visible \
           [--repeat 5] [--symshape build/engine/cli/symshape]
Prints one line per graph (nodes, median us/node) and a total line:
  meta: graphs=G nodes=N us_per_node=X
With --symshape, `symshape bench-prop` then runs on the same graphs in the same run, twice:
symbolic (the spec's dims symbolic, every guard recorded: more than meta execution does) and
`--inputs static` (every size a constant at the same example: what meta execution computes).
The last line is
  compare: symshape_ns_per_node=A symshape_static_ns_per_node=S torch_meta_ns_per_node=B
           speedup=B/A static_speedup=B/S
"""
import argparse
import json
import pathlib
import re
import statistics
import subprocess
import time

import torch

from symshape import golden


def meta_tensor(meta):
    dtype = golden._DTYPE[meta["dtype"]]
    return torch.empty_strided(meta["shape"], meta["stride"], dtype=dtype, device="meta")


def graph_inputs(doc):
    ex = next((e for e in doc["examples"] if e.get("ok")), doc["examples"][0])
    inputs, attrs = {}, {}
    for node in doc["nodes"]:
        if node["op"] == "placeholder":
            meta = dict(node["meta"])
            sizes = ex["inputs"][node["name"]]
            stride, acc = [], 1
            for s in reversed(sizes):
                stride.append(acc)
                acc *= max(s, 1)
            meta.update(shape=sizes, stride=list(reversed(stride)))
            inputs[node["name"]] = meta_tensor(meta)
        elif node["op"] == "get_attr":
            attrs[node["name"]] = meta_tensor(node["meta"])
    return inputs, attrs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--symshape", help="the symshape binary: also run bench-prop on the same graphs")
    args = ap.parse_args()
    total_nodes, total_s, skipped, ran = 0, 0.0, [], []
    for path in sorted(pathlib.Path(args.corpus).glob("*.graph.json")):
        doc = json.loads(path.read_text())
        nodes = len(doc["nodes"])
        times = []
        try:
            for _ in range(args.repeat):
                inputs, attrs = graph_inputs(doc)
                t0 = time.perf_counter()
                with torch.no_grad():
                    golden.run(doc, inputs, attrs)
                times.append(time.perf_counter() - t0)
        except Exception as e:  # noqa: BLE001 - an op without a meta kernel: reported, left out
            skipped.append(f"{path.name}: {type(e).__name__}: {str(e).splitlines()[0][:100]}")
            continue
        ran.append(str(path))
        med = statistics.median(times)
        total_nodes += nodes
        total_s += med
        print(f"{doc.get('name', path.stem)}: nodes={nodes} us_per_node={med / nodes * 1e6:.2f}")
    for s in skipped:
        print(f"skipped {s}")
    print(f"meta: graphs={sum(1 for _ in pathlib.Path(args.corpus).glob('*.graph.json')) - len(skipped)} "
          f"nodes={total_nodes} us_per_node={total_s / max(total_nodes, 1) * 1e6:.2f}")
    if args.symshape and ran:
        def bench(*extra):
            out = subprocess.run([args.symshape, "bench-prop", *extra, *ran], check=True, capture_output=True,
                                 text=True).stdout
            return float(re.search(r"bench-prop: .* ns_per_node=([0-9.]+)", out).group(1))
        ns, static_ns = bench(), bench("--inputs", "static")
        torch_ns = total_s / max(total_nodes, 1) * 1e9
        print(f"compare: symshape_ns_per_node={ns:.1f} symshape_static_ns_per_node={static_ns:.1f} "
              f"torch_meta_ns_per_node={torch_ns:.1f} speedup={torch_ns / ns:.1f} "
              f"static_speedup={torch_ns / static_ns:.1f}")


if __name__ == "__main__":
    main()
