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


# -- report: section titles, headings, progress, written from verify's results ----------------------

def user_folder(root: Path, sections: str | None = None) -> Path:
    from conftest import die_claim

    folder = root / "dice_claims"
    folder.mkdir()
    (folder / "dice.py").write_text(die_claim("die-mean"), encoding="utf-8")
    if sections is not None:
        (folder / "sections.json").write_text(sections, encoding="utf-8")
    return folder


def markdown(folder: Path, out: Path, *args: str):
    result = runner.invoke(app, ["report", "-f", "markdown", "-o", str(out), "--claims",
                                 str(folder), *args])
    return result, out.read_text(encoding="utf-8") if out.exists() else ""


def test_a_users_sections_are_titled_by_the_sections_json_of_their_folder(tmp_path):
    folder = user_folder(tmp_path, '{"sections": {"1": "Dice and their means"}}')
    result, text = markdown(folder, tmp_path / "r.md", "--no-builtin")
    assert result.exit_code == 0, result.output
    assert "## 1. Dice and their means\n" in text and "§1\n" not in text
    assert "no title" not in result.output


def test_an_untitled_section_is_its_number_and_the_report_says_where_to_name_it(tmp_path):
    folder = user_folder(tmp_path)
    result, text = markdown(folder, tmp_path / "r.md", "--no-builtin")
    assert result.exit_code == 0, result.output
    assert "\n## §1\n" in text and "1. §1" not in text
    assert f"note: section 1 of {folder}/ has no title: name it in {folder}/sections.json, " \
           '{"sections": {"1": "…"}}' in " ".join(result.output.split())


@pytest.mark.parametrize("content, why", [
    ('{"sections": {"1": "Dice",}}', "not JSON"),
    ('{"sections": ["Dice"]}', 'expected {"sections": {"1": "title of section 1", ...}}'),
    ('{"sections": {"1": 7}}', 'expected {"sections"'),
])
def test_a_sections_json_that_cannot_be_read_is_a_note_not_a_failure(tmp_path, content, why):
    folder = user_folder(tmp_path, content)
    result, text = markdown(folder, tmp_path / "r.md", "--no-builtin")
    assert result.exit_code == 0 and "\n## §1\n" in text
    said = " ".join(result.output.split())
    assert f"note: {folder}/sections.json: {why}" in said
    assert "its sections are shown by their numbers" in said


def test_a_users_section_is_never_merged_into_a_built_in_one(tmp_path):
    folder = user_folder(tmp_path, '{"sections": {"1": "Dice and their means"}}')
    result, text = markdown(folder, tmp_path / "r.md")
    assert result.exit_code == 0, result.output
    builtin = text.index("## 1. Why attention scores")
    mine = text.index(f"## 1. Dice and their means — {folder}/")
    assert builtin < mine and text.index("`die-mean`") > mine
    html = tmp_path / "r.html"
    runner.invoke(app, ["report", "-o", str(html), "--claims", str(folder)])
    page = html.read_text(encoding="utf-8")
    assert '<h2 id="s1">1. Why attention scores' in page
    assert f'<h2 id="s2-1">1. Dice and their means — {folder}/</h2>' in page
    assert '<a href="#s2-1">Dice and their means' in page


def headings_without_content(text: str) -> list[str]:
    """Bold headings ("**premises:**") or "foil:" lines followed by no content of their own."""
    lines = [line for line in text.splitlines() if line.strip()]
    empty = []
    for k, line in enumerate(lines):
        nxt = lines[k + 1] if k + 1 < len(lines) else "#"
        if (line.startswith("**") and line.endswith(":**")) and (
                nxt.startswith("#") or (nxt.startswith("**") and nxt.endswith(":**"))):
            empty.append(line)
        if line.rstrip().endswith(":") and line.startswith("foil"):
            empty.append(line)
    return empty


