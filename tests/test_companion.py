"""The companion document (docs/companion.md) is held to the built-in claims: it passes with
full coverage, survives rewording, and planted mistakes in it are found on their lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from rewording import figure_spans, reword
from tmath.cli import boundary
from tmath.cli.check import check
from tmath.exitcodes import ExitCode

ROOT = Path(__file__).resolve().parents[1]
COMPANION = ROOT / "docs" / "companion.md"

app = typer.Typer()


@app.callback()
def _main() -> None:
    """A test app that registers the command the way tmath.cli does."""


app.command("check")(boundary(check))
runner = CliRunner()


def report(path: Path, *args: str) -> tuple[int, dict]:
    result = runner.invoke(app, ["check", str(path), "-f", "json", "-j", "1", *args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if fragment in line)


@pytest.fixture(scope="module")
def original() -> tuple[int, dict]:
    return report(COMPANION)


def test_the_companion_passes_with_full_coverage(original):
    code, doc = original
    assert code == ExitCode.OK
    statuses = {(f["kind"], f["status"]) for f in doc["findings"]}
    assert statuses == {("figure", "accurate"), ("formula", "covered"), ("statement", "anchored")}
    assert doc["coverage"]["percent"] == 100.0
    assert doc["summary"]["figures"]["accurate"] >= 39
    assert doc["summary"]["formulas"]["covered"] >= 41
    assert doc["summary"]["statements"]["anchored"] >= 37


def test_the_companions_citations_are_right_and_checked(original):
    """Its references and author-year mentions are resolved to works the claims record, and
    none is wrong: a right citation gives no finding."""
    _, doc = original
    citations = doc["summary"]["citations"]
    assert citations["checked"] >= 25 and citations["right"] == citations["checked"]
    assert citations["unknown"] == 0
    assert not [f for f in doc["findings"] if f["kind"] == "citation"]


def test_planted_citation_errors_in_the_companion_are_found_on_their_lines(tmp_path):
    text = COMPANION.read_text(encoding="utf-8")
    planted = (text.replace("- Shwartz-Ziv & Tishby (2017).", "- Tishby & Shwartz-Ziv (2017).")
                   .replace("- Zhang & Sennrich (2019).", "- Zhang & Sennrich (2021).")
                   .replace("Transformer Dissection: An Unified", "Transformer Dissection: A Unified")
                   .replace("Xiong et al. (2020) analyse", "He et al. (2016) analyse"))
    assert planted.count("\n") == text.count("\n") and planted != text
    path = tmp_path / "companion.md"
    path.write_text(planted, encoding="utf-8")
    code, doc = report(path)
    assert code == ExitCode.FAILED
    found = {(f["status"], f["line"]) for f in doc["findings"] if f["kind"] == "citation"}
    assert found == {("authors", line_of(planted, "- Tishby & Shwartz-Ziv")),
                     ("year", line_of(planted, "- Zhang & Sennrich (2021)")),
                     ("title", line_of(planted, "Dissection: A Unified")),
                     ("misattributed", line_of(planted, "He et al. (2016) analyse"))}


def test_the_companion_prints_the_true_values_where_the_notes_do_not(original):
    _, doc = original
    printed = {f["label"]: f["printed"] for f in doc["findings"] if f["kind"] == "figure"}
    assert printed["ω_255 at d_model = 512"] == "1/9647"
    assert printed["period of pair 255"] == "60611"
    assert printed["score-matrix entries at T = 4096"] == "16,777,216"


def test_the_readme_gate_example_and_test_command_use_the_companion():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "tmath check docs/companion.md" in readme
    assert "python -m pytest" in readme  # this file is part of that run, so CI checks it


def test_rewording_the_prose_around_every_figure_keeps_them_located(original, tmp_path):
    _, doc = original
    text = COMPANION.read_text(encoding="utf-8")
    spans = figure_spans(text, doc["findings"])
    assert len(spans) == doc["summary"]["figures"]["accurate"]
    changed, replaced = reword(text, spans)
    assert replaced >= 2 * len(spans)  # the prose really changed, all around the figures
    assert re.findall(r"\d+", changed) == re.findall(r"\d+", text)  # not one number touched
    path = tmp_path / "companion.md"
    path.write_text(changed, encoding="utf-8")
    _, after = report(path)
    figures = [f for f in after["findings"] if f["kind"] == "figure"]
    located = [f for f in figures if f["status"] == "accurate"]
    assert not [f for f in figures if f["status"] == "inaccurate"]
    assert len(located) / len(figures) >= 0.95, [f["detail"] for f in figures
                                                 if f["status"] != "accurate"]


def test_planted_mistakes_in_the_companion_are_found_on_their_lines(tmp_path):
    text = COMPANION.read_text(encoding="utf-8")
    planted = (text.replace("standard deviation of a score is 8;", "standard deviation of a score is 9;")
                   .replace("≈ 1/9647", "≈ 1/9770")
                   .replace("[0.63, 0.23, 0.14]", "[0.63, 0.25, 0.14]")
                   .replace("it has 16,777,216;", "it has 16,000,000;")
                   .replace("y = F(x, \\{W_i\\}) + x", "y = F(x, \\{W_i\\}) \\cdot x"))
    assert planted.count("\n") == text.count("\n")
    path = tmp_path / "companion.md"
    path.write_text(planted, encoding="utf-8")
    code, doc = report(path)
    assert code == ExitCode.FAILED
    wrong = {(f["line"], f["printed"]) for f in doc["findings"]
             if f["kind"] == "figure" and f["status"] == "inaccurate"}
    assert wrong == {(line_of(planted, "score is 9"), "9"),
                     (line_of(planted, "1/9770"), "1/9770"),
                     (line_of(planted, "0.25, 0.14"), "[0.63, 0.25, 0.14]"),
                     (line_of(planted, "16,000,000"), "16,000,000")}
    [changed] = [f for f in doc["findings"] if f["kind"] == "formula" and f["status"] != "covered"]
    assert changed["status"] == "changed" and changed["line"] == line_of(planted, "\\cdot x")
    assert changed["claim"] == "residual-block-jacobian"
    assert not [f for f in doc["findings"] if f["status"] == "missing"]


def test_fix_write_restores_the_planted_figures(tmp_path):
    text = COMPANION.read_text(encoding="utf-8")
    planted = text.replace("≈ 1/9647", "≈ 1/9770").replace("≈ 60611", "≈ 61400")
    path = tmp_path / "companion.md"
    path.write_text(planted, encoding="utf-8")
    result = runner.invoke(app, ["check", str(path), "--fix", "--write", "-f", "json", "-j", "1"])
    assert result.exit_code == ExitCode.OK, result.output
    assert path.read_text(encoding="utf-8") == text
    after = json.loads(result.stdout)
    assert after["summary"]["passed"] and after["coverage"]["percent"] == 100.0
