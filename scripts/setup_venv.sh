#!/usr/bin/env bash
# The PyTorch 2.x reference environment: a virtual environment made from Debian's
# /usr/bin/python3 (3.11, the interpreter the symshape extension is built for) with
# PyTorch 2.13.0 (CPU) and pytest from PyPI, outside the source tree. The differential
# harness (`python -m symshape.torchref`) and the tests in python/tests_torchref run in it;
# Debian's own python3 keeps PyTorch 1.13 for the 1.13 goldens (python/tests).
# Idempotent: a no-op when the environment already has the pinned versions.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
venv=${SYMSHAPE_VENV:-/opt/symshape-venv}
# Exact pins: a range that admits a newer torch makes pip download a multi-GB CUDA build.
requirements=(torch==2.13.0 numpy==2.4.6 pytest==9.2.0)
if "$venv/bin/python" - "${requirements[@]}" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(any(version(n).split("+")[0] != v for n, v in (r.split("==") for r in sys.argv[1:])))
PY
then
  echo "setup_venv: $venv is ready"
  exit 0
fi
dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed" || {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends python3-venv
}
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q "${requirements[@]}" 2>&1 | grep -v "^WARNING: Location" || true
"$venv/bin/python" -c 'import torch; print("setup_venv: torch", torch.__version__, "in", __import__("sys").prefix)'
