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
