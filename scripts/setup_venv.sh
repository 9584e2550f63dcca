#!/usr/bin/env bash
# The PyTorch 2.x reference environments, both virtual environments made from Debian's
# /usr/bin/python3 (3.11, the interpreter the symshape extension is built for), outside the
# source tree. Debian's own python3 keeps PyTorch 1.13 for the 1.13 goldens (python/tests).
#  - /opt/symshape-venv: PyTorch 2.13.0 (CPU) and pytest from PyPI. The differential harness
#    (`python -m symshape.torchref`) and the tests in python/tests_torchref run in it.
#  - /opt/symshape-models-venv: the model libraries (timm, transformers, torch_geometric) for
#    python/tests_torchref/test_models_2x.py. timm imports torchvision at import time, and no
#    torchvision on the package index loads beside torch 2.13.0+cpu (PyPI's 0.28.0 is built
#    against the CUDA torch 2.13.0: its _C.so needs libc10_cuda.so, so `import torchvision`
#    fails with "operator torchvision::nms does not exist"). So this one pins the newest pair
#    that loads together: torch 2.14.1 (PyPI's CUDA build, runs on CPU) + torchvision 0.29.1.
#    About 5.7 GB, ~90 s to install from the local index on this machine.
# Idempotent: a no-op for each environment that already has its pinned versions.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/debian_path.sh"
venv=${SYMSHAPE_VENV:-/opt/symshape-venv}
models_venv=${SYMSHAPE_MODELS_VENV:-/opt/symshape-models-venv}
# Exact pins: a range that admits a newer torch makes pip download a multi-GB CUDA build.
requirements=(torch==2.13.0 numpy==2.4.6 pytest==9.2.0)
models_requirements=(torch==2.14.1 torchvision==0.29.1 numpy==2.4.6 pytest==9.2.0 timm==1.0.29
                     transformers==5.18.0 torch_geometric==2.8.0.post1)

ready() {  # ready VENV PIN...: every pinned distribution installed at its version
  local v=$1; shift
  "$v/bin/python" - "$@" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(any(version(n).split("+")[0] != v for n, v in (r.split("==") for r in sys.argv[1:])))
PY
}

setup() {  # setup VENV PIN...
  local v=$1; shift
  if ready "$v" "$@"; then
    echo "setup_venv: $v is ready"
    return 0
  fi
  dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed" || {
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends python3-venv
  }
  [ -x "$v/bin/python" ] || /usr/bin/python3 -m venv "$v"
  "$v/bin/python" -m pip install -q "$@" 2>&1 | grep -v "^WARNING: Location" || true
  "$v/bin/python" -c 'import torch; print("setup_venv: torch", torch.__version__, "in", __import__("sys").prefix)'
}

setup "$venv" "${requirements[@]}"
setup "$models_venv" "${models_requirements[@]}"
