"""``tmath check --fix``: a diff that restates wrong figures in the printed style, and
``--fix --write`` that applies it without losing anything else of the file."""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CHECK_APP

from test_gate import DICE_CLAIMS
from tmath.exitcodes import ExitCode
from tmath.gate.fix import restate

DOCS = Path(__file__).parent / "docs"

app = CHECK_APP
runner = CliRunner()
OMEGA = 1 / 10000 ** (510 / 512)


@pytest.mark.parametrize("old, true, new", [
    ("1/9770", OMEGA, "1/9647"),                       # a reciprocal: its denominator
    ("61400", 2 * math.pi / OMEGA, "60611"),           # an integer: to the unit
    ("61,400", 2 * math.pi / OMEGA, "60,611"),         # separators kept
    ("1600 万", 4096**2, "1678 万"),                    # the unit kept
    ("255/512", 0.5, "256/512"),                       # another fraction: its numerator
    ("\\frac{1}{38}", 1 / 36, "\\frac{1}{36}"),        # LaTeX kept
    ("[0.17, 0.20, 0.17]", [1 / 6] * 3, "[0.17, 0.17, 0.17]"),  # only the wrong entry
    ("[≈1.00, ≈0.10]", [0.99995, 4.5e-5], "[≈1.00, ≈0.00]"),
    ("3.6", 3.5, "3.5"), ("−0.52", -0.5, "−0.50"), ("93%", 92.0, "92%"),
    ("1.7×10⁴", 16_000, "1.6×10⁴"), ("17k", 16_000, "16k"), ("2.0e3", 1600, "1.6e3"),
])
def test_a_wrong_figure_is_restated_at_its_precision_and_in_its_style(old, true, new):
    values = true if isinstance(true, list) else [true]
    assert restate(old, values) == new


def test_a_figure_that_cannot_be_restated_is_left_alone():
    assert restate("[0.5, 0.5]", [0.2, 0.3, 0.5]) is None  # three values, two printed
    assert restate("1/3", [0.0]) in (None, "0/3")


@pytest.fixture
def dice(claims_dir):
    return claims_dir({"dice_claims.py": DICE_CLAIMS})


def planted(tmp_path: Path, newline: str = "\n", bom: bool = False) -> tuple[Path, str]:
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    wrong = text.replace("平均点数就是 3.5", "平均点数就是 3.6").replace("1/36", "1/38")
    path = tmp_path / "dice.txt"
    data = wrong.replace("\n", newline).encode("utf-8")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + data)
    return path, text


def test_fix_prints_a_unified_diff_and_changes_nothing(dice, tmp_path):
    path, _ = planted(tmp_path)
    before = path.read_bytes()
    result = runner.invoke(app, ["check", str(path), "--claims", str(dice), "--fix", "-j", "1"])
    assert result.exit_code == ExitCode.FAILED  # there is something to fix
    diff = result.stdout
    assert diff.startswith(f"--- {path}\n+++ {path}\n") and "@@" in diff
    assert "-换成小数，单颗骰子的平均点数就是 3.6。" in diff
    assert "+换成小数，单颗骰子的平均点数就是 3.5。" in diff
    assert "1/38" in diff and "+同时掷出两个六的机会是 1/36。" in diff
    assert path.read_bytes() == before
    assert "2 figure(s) or formula(s) would be fixed" in result.output


def test_fix_on_an_accurate_document_prints_nothing_and_passes(dice):
    result = runner.invoke(app, ["check", str(DOCS / "dice.txt"), "--claims", str(dice), "--fix",
                                 "-j", "1"])
    assert result.exit_code == ExitCode.OK and result.stdout == ""


@pytest.mark.parametrize("newline, bom", [("\n", False), ("\r\n", True)])
def test_fix_write_applies_it_keeping_line_endings_and_byte_order_mark(dice, tmp_path, newline,
                                                                       bom):
    path, text = planted(tmp_path, newline, bom)
    path.chmod(0o640)
    result = runner.invoke(app, ["check", str(path), "--claims", str(dice), "--fix", "--write",
                                 "-f", "json", "-j", "1"])
    assert result.exit_code == ExitCode.OK, result.output
    expected = (b"\xef\xbb\xbf" if bom else b"") + text.replace("\n", newline).encode("utf-8")
    assert path.read_bytes() == expected
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # permissions kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dice.txt", "user_claims"]  # no temp file
    after = json.loads(result.stdout)
    assert after["summary"]["figures"]["inaccurate"] == 0
    assert after["summary"]["figures"]["missing"] == 0 and after["summary"]["passed"]


def test_fix_write_refuses_a_read_only_document(dice, tmp_path):
    path, _ = planted(tmp_path)
    path.chmod(0o444)
    before = path.read_bytes()
    result = runner.invoke(app, ["check", str(path), "--claims", str(dice), "--fix", "--write",
                                 "-j", "1"])
    if os.geteuid() == 0:
        assert result.exit_code == ExitCode.USAGE, result.output  # refused by its mode, even for root
    assert "read-only" in result.output and path.read_bytes() == before


def test_write_without_fix_is_a_usage_error(dice):
    result = runner.invoke(app, ["check", str(DOCS / "dice.txt"), "--claims", str(dice), "--write"])
    assert result.exit_code == ExitCode.USAGE and "--fix --write" in result.output


def fix_write(path: Path, dice: Path):
    return runner.invoke(app, ["check", str(path), "--claims", str(dice), "--fix", "--write",
                               "-j", "1"])


