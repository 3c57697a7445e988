"""Claims imported inside the workers: from a fresh index the parent imports no claims module
(and neither SymPy nor NumPy); a worker imports what its tasks need, and a claims file that
changes between the start of the run and the worker's import makes that claim an error."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import die_claim
from tmath.engine import session, worker_claims
from tmath.engine.registry import catalog
from tmath.errors import LoadError

import pytest


def test_a_planned_claim_is_the_one_the_registry_would_run(claims_dir):
    folder = claims_dir({"dice.py": die_claim(extra="")})
    catalog([folder], builtin=False)  # writes the index
    fresh = catalog([folder], builtin=False)
    assert fresh.nothing_imported
    [info] = list(fresh)
    spec = worker_claims.claim_for(worker_claims.plan(fresh, info))
    assert spec.id == info.id and spec.info is info
    [result] = session.verify(fresh, [info], jobs=1)
    assert result.verdict == "verified" and fresh.nothing_imported  # ran in a worker


def test_a_claims_file_edited_during_the_run_is_an_error_not_a_result(claims_dir):
    """The deliberately broken run: the file changes after the parent planned the claim."""
    folder = claims_dir({"dice.py": die_claim()})
    catalog([folder], builtin=False)
    fresh = catalog([folder], builtin=False)
    [info] = list(fresh)
    planned = worker_claims.plan(fresh, info)
    (folder / "dice.py").write_text(die_claim(value="4"), encoding="utf-8")
    with pytest.raises(LoadError, match="changed while tmath was running"):
        worker_claims.claim_for(planned)


def test_a_cold_verify_imports_no_claims_module_and_no_engine_in_the_parent(tmp_path):
    probe = (
        "import sys\n"
        "sys.argv = ['tmath', 'verify', 'softmax-temperature', '--no-cache', '-j', '1']\n"
        "from tmath.cli import app\n"
        "try:\n    app(prog_name='tmath')\nexcept SystemExit as exc:\n    code = exc.code\n"
        "claims = [m for m in sys.modules if m.endswith('-claims')]\n"
        "heavy = [m for m in ('sympy', 'numpy') if m in sys.modules]\n"
        "sys.stderr.write(f'RESULT={code} {claims} {heavy}\\n')\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    subprocess.run([sys.executable, "-m", "tmath", "list"], capture_output=True, env=env)
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env=env, timeout=300)
    assert "RESULT=0 [] []" in run.stderr, run.stderr[-2000:]
