"""Every shape-bad example of a corpus (`"error_kind": "shape"`) is rejected, under both eval
policies and by `conform`, with PyTorch's message: the op the corpus names (`error_node`) and
the corpus's `error` text with the same numbers (docs/torchref.md, "Rejection messages": under
the export policy the exported program's input check may follow as
"; the exported program rejects it first: Expected input at ...").

usage: rejection_messages.py SYMSHAPE CORPUS_DIR WORK_DIR
"""
import glob
import json
import os
import subprocess
import sys

EXPORT_NOTE = "; the exported program rejects it first: Expected input at "


def head(message):
    """(node, PyTorch's text) of an engine message '<node> (<target>): <error>[; note]'."""
    node, _, rest = message.partition(" (")
    _, _, text = rest.partition("): ")
    return node, text.split(EXPORT_NOTE)[0]


def main():
    cli, corpus, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    counts = {"eval export": 0, "eval compile": 0, "conform": 0}
    total = 0
    failures = []
    for path in sorted(glob.glob(os.path.join(corpus, "*.graph.json"))):
        with open(path) as f:
            graph = json.load(f)
        bad = [i for i, e in enumerate(graph.get("examples", [])) if e.get("error_kind") == "shape"]
        if not bad:
            continue
        total += len(bad)
        name = os.path.basename(path)
        nd = os.path.join(work, name + ".examples.ndjson")
        with open(nd, "w") as f:
            f.write(subprocess.run([cli, "examples", path], check=True, capture_output=True, text=True).stdout)
        got = {}
        for policy in ("export", "compile"):
            r = subprocess.run([cli, "eval", path, "--examples", nd, "--policy", policy, "--json"],
                               capture_output=True, text=True)
            out = json.loads(r.stdout.splitlines()[0])
            # `example` is 0-based like the corpus's examples; `line` is its NDJSON line
            for x in out["rejected"]:
                if x["line"] != x["example"] + 1:
                    raise SystemExit(f"{path}: example {x['example']} reported at line {x['line']}")
            got["eval " + policy] = {x["example"]: x["message"] for x in out["rejected"]}
        r = subprocess.run([cli, "conform", "--json", path], capture_output=True, text=True)
        conform = json.loads(r.stdout[: r.stdout.rindex("]") + 1])[0]["examples"]
        got["conform"] = {i: e["detail"] for i, e in enumerate(conform) if not e["engine_accepted"]}
        for i in bad:
            ex = graph["examples"][i]
            want = ex["error"].split(": ", 1)[1] if ex["error"].startswith("RuntimeError: ") else ex["error"]
            for where, messages in got.items():
                message = messages.get(i)
                if message is None:
                    failures.append(f"{where}: {name} example {i}: accepted; PyTorch: {want}")
                    continue
                node, text = head(message)
                if node == ex.get("error_node") and text == want:
                    counts[where] += 1
                else:
                    failures.append(f"{where}: {name} example {i}:\n  engine:  {message}\n  PyTorch: "
                                    f"{ex.get('error_node')}: {want}")
    for line in failures:
        print(line)
    print("rejection_messages: shape_errors={} {}".format(
        total, " ".join(f"{k.replace(' ', '_')}={v}/{total}" for k, v in counts.items())))
    return 1 if failures or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