@pytest.fixture
def meanwhile(monkeypatch):
    """Run ``action`` after the document was checked and the fix planned, before it is written
    (as another program editing the file at that moment would)."""
    from tmath.gate import fix

    def set_action(action):
        original = fix.apply

        def apply_then_act(document, fixes):
            fixed = original(document, fixes)
            action()
            return fixed

        monkeypatch.setattr(fix, "apply", apply_then_act)

    return set_action


def one_line_error(result, *words: str) -> None:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    assert all(w in lines[0] for w in words), lines[0]


def test_an_edit_made_while_it_was_checked_is_never_overwritten(dice, tmp_path, meanwhile):
    path, _ = planted(tmp_path)
    edited = path.read_bytes() + "我后来加的一行。\n".encode("utf-8")
    meanwhile(lambda: path.write_bytes(edited))
    result = fix_write(path, dice)
    assert result.exit_code == ExitCode.CHANGED, result.output
    assert path.read_bytes() == edited
    assert "was edited since it was checked; nothing was written" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dice.txt", "user_claims"]


def test_a_symlink_that_appeared_after_the_check_is_never_written_through(dice, tmp_path,
                                                                          meanwhile):
    path, _ = planted(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(path.read_bytes())  # the same text: only the link tells them apart
    before = victim.read_bytes()

    def swap():
        path.unlink()
        path.symlink_to(victim)

    meanwhile(swap)
    result = fix_write(path, dice)
    assert result.exit_code == ExitCode.CHANGED, result.output
    assert "became a symbolic link" in result.output and victim.read_bytes() == before


def test_a_document_replaced_by_another_file_is_not_written(dice, tmp_path, meanwhile):
    path, _ = planted(tmp_path)
    copy = tmp_path / "copy.txt"
    copy.write_bytes(path.read_bytes())
    meanwhile(lambda: os.replace(copy, path))  # what an editor's save does
    result = fix_write(path, dice)
    assert result.exit_code == ExitCode.CHANGED and "replaced" in result.output, result.output


def test_a_document_locked_by_another_writer_is_not_written(dice, tmp_path, monkeypatch):
    import fcntl

    from tmath.cli import replace

    path, _ = planted(tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(replace, "LOCK_WAIT", 0.2)
    with open(path, "rb") as other:
        fcntl.flock(other, fcntl.LOCK_EX)
        result = fix_write(path, dice)
    assert result.exit_code == ExitCode.CHANGED and "locked" in result.output, result.output
    assert path.read_bytes() == before


def test_a_hard_linked_document_is_refused_and_never_split(dice, tmp_path):
    path, _ = planted(tmp_path)
    other = tmp_path / "other-name.txt"
    os.link(path, other)
    before = path.read_bytes()
    result = fix_write(path, dice)
    assert result.exit_code == ExitCode.USAGE, result.output
    one_line_error(result, "2 hard links")
    assert path.read_bytes() == other.read_bytes() == before
    assert os.stat(path).st_ino == os.stat(other).st_ino


def test_fix_write_keeps_the_owner_group_and_mode(dice, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    path, _ = planted(tmp_path)
    os.chown(path, 4321, 8765)
    path.chmod(0o664)
    result = fix_write(path, dice)
    assert result.exit_code == ExitCode.OK, result.output
    info = path.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 8765, 0o664)
    assert "3.5" in path.read_text(encoding="utf-8")


def test_a_read_only_file_system_is_the_environment_not_a_usage_error(dice, tmp_path,
                                                                      monkeypatch):
    from tmath.cli import outputs

    path, _ = planted(tmp_path)
    before = path.read_bytes()
    real = os.statvfs

    class ReadOnly:
        def __init__(self, result):
            self.result = result

        def __getattr__(self, name):
            value = getattr(self.result, name)
            return value | os.ST_RDONLY if name == "f_flag" else value

    monkeypatch.setattr(outputs.os, "statvfs", lambda p: ReadOnly(real(p)))
    result = fix_write(path, dice)
    assert result.exit_code == ExitCode.ENVIRONMENT, result.output
    one_line_error(result, "the file system is read-only")
    assert path.read_bytes() == before


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0c"])
def test_the_diff_of_a_document_with_unicode_line_separators_applies(dice, tmp_path,
                                                                     monkeypatch, separator):
    import shutil
    import subprocess

    monkeypatch.chdir(tmp_path)
    path, _ = planted(tmp_path)
    text = path.read_text(encoding="utf-8")
    # inside the paragraphs: before the wrong figure's sentence and between other sentences
    text = text.replace("换成小数，", f"换成{separator}小数，").replace("。", f"。{separator}", 3)
    path.write_text(text, encoding="utf-8", newline="")
    result = runner.invoke(app, ["check", "dice.txt", "--claims", str(dice), "--fix", "-j", "1"])
    assert result.exit_code == ExitCode.FAILED, result.output
    diff = tmp_path / "fix.diff"
    diff.write_text(result.stdout, encoding="utf-8", newline="")
    for command in (["git", "apply", "--check", str(diff)],
                    ["patch", "-p1", "--dry-run", "-i", str(diff)]):
        if shutil.which(command[0]) is None:
            continue
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stdout, done.stderr, result.stdout)
    subprocess.run(["patch", "-p1", "-s", "-i", str(diff)], cwd=tmp_path, check=True)
    fixed = path.read_bytes().decode("utf-8")
    assert fixed == text.replace("3.6", "3.5").replace("1/38", "1/36")
