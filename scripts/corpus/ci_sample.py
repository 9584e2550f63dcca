"""CI's fixed sample of the model corpus (docs/corpus.md, "Where the corpus lives, and a CI sample").

    python scripts/corpus/ci_sample.py OUT_DIR [--jobs 2] [--cli build/engine/cli/symshape]

Builds the models of scripts/corpus/ci_sample.txt with symshape.corpus_build into OUT_DIR (a
resumed OUT_DIR rebuilds nothing), then runs `symshape conform` over its graphs and fails
unless: at least 100 graphs were built, no example is unsound, and at least 98% of the graphs
are fully supported and exact (every verdict PyTorch's; value errors included). Run it with
the models venv (torch 2.x, timm, transformers, torchvision, torch_geometric)."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cli", default=None)
    ap.add_argument("--min-graphs", type=int, default=100)
    ap.add_argument("--min-exact", type=float, default=98.0)
    args = ap.parse_args()
    from symshape import corpus_build
    cli = corpus_build._find_cli(args.cli)
    corpus_build.main([args.out, "--models", "@" + os.path.join(HERE, "ci_sample.txt"), "--jobs", str(args.jobs),
                       "--timeout", "300", "--no-pack", "--cli", cli])
    r = subprocess.run([cli, "conform", "--json", os.path.join(args.out, "graphs")], capture_output=True, text=True)
    doc, end = json.JSONDecoder().raw_decode(r.stdout.lstrip())
    line = next((x for x in (r.stdout + r.stderr).splitlines() if x.startswith("conform:")), "")
    print(line)
    ok_outcomes = ("correct", "value_error")
    exact = [g for g in doc if not g["unsupported"] and all(e["outcome"] in ok_outcomes for e in g["examples"])]
    unsound = [(g["graph"], e["detail"]) for g in doc for e in g["examples"] if e["outcome"] == "unsound"]
    pct = 100.0 * len(exact) / max(1, len(doc))
    print(f"ci_sample: graphs={len(doc)} exact={len(exact)} ({pct:.1f}%) unsound={len(unsound)}")
    for g in doc:
        if g not in exact:
            bad = next((e for e in g["examples"] if e["outcome"] not in ok_outcomes), None)
            print(f"  not exact: {g['graph']}: " + ("unsupported" if g["unsupported"] else
                                                     f"{bad['outcome']}: {bad['detail'][:200]}"))
    failures = []
    if len(doc) < args.min_graphs:
        failures.append(f"{len(doc)} graphs < {args.min_graphs}")
    if unsound:
        failures.append(f"unsound examples: {unsound[:5]}")
    if pct < args.min_exact:
        failures.append(f"{pct:.1f}% exact < {args.min_exact}%")
    for f in failures:
        print("ci_sample: FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
