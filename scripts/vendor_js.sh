#!/usr/bin/env bash
# Re-fetch the vendored charting library (Apache ECharts) with `npm pack` and verify it
# against the pinned checksums in third_party/echarts/VERSION. `--check` only verifies
# the files already in third_party/ (no network).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/third_party/echarts"
pin() { sed -n "s/^$1=//p" "$dest/VERSION"; }
version="$(pin version)"
want_tgz="$(pin tarball_sha256)"
want_js="$(pin echarts.min.js_sha256)"

if [[ "${1:-}" != "--check" ]]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "echarts@$version" >/dev/null)
  got_tgz="$(sha256sum "$work/echarts-$version.tgz" | cut -d' ' -f1)"
  if [[ "$got_tgz" != "$want_tgz" ]]; then
    echo "vendor_js: echarts-$version.tgz sha256 $got_tgz != pinned $want_tgz" >&2
    exit 1
  fi
  tar -xzf "$work/echarts-$version.tgz" -C "$work"
  cp "$work/package/dist/echarts.min.js" "$work/package/LICENSE" "$work/package/NOTICE" "$dest/"
fi
got_js="$(sha256sum "$dest/echarts.min.js" | cut -d' ' -f1)"
if [[ "$got_js" != "$want_js" ]]; then
  echo "vendor_js: echarts.min.js sha256 $got_js != pinned $want_js" >&2
  exit 1
fi
echo "vendor_js: echarts $version ok ($got_js)"
