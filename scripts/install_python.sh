#!/usr/bin/env bash
# Makes `import symshape` work for Debian's /usr/bin/python3: builds the extension in
# build/ if needed and copies the package (python/symshape/*.py + _symshape*.so, as laid
# out in build/python/symshape) into python3's site directory under /usr/local, which
# Debian's python3 searches and pip/apt leave alone (no externally-managed conflict).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
cd "$(dirname "$0")/.."
py=/usr/bin/python3
build=${SYMSHAPE_BUILD_DIR:-build}
if ! ls "$build"/python/symshape/_symshape*.so >/dev/null 2>&1; then
  cmake --build "$build" --target _symshape -j "${SYMSHAPE_JOBS:-2}"
fi
dest=${SYMSHAPE_PYTHON_SITE:-$("$py" -c "import site; print(site.getsitepackages()[0])")}  # /usr/local/lib/python3.11/dist-packages
if ! mkdir -p "$dest/symshape" 2>/dev/null || [ ! -w "$dest/symshape" ]; then
  echo "install_python: $dest is not writable; use PYTHONPATH=$PWD/$build/python instead" >&2
  exit 1
fi
rm -f "$dest"/symshape/*.py "$dest"/symshape/_symshape*.so
cp "$build"/python/symshape/*.py "$build"/python/symshape/_symshape*.so "$dest/symshape/"
(cd / && PYTHONPATH=${SYMSHAPE_PYTHON_SITE:+$dest} "$py" -c 'import symshape; print("install_python: symshape installed in", symshape.__path__[0])')
