"""PyTorch 2.x's symbolic propagation of the corpus graphs, timed per node, against
`symshape bench-prop` in the same run: FakeTensorMode with a ShapeEnv, inputs symbolic on
the spec's dims as torch.export makes them (symshape.torchref_prop), every node through
torch.ops.aten by torch.fx.Interpreter. Each timed run makes a fresh ShapeEnv and fake
inputs (as every export or FakeTensorProp does), so guards are recorded anew each time;
building the GraphModule is done once, outside the timing. Graphs PyTorch cannot
propagate symbolically are listed and left out of both sides' totals.

usage: PYTHONPATH=build/python /opt/symshape-venv/bin/python bench/torch/fake_prop.py \\
           ../shared/corpus/visible --symshape build/engine/cli/symshape [--repeat 3]
Last line:
  compare: symshape_ns_per_node=A torch_fake_ns_per_node=B speedup=B/A
"""
import argparse
import json
import pathlib
import re
import statistics
import subprocess
import time

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.symbolic_shapes import ShapeEnv

from symshape import torchref_prop
from symshape.torchref_graph import to_graph_module


def time_graph(doc, repeat):
    """Median seconds of one symbolic propagation of the graph at its first accepted example."""
    example = next(ex for ex in doc["examples"] if ex.get("ok"))
    gm, placeholders = to_graph_module(doc)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        shape_env = ShapeEnv()
        mode = FakeTensorMode(shape_env=shape_env, allow_non_fake_inputs=True)
        inputs = torchref_prop._fake_inputs(shape_env, mode, placeholders, doc.get("dynamic_shapes"),
                                            example["inputs"])
        with mode:
            torch.fx.Interpreter(gm).run(*inputs)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--symshape")
    a = ap.parse_args()
    files = sorted(pathlib.Path(a.corpus).glob("*.graph.json"))
    total_s, total_nodes, used = 0.0, 0, []
    for f in files:
        doc = json.loads(f.read_text())
        nodes = sum(1 for n in doc["nodes"] if n["op"] != "output")
        try:
            s = time_graph(doc, a.repeat)
        except Exception as e:  # noqa: BLE001 - PyTorch cannot propagate it symbolically
            print(f"{doc['name']}: left out ({type(e).__name__}: {str(e).splitlines()[0][:100]})")
            continue
        used.append(str(f))
        total_s += s
        total_nodes += nodes
        print(f"{doc['name']}: nodes={nodes} us_per_node={s / nodes * 1e6:.1f}")
    torch_ns = total_s / total_nodes * 1e9
    print(f"fake: graphs={len(used)} nodes={total_nodes} us_per_node={torch_ns / 1000:.1f}")
    if a.symshape:
        out = subprocess.run([a.symshape, "bench-prop", *used], capture_output=True, text=True, check=True).stdout
        ours = float(re.search(r"ns_per_node=([0-9.]+)", out.strip().splitlines()[-1]).group(1))
        print(f"compare: symshape_ns_per_node={ours:.0f} torch_fake_ns_per_node={torch_ns:.0f} "
              f"speedup={torch_ns / ours:.0f}")


if __name__ == "__main__":
    main()
