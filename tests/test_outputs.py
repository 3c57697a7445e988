"""Outputs never destroy a file: inputs, read-only files, folders, devices and FIFOs are refused
and left unchanged; symlinks are written through; nothing is left behind when the disk is
full; what the system refuses is one line and exit 4; a closed stdout ends quietly (141)."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.cli import outputs
from tmath.cli.common import write_text
from tmath.cli.outputs import OutputError
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode
from conftest import die_claim

runner = CliRunner()
CLAIM = "product-term-moments"


def verify_to(target: Path, *extra: str):
    return runner.invoke(app, ["verify", CLAIM, "-o", str(target), *extra])


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_writing_onto_a_claims_file_is_refused_and_leaves_it_unchanged(claims_dir, tmp_path):
    folder = claims_dir({"dice.py": die_claim(), "_helper.py": "X = 1\n"})
    before = (folder / "dice.py").read_bytes()
    os.link(folder / "dice.py", tmp_path / "hardlink.py")
    os.symlink(folder / "_helper.py", tmp_path / "symlink.py")
    for target in (folder / "dice.py", tmp_path / "hardlink.py", tmp_path / "symlink.py",
                   folder / "_helper.py"):
        for command in (["verify", "die-mean", "-o"], ["audit", "die-mean", "-o"],
                        ["report", "-f", "markdown", "-o"]):
            result = runner.invoke(app, [*command[:-1], "--claims", str(folder), command[-1],
                                         str(target)])
            assert result.exit_code == ExitCode.USAGE, (command, target, result.output)
            assert "one of the inputs" in result.output
    assert (folder / "dice.py").read_bytes() == before
    assert (folder / "_helper.py").read_text() == "X = 1\n"


def test_a_document_given_as_input_is_never_overwritten(tmp_path):
    document = tmp_path / "notes.md"
    document.write_text("# notes\n")
    for target in (document, tmp_path / "." / "notes.md"):
        with pytest.raises(UsageError, match="one of the inputs"):
            write_text(target, "report", inputs=[document])
    assert document.read_text() == "# notes\n"


def test_a_read_only_file_is_refused_and_unchanged(tmp_path):
    target = tmp_path / "report.txt"
    target.write_text("keep me\n")
    target.chmod(0o444)
    result = verify_to(target)
    assert result.exit_code == ExitCode.USAGE
    assert "read-only" in result.output and "internal error" not in result.output
    assert target.read_text() == "keep me\n" and stat.S_IMODE(target.stat().st_mode) == 0o444


def test_a_symlink_is_written_through_and_kept(tmp_path):
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    assert verify_to(link).exit_code == ExitCode.OK
    assert link.is_symlink() and os.readlink(link) == real.name
    assert CLAIM in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640  # an existing file keeps its mode
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("make, words", [
    (lambda p: os.mkfifo(p), "FIFO"),
    (lambda p: p.mkdir(), "folder"),
    (lambda p: (p.with_name("a").symlink_to(p), p.symlink_to(p.with_name("a"))), "loop"),
])
def test_a_fifo_a_folder_or_a_link_loop_is_refused(tmp_path, make, words):
    target = tmp_path / "out"
    make(target)
    result = verify_to(target)
    assert result.exit_code == ExitCode.USAGE and words in result.output


def test_a_device_is_refused(tmp_path):
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot create a device node here: {exc}")
    result = verify_to(device)
    assert result.exit_code == ExitCode.USAGE and "device" in result.output
    assert stat.S_ISCHR(device.lstat().st_mode)


def test_a_missing_folder_is_a_usage_error(tmp_path):
    result = verify_to(tmp_path / "nowhere" / "r.txt")
    assert result.exit_code == ExitCode.USAGE and "does not exist" in result.output


def test_a_refused_output_is_refused_before_any_claim_runs(tmp_path, claims_dir):
    source = die_claim("die-marker").replace(
        "    def check(self, value, experiment):\n",
        f"    def check(self, value, experiment):\n        open({str(tmp_path / 'ran')!r}, 'w')\n")
    folder = claims_dir({"marker.py": source})
    result = runner.invoke(app, ["verify", "--claims", str(folder), "die-marker", "-o",
                                 str(folder / "marker.py"), "--no-cache"])
    assert result.exit_code == ExitCode.USAGE
    assert not (tmp_path / "ran").exists()


def _failing_write(err_no: int):
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            raise OSError(err_no, os.strerror(err_no))

        def __getattr__(self, name):
            return getattr(self.handle, name)

    return lambda fd, *a, **k: Full(real_fdopen(fd, *a, **k))


@pytest.mark.parametrize("err_no, words", [(errno.ENOSPC, "no space left"),
                                           (errno.EDQUOT, "quota"), (errno.EIO, "input/output")])
def test_a_full_disk_is_one_line_exit_4_and_leaves_nothing_behind(tmp_path, monkeypatch, err_no,
                                                                    words):
    target = tmp_path / "report.json"
    target.write_text("previous\n")
    monkeypatch.setattr(outputs.os, "fdopen", _failing_write(err_no))
    result = runner.invoke(app, ["verify", CLAIM, "-f", "json", "-o", str(target)])
    assert result.exit_code == ExitCode.ENVIRONMENT, result.output
    assert words in result.output and "internal error" not in result.output
    assert target.read_text() == "previous\n"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("err_no, words", [(errno.EACCES, "permission denied"),
                                           (errno.EROFS, "read-only")])
def test_a_folder_that_cannot_be_written_is_exit_4(tmp_path, monkeypatch, err_no, words):
    def refuse(*args, **kwargs):
        raise OSError(err_no, os.strerror(err_no))

    monkeypatch.setattr(outputs.tempfile, "mkstemp", refuse)
    for command in (["verify", CLAIM], ["report", "-f", "markdown"]):
        result = runner.invoke(app, [*command, "-o", str(tmp_path / "r.out")])
        assert result.exit_code == ExitCode.ENVIRONMENT, result.output
        assert words in result.output and "please report" not in result.output


def test_a_read_only_folder_for_real(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root writes into read-only folders (the errno cases are tested above)")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        result = verify_to(folder / "r.txt")
        assert result.exit_code == ExitCode.ENVIRONMENT and "permission denied" in result.output
    finally:
        folder.chmod(0o755)


def test_write_text_rolls_back_on_any_failure(tmp_path, monkeypatch):
    monkeypatch.setattr(outputs.os, "replace", lambda a, b: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")))
    with pytest.raises(OutputError, match="no space left"):
        write_text(tmp_path / "x.txt", "hello")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [
    ["verify", CLAIM, "-f", "json"], ["verify", CLAIM], ["list"], ["list", "-f", "json"],
    ["audit", CLAIM, "-f", "json"],
])
def test_a_closed_stdout_ends_quietly_with_141(command):
    shell = " ".join([sys.executable, "-m", "tmath", *command]) + " | true; " \
            "echo ${PIPESTATUS[0]} >&2"
    result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300)
    assert result.stderr.strip().splitlines()[-1] == str(ExitCode.BROKEN_PIPE), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert "Exception ignored" not in result.stderr


@pytest.mark.parametrize("option", [
    ["--timeout", "inf"], ["--timeout", "nan"], ["--timeout", "-1"], ["--timeout", "0"],
    ["--timeout", "1e300"], ["-j", "0"], ["-j", "-2"], ["--max-memory", "10"],
    ["--max-memory", "-5"],
])
@pytest.mark.parametrize("command", [["verify", CLAIM], ["audit", CLAIM], ["explain", CLAIM],
                                     ["report", "-o", "/tmp/unused-report.html"]])
def test_bad_option_values_are_one_line_usage_errors(command, option):
    if command[0] == "explain" and option[0] == "-j":
        pytest.skip("explain runs one claim and has no --jobs")
    result = runner.invoke(app, [*command, *option])
    assert result.exit_code == ExitCode.USAGE, result.output
    lines = [l for l in result.output.splitlines() if l.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    assert "internal error" not in result.output
    assert not Path("/tmp/unused-report.html").exists()


def test_a_system_that_refuses_a_worker_is_exit_4_not_an_internal_error(monkeypatch):
    import multiprocessing.context

    def refuse(self):
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", refuse)
    result = runner.invoke(app, ["verify", CLAIM, "--no-cache"])
    assert result.exit_code == ExitCode.ENVIRONMENT, result.output
    assert "fewer --jobs" in result.output and "internal error" not in result.output


COMPANION = str(Path(__file__).resolve().parents[1] / "docs" / "companion.md")


@pytest.mark.parametrize("format", ["table", "json", "junit", "github"])
def test_check_ends_quietly_with_141_when_its_reader_goes_away_in_every_format(format):
    shell = " ".join([sys.executable, "-m", "tmath", "check", COMPANION, "-f", format]) + \
        " | true; echo ${PIPESTATUS[0]} >&2"
    result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=600)
    assert result.stderr.strip().splitlines()[-1] == str(ExitCode.BROKEN_PIPE), result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert "Exception ignored" not in result.stderr


@pytest.mark.parametrize("redirect", [">&-", "1</dev/null"])
@pytest.mark.parametrize("command", [
    ["verify", CLAIM], ["verify", CLAIM, "-f", "json"], ["check", COMPANION],
    ["check", COMPANION, "-f", "json"], ["check", COMPANION, "-f", "junit"],
    ["check", COMPANION, "-f", "github"], ["--help"], ["verify", "--help"],
])
def test_a_closed_stdout_is_one_line_and_exit_4_before_anything_runs(command, redirect):
    shell = " ".join([sys.executable, "-m", "tmath", *command, "--no-cache", redirect])
    result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=120)
    assert result.returncode == ExitCode.ENVIRONMENT, result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: stdout is closed") and "nothing was run" in line


def interrupted_after_one(monkeypatch, module: str, name: str):
    """The engine yields one result, then the user presses Ctrl-C."""
    import importlib

    engine = importlib.import_module(module)
    real = getattr(engine, name)

    def one_then_ctrl_c(*args, **kwargs):
        for result in real(*args, **kwargs):
            yield result
            raise KeyboardInterrupt

    monkeypatch.setattr(engine, name, one_then_ctrl_c)


@pytest.mark.parametrize("command, module, name", [
    ("verify", "tmath.engine.session", "verify"), ("audit", "tmath.engine.session", "audit"),
])
def test_json_of_an_interrupted_run_says_so_and_counts_what_did_not_run(
        monkeypatch, claims_dir, command, module, name):
    import json

    folder = claims_dir({"a.py": die_claim("die-a"), "b.py": die_claim("die-b")})
    whole = runner.invoke(app, [command, "--claims", str(folder), "--no-builtin", "-f", "json",
                                "-j", "1"])
    finished = json.loads(whole.stdout)
    assert finished["interrupted"] is False and finished["not_run"] == 0
    interrupted_after_one(monkeypatch, module, name)
    result = runner.invoke(app, [command, "--claims", str(folder), "--no-builtin", "-f", "json",
                                 "-j", "1"])
    assert result.exit_code == ExitCode.INTERRUPTED, result.output
    document = json.loads(result.stdout)
    assert document["interrupted"] is True
    assert len(document["claims"]) == 1 and document["not_run"] == 1


def test_json_of_an_interrupted_check_says_so_on_stdout(monkeypatch):
    """A CI job reading `check -f json` gets a report that says the gate never ran (it used to
    get nothing on stdout)."""
    import json

    companion = Path(__file__).resolve().parents[1] / "docs" / "companion.md"
    interrupted_after_one(monkeypatch, "tmath.engine.session", "verify")
    result = runner.invoke(app, ["check", str(companion), "-f", "json", "-j", "1"])
    assert result.exit_code == ExitCode.INTERRUPTED, result.output
    document = json.loads(result.stdout)
    assert document["interrupted"] is True and document["summary"]["passed"] is False
    assert document["claims_run"] == 1 and document["not_run"] > 0 and document["findings"] == []
