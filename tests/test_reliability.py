"""Failures are isolated and explained; interrupts and outputs behave; terminals stay clean."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from typer.testing import CliRunner

from tmath.cli import app
from tmath.exitcodes import ExitCode
from conftest import die_claim

runner = CliRunner()

SLEEPY = die_claim("die-sleepy").replace(
    "    def prove(self, value, proof):\n",
    "    def prove(self, value, proof):\n        import time; time.sleep(60)\n")
RAISING = die_claim("die-raising").replace(
    "    def check(self, value, experiment):\n",
    "    def check(self, value, experiment):\n        raise ZeroDivisionError('planted')\n")


def run_cli(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "tmath", *args], capture_output=True,
                          text=True, env=full_env, timeout=300, **kwargs)


def test_a_hanging_claim_times_out_and_the_others_finish(claims_dir):
    folder = claims_dir({"sleepy.py": SLEEPY, "dice.py": die_claim()})
    start = time.monotonic()
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-sleepy", "die-mean",
                                 "--timeout", "2", "-f", "json", "--no-cache"])
    assert time.monotonic() - start < 30
    assert result.exit_code == ExitCode.FAILED
    verdicts = {c["id"]: c["verdict"] for c in json.loads(result.stdout)["claims"]}
    assert verdicts == {"die-sleepy": "timeout", "die-mean": "verified"}


def test_a_raising_claim_is_an_error_with_a_one_line_reason(claims_dir):
    folder = claims_dir({"raising.py": RAISING})
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-raising", "--no-cache"])
    assert result.exit_code == ExitCode.FAILED
    assert "ZeroDivisionError: planted" in result.output
    assert "Traceback" not in result.output
    verbose = runner.invoke(app, ["verify", "--claims", str(folder), "die-raising", "-v",
                                  "--no-cache"])
    assert "Traceback" in verbose.output and "raise ZeroDivisionError" in verbose.output


def test_a_failed_dependency_blocks_its_dependants(claims_dir):
    folder = claims_dir({
        "base.py": die_claim("die-base", value="4"),
        "top.py": die_claim("die-top", extra=', depends_on=("die-base",)'),
    })
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-top", "-f", "json"])
    claims = {c["id"]: c for c in json.loads(result.stdout)["claims"]}
    assert claims["die-base"]["verdict"] == "failed"
    assert claims["die-top"]["verdict"] == "blocked"
    assert claims["die-top"]["blocked_by"] == ["die-base"]


def test_json_stays_parseable_with_load_errors_on_stderr(claims_dir):
    folder = claims_dir({"broken.py": "def f(:\n", "dice.py": die_claim()})
    result = run_cli("verify", "--claims", str(folder), "die-mean", "-f", "json")
    assert result.returncode == ExitCode.LOAD_ERROR
    assert json.loads(result.stdout)["claims"][0]["verdict"] == "verified"
    assert "broken.py:1" in result.stderr


def test_seed_random_is_printed_and_replayable():
    result = run_cli("verify", "product-term-moments", "--seed", "random", "-f", "json",
                     "--no-cache")
    assert result.returncode == 0
    seed = json.loads(result.stdout)["seed"]
    assert f"--seed {seed}" in result.stderr


def test_plain_narrow_terminal_output_has_no_escape_codes():
    result = run_cli("verify", "product-term-moments", env={"COLUMNS": "40", "NO_COLOR": "1"})
    assert result.returncode == 0
    assert "\x1b[" not in result.stdout and "\x1b[" not in result.stderr
    assert "verified" in result.stdout


def test_interrupt_prints_what_finished_exits_130_and_leaves_no_workers(tmp_path: Path):
    target = tmp_path / "report.txt"
    process = subprocess.Popen(
        [sys.executable, "-m", "tmath", "verify", "all", "--no-cache", "-j", "2",
         "-o", str(target)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(6)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == ExitCode.INTERRUPTED, stderr
    assert "interrupted" in stderr
    assert "Traceback" not in stderr
    assert not target.exists()  # never a half-written report
    leftover = subprocess.run(["pgrep", "-g", str(process.pid)], capture_output=True, text=True)
    assert leftover.stdout.strip() == ""


def test_a_dependency_defined_in_a_later_section_still_blocks(claims_dir):
    folder = claims_dir({
        "early.py": die_claim("die-early", extra=', depends_on=("die-late",)'),
        "late.py": die_claim("die-late", value="4").replace('section="1.1"', 'section="9.1"'),
    })
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-early", "-f", "json"])
    claims = {c["id"]: c for c in json.loads(result.stdout)["claims"]}
    assert claims["die-late"]["verdict"] == "failed"
    assert claims["die-early"]["verdict"] == "blocked"
