#!/usr/bin/env bash
# Scale figures of the corpus engine on a built corpus (docs/corpus.md, "Scale"):
#   scripts/corpus/scale.sh OUT_DIR [SYMSHAPE_CLI]
# OUT_DIR is a symshape.corpus_build output (graphs/). Prints, for `symshape corpus` over the
# packed corpus: nodes/s on 1 and 2 threads (best of 3), peak RSS, results file size; that the
# merge of two disjoint shards' results equals one run over both shards byte for byte; and
# the same for the Dask path (a local cluster of 2 workers).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../debian_path.sh"
out=$1
cli=${2:-build/engine/cli/symshape}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# two shards: the graphs in sorted order, alternating
mkdir -p "$tmp/a" "$tmp/b"
i=0
for g in $(ls "$out/graphs" | sort); do
  if [ $((i % 2)) -eq 0 ]; then ln -s "$(realpath "$out/graphs/$g")" "$tmp/a/$g"; else ln -s "$(realpath "$out/graphs/$g")" "$tmp/b/$g"; fi
  i=$((i + 1))
done
"$cli" pack "$tmp/a" -o "$tmp/a.corpus.fb" >/dev/null
"$cli" pack "$tmp/b" -o "$tmp/b.corpus.fb" >/dev/null
echo "corpus: $i graphs, packed $(( ($(stat -c %s "$tmp/a.corpus.fb") + $(stat -c %s "$tmp/b.corpus.fb")) / 1048576 )) MB"

for t in 1 2; do
  best=""
  for rep in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$tmp/time" "$cli" corpus "$tmp/a.corpus.fb" "$tmp/b.corpus.fb" --threads "$t" \
      --out "$tmp/one.$t.fb" --no-timing >"$tmp/line" 2>&1 || true  # exit 1 when a graph fails (reported in the results)
    line=$(grep '^corpus:' "$tmp/line")
    nps=$(sed -n 's/.*nodes_per_s=\([0-9]*\).*/\1/p' <<<"$line")
    if [ -z "$best" ] || [ "$nps" -gt "$best" ]; then best=$nps; bestline=$line; rss=$(tail -1 "$tmp/time" | cut -d' ' -f2); wall=$(tail -1 "$tmp/time" | cut -d' ' -f1); fi
  done
  echo "threads=$t: $bestline"
  echo "threads=$t: best nodes/s $best, process wall ${wall}s (load included), peak RSS $((rss / 1024)) MB"
  eval "nps_$t=$best"
done
echo "speedup 2 threads / 1 thread: $(python3 -c "print(f'{$nps_2 / $nps_1:.2f}x')")"
"$cli" corpus "$tmp/a.corpus.fb" "$tmp/b.corpus.fb" --out "$tmp/one.json" --no-timing >/dev/null || true
echo "results: $(stat -c %s "$tmp/one.2.fb") bytes results.fb, $(stat -c %s "$tmp/one.json") bytes JSON"
cmp -s "$tmp/one.1.fb" "$tmp/one.2.fb" && echo "1 and 2 threads: identical results" || { echo "1 and 2 threads differ" >&2; exit 1; }

"$cli" corpus "$tmp/a.corpus.fb" --out "$tmp/ra.fb" --no-timing >/dev/null || true
"$cli" corpus "$tmp/b.corpus.fb" --out "$tmp/rb.fb" --no-timing >/dev/null || true
"$cli" merge "$tmp/ra.fb" "$tmp/rb.fb" -o "$tmp/merged.fb" --no-timing >/dev/null
cmp -s "$tmp/merged.fb" "$tmp/one.1.fb" && echo "merge of the 2 shards' results == one run: identical bytes" ||
  { echo "merge differs from one run" >&2; exit 1; }

if python3 -c "import distributed" 2>/dev/null; then
  start=$SECONDS
  PYTHONPATH="$(dirname "$cli")/../../python" python3 -m symshape.distributed "$tmp/a.corpus.fb" "$tmp/b.corpus.fb" \
    --workers 2 --out "$tmp/dask.fb" --no-timing 2>&1 | grep '^distributed:' || true
  cmp -s "$tmp/dask.fb" "$tmp/one.1.fb" && echo "dask (local cluster, 2 workers, $((SECONDS - start)) s with startup): identical bytes" ||
    { echo "dask results differ from one run" >&2; exit 1; }
fi
