"""A terminal that is pleasant at 80 columns, and uses the room it has at 200."""

from __future__ import annotations

from typer.testing import CliRunner

from tmath.cli import app
from tmath.engine.registry import load

runner = CliRunner()
CLAIMS = len(load())


def _lines(*args: str, columns: int) -> list[str]:
    result = runner.invoke(app, list(args), env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_verify_all_at_80_columns_takes_at_most_two_lines_per_claim():
    lines = _lines("verify", "all", columns=80)
    assert all(len(line) <= 80 for line in lines)
    assert len(lines) <= 2 * CLAIMS, f"{len(lines)} lines for {CLAIMS} claims"


def test_verify_all_at_200_columns_shows_the_details_on_one_line_each():
    lines = _lines("verify", "all", columns=200)
    rows = [line for line in lines if line[:1].strip() and line.split()[0] in
            {spec.id for spec in load()}]
    assert len(rows) == CLAIMS
    assert any(" vs " in row or "max |Δ|" in row for row in rows), "\n".join(rows[:5])  # a test result is shown


def test_list_never_breaks_an_id_at_80_columns():
    ids = {spec.id for spec in load()}
    lines = _lines("list", columns=80)
    firsts = [line.split()[0] for line in lines[1:] if line and not line.startswith(" ")]
    assert ids <= set(firsts)


def test_help_examples_fit_80_columns():
    lines = _lines("--help", columns=80)
    start = next(k for k, line in enumerate(lines) if "Examples" in line)
    examples = [line for line in lines[start + 1:start + 9] if line.strip().startswith("tmath")]
    assert len(examples) >= 5
    assert all(len(line.rstrip()) <= 80 for line in examples)


def test_plot_extras_are_named_in_help():
    for command in ("report", "explain"):
        text = "\n".join(_lines(command, "--help", columns=120))
        assert "tmath[plot]" in text