@pytest.fixture(scope="module")
def builtin_markdown(tmp_path_factory):
    out = tmp_path_factory.mktemp("md") / "r.md"
    result = runner.invoke(app, ["report", "-f", "markdown", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return result, out.read_text(encoding="utf-8")


def test_cited_claims_in_the_markdown_report_have_no_empty_headings(builtin_markdown):
    _, text = builtin_markdown
    assert headings_without_content(text) == []
    card = text[text.index("(`dk-scaling-conjecture`"):]
    card = card[:card.index("\n### ")]
    assert "**what it is cited from:**" in card and "Vaswani et al. (2017)" in card
    for absent in ("**premises:**", "**derivation:**", "**randomized check:**"):
        assert absent not in card


def test_the_report_is_written_from_verify_and_says_the_foils_were_not_run(builtin_markdown):
    result, text = builtin_markdown
    assert " ".join(result.output.split()).startswith("report: verifying ")
    assert "foils not run in this report (tmath report --audit runs both checks against " \
           "each)" in text
    assert "✓ Var(qᵀk) = √d_k" not in text  # no audit outcome is claimed
    assert "Var(qᵀk) = √d_k" in text        # the named foil is listed
    card = text[text.index("(`dot-product-variance`"):]
    assert "**derivation:**" in card[:card.index("\n### ")]


def blocking_claim() -> str:
    """The die claim, whose check waits until the file $TMATH_TEST_RELEASE exists."""
    from conftest import die_claim

    source = die_claim("waits-for-the-test")
    head = "    def check(self, value, experiment):\n"
    assert head in source
    return "import os, time\n" + source.replace(head, head + (
        "        deadline = time.monotonic() + 120\n"
        "        while not os.path.exists(os.environ['TMATH_TEST_RELEASE']) \\\n"
        "                and time.monotonic() < deadline:\n"
        "            time.sleep(0.02)\n"))


def test_report_says_what_it_does_on_stderr_before_any_claim_has_finished(tmp_path):
    """The claim cannot finish until the test has read the report's first line of stderr: that
    line is there before any result, whatever the machine's speed."""
    import os
    import selectors
    import subprocess
    import sys

    folder = tmp_path / "waiting"
    folder.mkdir()
    (folder / "waits.py").write_text(blocking_claim(), encoding="utf-8")
    release, out = tmp_path / "release", tmp_path / "r.md"
    env = {**os.environ, "TMATH_TEST_RELEASE": str(release)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tmath", "report", "-f", "markdown", "-o", str(out),
         "--no-builtin", "--claims", str(folder), "--no-cache"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, text=True)
    try:
        with selectors.DefaultSelector() as selector:
            selector.register(process.stderr, selectors.EVENT_READ)
            assert selector.select(timeout=120), "no progress line"  # a guard, not a timing
            first = process.stderr.readline()
        assert first.startswith("report: verifying 1 claims"), first
        assert not out.exists()
    finally:
        release.write_text("go")
        rest = process.communicate(timeout=120)[1]
    assert process.returncode == 0, rest
    assert "waits-for-the-test" in out.read_text(encoding="utf-8")


# -- where a claim is defined, as a path a user can open --------------------------------------------

def test_a_claim_in_a_checkout_or_a_users_folder_is_shown_where_it_is(tmp_path, monkeypatch,
                                                                      registry):
    from types import SimpleNamespace

    from tmath.render.location import source_location

    info = registry.get("dot-product-variance").info
    monkeypatch.chdir(ROOT)  # a checkout (an editable install runs claims/ in place)
    assert source_location(info) == f"claims/{Path(info.path).name}:{info.line}"
    monkeypatch.chdir(tmp_path)
    assert source_location(info) == f"{Path(info.path).resolve()}:{info.line}"
    mine = SimpleNamespace(path=str(tmp_path / "mine" / "dice.py"), line=7)
    assert source_location(mine) == "mine/dice.py:7"


def test_a_built_in_claim_of_an_installed_package_is_shown_in_tmaths_source(tmp_path,
                                                                             monkeypatch):
    from types import SimpleNamespace

    from tmath.engine import folders
    from tmath.i18n import Translator
    from tmath.render.location import source_location

    copy = tmp_path / "site-packages" / "tmath" / "_builtin_claims"
    copy.mkdir(parents=True)
    (copy / "s01_scaled_dot_product.py").write_text("")
    monkeypatch.setattr(folders, "builtin_claims_dir", lambda: copy)
    info = SimpleNamespace(path=str(copy / "s01_scaled_dot_product.py"), line=42)
    shown = source_location(info)
    assert shown.startswith("claims/s01_scaled_dot_product.py:42 in tmath's source")
    assert shown.endswith(f"(installed copy: {copy / 's01_scaled_dot_product.py'})")
    assert "tmath 源码" in source_location(info, Translator("zh"))
