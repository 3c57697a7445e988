"""Fail closed at load: whatever a claims module raises, and whatever sits among the claims
modules, is a load error naming the file (exit 3), never an exit 0, a hang or a usage error."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.engine.registry import load
from tmath.exitcodes import ExitCode
from conftest import die_claim

runner = CliRunner()
DOCS = Path(__file__).resolve().parent / "docs"


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tmath", *args], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ})


RAISERS = {
    "sys.exit(0)": "import sys\nsys.exit(0)\n",
    "sys.exit(5)": "import sys\nsys.exit(5)\n",
    "SystemExit('bye')": "raise SystemExit('bye')\n",
    "KeyboardInterrupt": "raise KeyboardInterrupt\n",
    "GeneratorExit": "raise GeneratorExit\n",
    "a BaseException subclass": "class Odd(BaseException):\n    pass\nraise Odd('odd')\n",
}


@pytest.mark.parametrize("name", RAISERS)
def test_whatever_a_module_raises_at_import_is_a_load_error(claims_dir, name):
    folder = claims_dir({"bad.py": "x = 1\n" + RAISERS[name], "dice.py": die_claim()})
    registry = load([folder], builtin=False)
    [error] = registry.errors
    assert error.path.endswith("bad.py") and error.line is not None and error.line >= 2
    assert "die-mean" in registry.claims  # the other module still loads


@pytest.mark.parametrize("command", ["list", "verify", "audit", "report", "explain"])
def test_sys_exit_0_in_a_claims_module_exits_3_naming_the_file(claims_dir, tmp_path, command):
    folder = claims_dir({"exits.py": "import sys\nsys.exit(0)\n", "dice.py": die_claim()})
    extra = {"report": ["-o", str(tmp_path / "r.html"), "-f", "html"],
             "explain": ["die-mean"], "verify": ["die-mean"], "audit": ["die-mean"]}
    result = run_cli(command, "--claims", str(folder), "--no-builtin", *extra.get(command, []))
    assert result.returncode == ExitCode.LOAD_ERROR, result.stderr
    assert "exits.py:2" in result.stderr and "sys.exit(0)" in result.stderr


def test_sys_exit_0_in_a_claims_module_fails_the_gate(claims_dir):
    folder = claims_dir({"exits.py": "import sys\nsys.exit(0)\n", "dice.py": die_claim()})
    result = run_cli("check", str(DOCS / "dice.txt"), "--claims", str(folder))
    assert result.returncode == ExitCode.LOAD_ERROR, result.stderr
    assert "exits.py:2" in result.stderr


def test_a_real_ctrl_c_during_import_still_interrupts(claims_dir):
    """Raising KeyboardInterrupt is the module's mistake (exit 3); a SIGINT is the user's."""
    folder = claims_dir({"signals.py": "import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n"
                                       "import time\ntime.sleep(5)\n"})
    result = run_cli("list", "--claims", str(folder), "--no-builtin")
    assert result.returncode == ExitCode.INTERRUPTED, result.stderr
    assert "Traceback" not in result.stderr


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _socket(path: Path) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays


def _loop(path: Path) -> None:
    other = path.with_name("other.link")
    os.symlink(other, path)
    os.symlink(path, other)


def _dangling(path: Path) -> None:
    os.symlink(path.with_name("nowhere.txt"), path)


def _folder(path: Path) -> None:
    path.mkdir()
    (path / "inside.py").write_text("import sys\nsys.exit(0)\n")


@pytest.mark.parametrize("plant, words", [(_fifo, "FIFO"), (_socket, "socket"),
                                          (_loop, "symbolic link"), (_dangling, "symbolic link"),
                                          (_folder, "folder")])
def test_a_non_regular_file_among_the_claims_is_a_load_error_not_a_hang(claims_dir, plant, words):
    folder = claims_dir({"dice.py": die_claim()})
    plant(folder / "x.py")
    for command in (["list"], ["verify", "die-mean"]):
        result = run_cli(*command, "--claims", str(folder), "--no-builtin", timeout=60)
        assert result.returncode == ExitCode.LOAD_ERROR, result.stderr
        assert "x.py" in result.stderr and words in result.stderr


def test_a_self_dependency_is_a_load_error_exit_3_even_when_asked_for_by_id(claims_dir):
    folder = claims_dir({"self.py": die_claim("die-self", extra=', depends_on=("die-self",)')})
    for command in (["verify", "die-self"], ["explain", "die-self"], ["audit", "die-self"],
                    ["list"]):
        result = runner.invoke(app, [*command, "--claims", str(folder), "--no-builtin"])
        assert result.exit_code == ExitCode.LOAD_ERROR, (command, result.output)
        assert "self.py" in result.output and "depends on itself" in result.output


def test_an_unknown_id_with_a_broken_module_is_exit_3(claims_dir):
    """The id may be defined in the module that did not load: not a usage error."""
    folder = claims_dir({"broken.py": "def f(:\n"})
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-mean"])
    assert result.exit_code == ExitCode.LOAD_ERROR
    assert "broken.py:1" in result.output and "it may be defined there" in result.output
    clean = runner.invoke(app, ["verify", "die-meen"])
    assert clean.exit_code == ExitCode.USAGE  # without load errors it is a plain typo


@pytest.mark.parametrize("body, reason", [
    ("import sys; sys.exit(0)", "SystemExit"),
    ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    ("import os; os._exit(0)", "exit code 0"),
])
def test_a_claim_that_exits_while_it_runs_is_an_error(claims_dir, body, reason):
    source = die_claim("die-exits").replace(
        "    def check(self, value, experiment):\n",
        f"    def check(self, value, experiment):\n        {body}\n")
    folder = claims_dir({"exits.py": source})
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-exits", "-f", "json",
                                 "--no-cache"])
    assert result.exit_code == ExitCode.FAILED
    [claim] = json.loads(result.stdout)["claims"]
    assert claim["verdict"] == "error"
    assert reason in json.dumps(claim)
