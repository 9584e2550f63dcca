#!/usr/bin/env bash
# Renders a report of CORPUS in headless Chromium: `symshape corpus --out results.json`,
# `symshape report results.json --examples-dir CORPUS`, then the page in its #selftest
# mode (every graph section rendered; the page writes its self-check into #selfcheck).
# Fails on any JavaScript console message or error, on a chart that did not draw, on a
# missing screenshot, and when the page's numbers differ from results.json
# (report_dom_check). Exit 77 (ctest SKIP) only when chromium is not installed.
set -uo pipefail
cli="$1" corpus="$2" work="$3" domcheck="$4"
chromium="$(command -v chromium || command -v chromium-browser || true)"
if [[ -z "$chromium" ]]; then echo "report_browser_test: chromium not installed, skipping"; exit 77; fi
mkdir -p "$work"
fail() { echo "report_browser_test: FAIL: $*" >&2; exit 1; }

"$cli" corpus "$corpus" --out "$work/results.json" >/dev/null || fail "symshape corpus"
"$cli" report "$work/results.json" --examples-dir "$corpus" -o "$work/report.html" || fail "symshape report"

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
browser=("$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run
  --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile"
  --hide-scrollbars --virtual-time-budget=20000)
timeout 120 "${browser[@]}" --enable-logging=stderr --v=0 --dump-dom "file://$work/report.html#selftest" \
  >"$work/dom.html" 2>"$work/chromium.log" || fail "chromium --dump-dom (see $work/chromium.log)"

# Page console output reaches chromium's log as CONSOLE lines; the page logs nothing itself.
if grep -q "CONSOLE" "$work/chromium.log"; then grep "CONSOLE" "$work/chromium.log" >&2; fail "JavaScript console output"; fi
check="$(grep -o '<div id="selfcheck"[^>]*>[^<]*' "$work/dom.html")" || fail "no #selfcheck in the page"
echo "$check"
[[ "$check" == *'data-status="ok"'* ]] || fail "page self-check: $check"
sections="$(sed -n 's/.*data-sections="\([0-9]*\)".*/\1/p' <<<"$check")"
charts="$(sed -n 's/.*data-charts="\([0-9]*\)".*/\1/p' <<<"$check")"
rows="$(grep -o '<tr data-graph=' "$work/dom.html" | wc -l)"
[[ "$sections" == "$rows" && "$rows" -gt 0 ]] || fail "sections=$sections rows=$rows"
[[ "$charts" -ge $((rows + 2)) ]] || fail "only $charts charts for $rows graphs"
# every visible graph's own examples give a spec that `symshape dynamism` verified
suggested="$(grep -o 'dynamic_shapes suggested by symshape dynamism (verified by spec check)' "$work/dom.html" | wc -l)"
[[ "$suggested" == "$rows" ]] || fail "verified suggested specs shown for $suggested of $rows graphs"

"$domcheck" "$work/results.json" "$work/dom.html" || fail "page numbers differ from results.json"

timeout 120 "${browser[@]}" --window-size=1400,1500 --screenshot="$work/report.png" "file://$work/report.html" \
  >/dev/null 2>&1 || fail "chromium --screenshot"
[[ -s "$work/report.png" && "$(stat -c %s "$work/report.png")" -gt 20000 ]] || fail "screenshot missing or blank"
echo "report_browser_test: ok ($rows graphs, $charts charts; screenshot $work/report.png)"
