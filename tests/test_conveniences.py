"""Conveniences users expect (issue 28, part 3): a clear line for an empty document, ``check
--lang`` and a findings-only view, section titles for a user's claim set, claim ids never broken
in 80-column tables, the path ``explain`` shows, headings of cited claims in the report."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.exitcodes import ExitCode

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
COMPANION = ROOT / "docs" / "companion.md"


def tmath(*args: str, columns: int = 120):
    return runner.invoke(app, list(args), env={"COLUMNS": str(columns), "NO_COLOR": "1"})


# -- an empty document -----------------------------------------------------------------------------

@pytest.mark.parametrize("content, said", [
    (b"", "empty.md is empty: there is nothing in it to check"),
    (b"\xef\xbb\xbf", "empty.md is empty: there is nothing in it to check"),   # a BOM only
    (b"\n  \n\t\n", "empty.md is empty (only blank lines): there is nothing in it to check"),
])
def test_an_empty_document_is_one_clear_line_and_exit_2(tmp_path, content, said):
    document = tmp_path / "empty.md"
    document.write_bytes(content)
    result = runner.invoke(app, ["check", str(document)])
    assert result.exit_code == ExitCode.USAGE
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0] == f"error: {document.parent}/{said}"
    assert "vouches" not in result.output


def test_an_empty_document_next_to_a_checked_one_is_a_failing_finding(tmp_path):
    """Each document is checked on its own: the empty one fails the gate, never passes."""
    document = tmp_path / "empty.md"
    document.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["check", str(document), str(COMPANION), "-f", "github"])
    assert result.exit_code == ExitCode.FAILED
    assert f"::error file={document},line=1" in result.output
    assert "is empty: there is nothing in it to check" in result.output


# -- check: a findings-only view, and --lang --------------------------------------------------------

def planted(tmp_path: Path) -> Path:
    """The companion with two wrong figures, a wrong year and a display formula no claim
    records (a warning)."""
    text = COMPANION.read_text(encoding="utf-8")
    changed = (text.replace("standard deviation of a score is 8;",
                            "standard deviation of a score is 9;")
                   .replace("≈ 1/9647", "≈ 1/9770")
                   .replace("- Zhang & Sennrich (2019).", "- Zhang & Sennrich (2021).")
               + "\n$$\\zeta_{extra} = \\omega_{extra} + 1$$\n")
    assert changed.count("≈ 1/9770") == 1
    path = tmp_path / "companion.md"
    path.write_text(changed, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def planted_runs(tmp_path_factory):
    path = planted(tmp_path_factory.mktemp("planted"))
    runs = {name: tmath("check", str(path), *args, columns=400) for name, args in {
        "json": ("-f", "json"), "json-only": ("-f", "json", "--only-problems"),
        "table": (), "table-only": ("--only-problems",),
        "table-zh": ("--lang", "zh"), "github-only": ("-f", "github", "--only-problems"),
        "github": ("-f", "github")}.items()}
    return path, runs


def test_only_problems_shows_every_failing_finding_and_warning_and_nothing_else(planted_runs):
    import json

    _, runs = planted_runs
    document = json.loads(runs["json"].stdout)
    problems = [f for f in document["findings"] if f["status"] in (
        "inaccurate", "missing", "unverified", "unreadable", "changed", "contradicts",
        "unknown", "authors", "year", "title", "misattributed", "arxiv", "uncovered",
        "shortened")]
    assert {f["status"] for f in problems} >= {"inaccurate", "year", "uncovered"}
    rows = [line.split() for line in runs["table-only"].stdout.splitlines()]
    shown = {(int(r[0]), r[2]) for r in rows if len(r) > 3 and r[0].isdigit()}
    assert shown == {(f["line"], f["status"]) for f in problems}
    passing = len(document["findings"]) - len(problems)
    assert f"passing findings not shown (--only-problems): {passing}" in runs["table-only"].stdout
    assert "✓" not in runs["table-only"].stdout.split("passing findings not shown")[0]


def test_only_problems_keeps_the_summary_the_exit_code_and_the_machine_formats(planted_runs):
    _, runs = planted_runs
    full, only = runs["table"], runs["table-only"]
    assert full.exit_code == only.exit_code == ExitCode.FAILED
    summary = full.stdout[full.stdout.index("figures: "):]
    assert only.stdout.endswith(summary) and "FAILED: " in summary
    assert runs["json-only"].stdout == runs["json"].stdout  # the report, not a view of it
    assert runs["github-only"].stdout == runs["github"].stdout


def test_only_problems_on_a_passing_document_is_the_summary_and_exit_0():
    result = tmath("check", str(COMPANION), "--only-problems")
    assert result.exit_code == ExitCode.OK
    assert result.stdout.startswith("passing findings not shown (--only-problems): ")
    assert "PASSED" in result.stdout and "✓" not in result.stdout


def test_check_lang_zh_translates_the_table_and_the_summary(planted_runs):
    _, runs = planted_runs
    zh, en = runs["table-zh"], runs["table"]
    assert zh.exit_code == en.exit_code == ExitCode.FAILED
    for text in ("行", "状态", "类型", "内容", "覆盖率", "✗ 不准确", "数值: ", "未通过: ",
                 "编号章节之外", "印出值 9, 真值 8", "相对误差 12.50%"):
        assert text in zh.stdout, text
    for english in ("inaccurate", "accurate", "covered", "anchored", "coverage", "FAILED",
                    "printed", "claim(s)"):
        assert english not in zh.stdout.replace("--only-problems", ""), english
    bad = tmath("check", str(COMPANION), "--lang", "fr")
    assert bad.exit_code == ExitCode.USAGE and "en, zh" in bad.output


def test_check_help_teaches_the_new_options():
    text = tmath("check", "--help", columns=200).stdout
    assert "--only-problems" in text and "never changes the exit code" in text
    assert "--lang" in text and "an empty document" in text


# -- claim ids are never broken in 80-column tables ------------------------------------------------

LONG_ID = "a-users-claim-longer-than-built-in"
"""Longer than every built-in id (33 characters), and as long as fits a verify row at 80
columns; a longer id is folded where it cannot fit, never cut short."""


def whole(output: str, claim_id: str) -> int:
    """How often ``claim_id`` is printed whole (not as part of a longer id)."""
    import re

    return len(re.findall(rf"(?<![\w-]){re.escape(claim_id)}(?![\w-])", output))


def widest(output: str) -> int:
    from rich.cells import cell_len

    return max(cell_len(line) for line in output.splitlines())


@pytest.fixture(scope="module")
def long_id_folder(tmp_path_factory):
    from conftest import die_claim

    folder = tmp_path_factory.mktemp("long_ids")
    (folder / "die.py").write_text(die_claim(LONG_ID), encoding="utf-8")
    return folder


def builtin_ids() -> list[str]:
    import json

    return [c["id"] for c in json.loads(tmath("list", "-f", "json").stdout)]


def test_list_at_80_columns_never_breaks_an_id(long_id_folder):
    ids = builtin_ids() + [LONG_ID]
    assert len(LONG_ID) > max(map(len, ids[:-1]))
    result = tmath("list", "--claims", str(long_id_folder), columns=80)
    assert result.exit_code == 0, result.output
    assert [i for i in ids if whole(result.stdout, i) != 1] == []
    assert widest(result.stdout) <= 80


def test_verify_at_80_columns_never_breaks_an_id(long_id_folder):
    ids = sorted(builtin_ids(), key=len)[-6:] + [LONG_ID]
    result = tmath("verify", *ids, "--claims", str(long_id_folder), columns=80)
    assert result.exit_code == 0, result.output
    table = result.stdout.split("\n\n")[0]
    assert [i for i in ids if whole(table, i) != 1] == []
    assert widest(table) <= 80


def test_audit_at_80_columns_never_breaks_an_id(long_id_folder):
    ids = ["dot-product-variance", *sorted(builtin_ids(), key=len)[-3:], LONG_ID]
    result = tmath("audit", *ids, "--claims", str(long_id_folder), columns=80)
    foils, matrix = result.stdout.split("which test rejects which foil")
    for claim_id in ids:  # a line of its own above its foils, and above its tests if it has any
        assert f"\n{claim_id}\n" in "\n" + foils
        assert whole(foils, claim_id) == 1 and whole(matrix, claim_id) <= 1
    assert whole(matrix, "dot-product-variance") == whole(matrix, LONG_ID) == 1
    assert widest(result.stdout) <= 80
    wide = tmath("audit", *ids, "--claims", str(long_id_folder), columns=160)
    assert any(line.startswith(LONG_ID + " ") for line in wide.stdout.splitlines())
    assert all(whole(wide.stdout, i) >= 1 for i in ids)


def test_check_at_80_columns_never_breaks_an_id():
    import json

    result = tmath("check", str(COMPANION), columns=80)
    assert result.exit_code == ExitCode.OK
    findings = json.loads(tmath("check", str(COMPANION), "-f", "json").stdout)["findings"]
    expected: dict[str, int] = {}
    for f in findings:
        for claim_id in f["claims"]:
            expected[claim_id] = expected.get(claim_id, 0) + 1
    assert len(expected) > 50
    assert {i: whole(result.stdout, i) for i in expected} == expected
    assert "scaling-keeps-softmax-responsive: " in result.stdout
    assert widest(result.stdout) <= 80
    wide = tmath("check", str(COMPANION), columns=140)
    assert {i: whole(wide.stdout, i) for i in expected} == expected
