#!/usr/bin/env bash
# `symshape report` on bad input: a malformed results file is named in the error and no
# page is written (an existing one is left as it was); graph paths with one broken graph
# still give a page of every graph, the broken one with its failure, and exit status 1.
set -uo pipefail
cli="$1" samples="$2" work="$3"
fail() { echo "report_cli_errors_test: FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/graphs"

echo '{"format": "symshape-results", "graphs": [' >"$work/bad.json"
echo "previous page" >"$work/out.html"
if "$cli" report "$work/bad.json" -o "$work/out.html" 2>"$work/err.txt"; then fail "malformed results accepted"; fi
grep -q "bad.json" "$work/err.txt" || fail "error does not name the file: $(cat "$work/err.txt")"
[[ "$(cat "$work/out.html")" == "previous page" ]] || fail "output overwritten after an error"

cp "$samples"/*.graph.json "$work/graphs/"
echo '{"not": "a graph"}' >"$work/graphs/broken.graph.json"
if "$cli" report "$work/graphs" -o "$work/page.html" >"$work/out.txt" 2>"$work/err2.txt"; then fail "broken graph not reported in the exit status"; fi
grep -q "broken.graph.json" "$work/err2.txt" || fail "error does not name the broken file: $(cat "$work/err2.txt")"
n_samples=$(ls "$samples"/*.graph.json | wc -l)
grep -q "report: graphs=$((n_samples + 1)) failed=1 " "$work/out.txt" || fail "unexpected summary: $(cat "$work/out.txt")"
grep -q '"status":"load_error"' "$work/page.html" || fail "the broken graph's failure is not in the page"
grep -q '<script type="application/json" id="report-data">' "$work/page.html" || fail "page lacks its data block"
! grep -q 'src="http' "$work/page.html" || fail "page loads a script from the network"
echo "report_cli_errors_test: ok"
