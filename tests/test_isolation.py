"""Claims are isolated: what they print never reaches stdout, each worker is its own process
group (a timeout, SIGTERM or Ctrl-C ends it with everything it started), and a runaway
allocation is an error under the worker's memory limit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.engine.capture import Captured
from tmath.engine.parallel import run_isolated
from tmath.exitcodes import ExitCode
from conftest import alive, die_claim

runner = CliRunner()


def with_check_body(claim_id: str, body: str, at_import: str = "") -> str:
    """A die claim whose check() runs ``body`` first (and whose module runs ``at_import``)."""
    source = die_claim(claim_id).replace(
        "    def check(self, value, experiment):\n",
        "    def check(self, value, experiment):\n"
        + "".join(f"        {line}\n" for line in body.splitlines()))
    return at_import + source


def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tmath", *args], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ})


PRINTS = with_check_body(
    "die-loud",
    "print('print in check')\nimport os, subprocess, sys\nos.write(1, b'fd 1 in check\\n')\n"
    "os.write(2, b'fd 2 in check\\n')\nsys.stderr.write('stderr in check\\n')\n"
    "subprocess.run(['echo', 'a subprocess in check'])",
    at_import="import os\nprint('print at import')\nos.write(1, b'fd 1 at import\\n')\n")


def test_a_printing_claim_leaves_json_on_stdout_pure(claims_dir):
    folder = claims_dir({"loud.py": PRINTS})
    for command in (["verify", "die-loud"], ["audit", "die-loud"], ["list"]):
        result = run_cli(*command, "--claims", str(folder), "-f", "json", "--no-builtin",
                         *(["--no-cache"] if command[0] != "list" else []))
        assert result.returncode == ExitCode.OK, result.stderr
        json.loads(result.stdout)  # nothing but the report
        assert "in check" not in result.stdout + result.stderr
        assert "at import" not in result.stdout


def test_verbose_and_explain_show_what_the_claim_printed(claims_dir):
    folder = claims_dir({"loud.py": PRINTS})
    verbose = run_cli("verify", "--claims", str(folder), "die-loud", "-f", "json", "-v",
                      "--no-builtin")
    json.loads(verbose.stdout)
    for text in ("print in check", "fd 1 in check", "fd 2 in check", "stderr in check",
                 "a subprocess in check", "print at import", "fd 1 at import"):
        assert text in verbose.stderr, text
    explained = run_cli("explain", "--claims", str(folder), "die-loud")
    assert "what the claim printed" in explained.stdout and "fd 2 in check" in explained.stdout


def test_what_a_claim_prints_is_kept_bounded():
    with Captured(keep=1000) as captured:
        for i in range(20000):
            print(f"line {i}")
    assert len(captured.text) < 2200
    assert captured.text.startswith("line 0\n") and captured.text.rstrip().endswith("line 19999")
    assert "bytes not shown" in captured.text


def test_each_worker_is_its_own_process_group():
    [outcome] = run_isolated([lambda: (os.getpgid(0), os.getpid())])
    group, pid = outcome.value
    assert group == pid != os.getpgid(0)


def test_a_timeout_kills_the_processes_the_claim_started(claims_dir, tmp_path):
    pids = tmp_path / "pids"
    source = with_check_body("die-hangs", "import subprocess, time\n"
                             "child = subprocess.Popen(['sleep', '300'])\n"
                             f"open({str(pids)!r}, 'w').write(str(child.pid))\ntime.sleep(300)")
    folder = claims_dir({"hangs.py": source})
    start = time.monotonic()
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-hangs", "--timeout",
                                 "3", "--no-cache", "-f", "json"])
    assert time.monotonic() - start < 60
    assert json.loads(result.stdout)["claims"][0]["verdict"] == "timeout"
    child = int(pids.read_text())
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(child)


def test_what_a_finished_claim_left_running_is_ended(claims_dir, tmp_path):
    pids = tmp_path / "pids"
    source = with_check_body("die-leaves", "import subprocess\n"
                             "child = subprocess.Popen(['sleep', '300'])\n"
                             f"open({str(pids)!r}, 'w').write(str(child.pid))")
    folder = claims_dir({"leaves.py": source})
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-leaves", "--no-cache"])
    assert result.exit_code == ExitCode.OK
    child = int(pids.read_text())
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(child)


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, ExitCode.TERMINATED),
                                          (signal.SIGINT, ExitCode.INTERRUPTED)])
def test_a_signal_ends_every_group_shows_partial_results_and_exits_128_plus_n(
        claims_dir, tmp_path, signum, code):
    pids = tmp_path / "pids"
    slow = with_check_body("die-slow", "import subprocess, time\n"
                           "child = subprocess.Popen(['sleep', '300'])\n"
                           f"open({str(pids)!r}, 'w').write(str(child.pid))\ntime.sleep(300)")
    folder = claims_dir({"slow.py": slow, "dice.py": die_claim()})
    process = subprocess.Popen(
        [sys.executable, "-m", "tmath", "verify", "--claims", str(folder), "die-mean", "die-slow",
         "--no-cache", "-j", "2", "-f", "json", "-o", str(tmp_path / "report.json")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not pids.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(0.5)
    sent = time.monotonic()
    process.send_signal(signum)  # to tmath only, not to its process group
    stdout, stderr = process.communicate(timeout=30)
    assert time.monotonic() - sent < 10
    assert process.returncode == code, stderr
    assert "Traceback" not in stderr
    assert [c["id"] for c in json.loads(stdout)["claims"]] == ["die-mean"]  # what finished
    assert not (tmp_path / "report.json").exists()  # an interrupted run writes no report
    child = int(pids.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        left = [p for p in _session_members(process.pid) if alive(p)]
        if not left and not alive(child):
            break
        time.sleep(0.1)
    assert left == [] and not alive(child)


def _session_members(sid: int) -> list[int]:
    members = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid:  # field 6 of /proc/PID/stat: the session id
                members.append(int(entry))
    return members


def test_a_runaway_allocation_is_an_error_with_a_clear_reason(claims_dir):
    source = with_check_body("die-hog", "import numpy as np\nbig = np.ones(50 * 2**30 // 8)")
    folder = claims_dir({"hog.py": source})
    start = time.monotonic()
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-hog", "--no-cache",
                                 "-f", "json"])
    assert time.monotonic() - start < 60
    assert result.exit_code == ExitCode.FAILED
    [claim] = json.loads(result.stdout)["claims"]
    assert claim["verdict"] == "error"
    assert "MemoryError" in claim["empirical"]["reason"]
    assert "--max-memory" in claim["empirical"]["reason"]


def test_the_memory_limit_is_the_options_value(claims_dir):
    """300 MB fits the default 4096 MB and not --max-memory 128: the limit can fail."""
    source = with_check_body("die-300mb", "import numpy as np\nbig = np.ones(300 * 2**20 // 8)\n"
                                          "assert big.sum() > 0")
    folder = claims_dir({"mb.py": source})
    args = ["verify", "--claims", str(folder), "die-300mb", "--no-cache", "-f", "json"]
    assert runner.invoke(app, args).exit_code == ExitCode.OK
    limited = runner.invoke(app, [*args, "--max-memory", "128"])
    assert json.loads(limited.stdout)["claims"][0]["verdict"] == "error"
