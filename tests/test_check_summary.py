"""``tmath check``'s summary line counts every status a formula can get, ``contradicts``
included: a document whose only formula problem is a contradiction does not read
"0 changed · 0 uncovered · 0 missing" above its FAILED line."""

from __future__ import annotations

from typer.testing import CliRunner

from tmath.cli import app
from tmath.exitcodes import ExitCode

from test_readme_cli import CHECKED_CLAIM

runner = CliRunner()


def summary_line(output: str) -> str:
    """The summary's formula counts, however the terminal wrapped them."""
    return " ".join(output.split("formulas:", 1)[1].split("coverage")[0].split())


def check(tmp_path, claims_dir, formula: str):
    folder = claims_dir({"faces.py": CHECKED_CLAIM})
    document = tmp_path / "faces.md"
    document.write_text(f"# 1. Faces\n\n$${formula}$$\n", encoding="utf-8")
    return runner.invoke(app, ["check", str(document), "--claims", str(folder), "--no-builtin",
                               "-j", "1"], terminal_width=200)


def test_a_contradicting_formula_is_counted_in_the_summary(tmp_path, claims_dir):
    done = check(tmp_path, claims_dir, r"\frac{1}{n} \sum_{j=1}^{n} j = \frac{n}{2}")
    assert done.exit_code == ExitCode.FAILED, done.output
    assert "contradicts" in done.output.split("formulas:")[0]   # the finding's row
    line = summary_line(done.output)
    assert line == "0 covered · 1 contradicts · 0 changed · 0 uncovered · 0 missing", line


def test_a_covered_formula_counts_no_contradiction(tmp_path, claims_dir):
    done = check(tmp_path, claims_dir, r"\frac{1}{n} \sum_{j=1}^{n} j = \frac{n+1}{2}")
    assert done.exit_code == ExitCode.OK, done.output
    line = summary_line(done.output)
    assert line == "1 covered · 0 contradicts · 0 changed · 0 uncovered · 0 missing", line
