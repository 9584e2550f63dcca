"""The package's lazily loaded attributes (`symshape.exporter`, `symshape.ExportError`,
`symshape.capture`) resolve in a fresh interpreter in any order; reading `exporter` first
once recursed without end through the module's __getattr__."""
import os
import subprocess
import sys

import pytest

ORDERS = [
    "symshape.exporter.__name__; symshape.ExportError",
    "symshape.ExportError; symshape.exporter.__name__",
    "symshape.capture; symshape.exporter.export",
]


@pytest.mark.parametrize("expr", ORDERS)
def test_lazy_attributes_resolve_in_a_fresh_interpreter(expr):
    code = "import symshape\n" + "\n".join(f"assert {e.strip()} is not None" for e in expr.split(";"))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=os.environ)
    assert r.returncode == 0, r.stderr[-2000:]
