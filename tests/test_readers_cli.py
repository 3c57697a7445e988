"""``tmath check`` end to end on a Markdown, a LaTeX and a notebook document pinned to a
built-in claim: the formula is judged, the figures are read, the location is printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CHECK_APP
from test_readers import notebook

FORMULA = r"E[q^T k] = 0, \quad \text{Var}(q^T k) = d_k"
PROSE = "so at d_k = 64 the spread is 8, and at d_k = 512 it is about 22.6."

MARKDOWN = f"""# Scores

## Their spread

<!-- tmath: dot-product-variance -->
Unit-variance components add up:

$$
{FORMULA}
$$

{PROSE}

```
print(21.6)  # $$\\text{{Var}}(q^T k) = 7$$
```
"""

LATEX = f"""\\documentclass{{article}}
\\begin{{document}}
\\section{{Their spread}}
% tmath: dot-product-variance
Unit-variance components add up:
\\begin{{equation}}
{FORMULA} \\label{{eq:spread}}
\\end{{equation}}
{PROSE.replace("d_k = 64", "$d_k = 64$").replace("d_k = 512", "$d_k = 512$")}
\\begin{{verbatim}}
21.6 $$\\text{{Var}}(q^T k) = 7$$
\\end{{verbatim}}
\\end{{document}}
"""

NOTEBOOK = [("markdown", "# Scores"), ("code", "print(21.6)"),
            ("markdown", f"## Their spread\n\n<!-- tmath: dot-product-variance -->\n"
                         f"$$\n{FORMULA}\n$$\n\n{PROSE}")]


def check_json(path: Path) -> dict:
    result = CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("name, text, formula_line, figure_line", [
    ("scores.md", MARKDOWN, 8, 12), ("scores.tex", LATEX, 6, 9)])
def test_check_reads_markdown_and_latex(tmp_path: Path, name, text, formula_line, figure_line):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    report = check_json(path)
    found = {(f["kind"], f["status"], f["line"]) for f in report["findings"]}
    assert ("formula", "covered", formula_line) in found
    assert ("figure", "accurate", figure_line) in found
    assert report["summary"]["passed"] and not any("cell" in f for f in report["findings"])


def test_check_locates_a_notebook_by_cell_and_line(tmp_path: Path):
    path = tmp_path / "scores.ipynb"
    path.write_text(notebook(NOTEBOOK), encoding="utf-8")
    report = check_json(path)
    found = {(f["kind"], f["status"], f.get("cell"), f["line"]) for f in report["findings"]}
    assert ("formula", "covered", 3, 4) in found and ("figure", "accurate", 3, 8) in found
    table = CliRunner().invoke(CHECK_APP, ["check", str(path)], env={"COLUMNS": "120"})
    assert table.exit_code == 0 and "cell 3, line 8" in table.output


def test_fix_write_corrects_the_notebook_cell(tmp_path: Path):
    path = tmp_path / "scores.ipynb"
    path.write_text(notebook(NOTEBOOK).replace("about 22.6", "about 21.6"), encoding="utf-8")
    before = json.loads(path.read_text(encoding="utf-8"))
    result = CliRunner().invoke(CHECK_APP, ["check", str(path), "--fix", "--write"])
    assert result.exit_code == 0, result.output
    after = json.loads(path.read_text(encoding="utf-8"))
    assert "about 22.6." in "".join(after["cells"][2]["source"])
    after["cells"][2]["source"] = before["cells"][2]["source"]
    assert after == before


def test_every_output_says_where_a_notebook_finding_is():
    from tmath.gate.findings import Finding, Report
    from tmath.render.gate import report_github, report_junit

    finding = Finding("figure", "inaccurate", "nb.ipynb", "1", 12, "c", label="spread",
                      printed="21.6", column=5)
    report = Report(("nb.ipynb",), [finding], [], 0, 1, cells={"nb.ipynb": ((1, 1), (10, 3))})
    assert report.where(finding) == "cell 3, line 3"
    d = report.to_dict()["findings"][0]
    assert (d["cell"], d["line"], d["column"]) == (3, 3, 5)
    github = report_github(report)
    assert "line=" not in github.splitlines()[0] and "(cell 3, line 3)" in github
    assert "figure cell 3, line 3" in report_junit(report)
    plain = Report(("a.md",), [Finding("figure", "inaccurate", "a.md", "1", 12, "c")], [], 0, 1)
    assert plain.where(plain.findings[0]) == "12" and "cell" not in plain.to_dict()["findings"][0]
