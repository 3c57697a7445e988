"""`--help` and `list` never import the heavy libraries; completion offers claim ids."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PROBE = """
import sys
sys.argv = ["tmath", *{args!r}]
from tmath.cli import app
try:
    app(prog_name="tmath")
except SystemExit:
    pass
heavy = sorted(m for m in ("sympy", "numpy", "scipy") if m in sys.modules)
sys.stderr.write("HEAVY=" + ",".join(heavy) + "\\n")
"""


def heavy_modules(*args: str) -> list[str]:
    env = {**os.environ}
    subprocess.run([sys.executable, "-m", "tmath", "list"], capture_output=True, env=env)  # warm index
    result = subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))],
                            capture_output=True, text=True, env=env, timeout=120)
    line = [l for l in result.stderr.splitlines() if l.startswith("HEAVY=")][-1]
    return [m for m in line[len("HEAVY="):].split(",") if m]


@pytest.mark.parametrize("args", [("--help",), ("list",), ("list", "--format", "json"),
                                  ("verify", "--help"), ("verify", "--seed", "x")])
def test_no_heavy_imports(args):
    assert heavy_modules(*args) == []


def test_a_fully_cached_verify_imports_no_engine():
    for command in ("verify", "explain"):
        subprocess.run([sys.executable, "-m", "tmath", command, "softmax-temperature"],
                       capture_output=True, env={**os.environ}, timeout=300)
        assert heavy_modules(command, "softmax-temperature") == []


def test_completion_offers_claim_ids():
    env = {**os.environ, "_TMATH_COMPLETE": "complete_bash", "COMP_WORDS": "tmath explain softmax-t",
           "COMP_CWORD": "2"}
    result = subprocess.run([sys.executable, "-m", "tmath"], capture_output=True, text=True,
                            env=env, timeout=120)
    assert "softmax-temperature" in result.stdout


def test_list_json_from_the_index_matches_a_fresh_import(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    cold = subprocess.run([sys.executable, "-m", "tmath", "list", "-f", "json"],
                          capture_output=True, text=True, env=env)
    warm = subprocess.run([sys.executable, "-m", "tmath", "list", "-f", "json"],
                          capture_output=True, text=True, env=env)
    assert json.loads(cold.stdout) == json.loads(warm.stdout)


LIGHT_PROBE = """
import sys
sys.argv = ["tmath", "list"]
from tmath.cli import main
try:
    main()
except SystemExit:
    pass
built = sorted(m for m in ("tmath.engine.model", "tmath.engine.info", "tmath.engine.registry")
               if m in sys.modules)
sys.stderr.write("BUILT=" + ",".join(built) + "\\n")
"""


def test_list_from_its_stored_rows_builds_no_claim_class(tmp_path):
    """Once its rows are stored, `tmath list` reads them without the claim classes, the index
    records or the registry (what kept it 16 % above a bare typer app)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "tmath", "list"], capture_output=True, env=env)
    result = subprocess.run([sys.executable, "-c", LIGHT_PROBE], capture_output=True,
                            text=True, env=env, timeout=120)
    assert "dk-scaling-conjecture" in result.stdout
    assert [l for l in result.stderr.splitlines() if l.startswith("BUILT=")] == ["BUILT="]


def test_the_public_names_are_imported_on_first_use():
    probe = ("import sys, tmath; before = 'tmath.engine.model' in sys.modules; "
             "from tmath import claim, Source; import tmath.engine.model as m; "
             "print(before, claim is m.claim, Source is m.Source, 'Foil' in dir(tmath))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert result.stdout.split() == ["False", "True", "True", "True"]
