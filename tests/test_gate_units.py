"""Each document its own unit: checked with others, in any order, a document gets exactly the
findings it gets alone (figures, formulas, citations, coverage), and the gate fails when any
document fails."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from conftest import CHECK_APP
from test_gate import DICE_CLAIMS, DOCS

from tmath import gate
from tmath.engine.figures import FigureResult
from tmath.engine.info import ClaimInfo, FigureInfo, Source
from tmath.exitcodes import ExitCode
from tmath.gate.document import parse_document

WORK = Source(key="w", authors=("Ada Quill", "Ben Rook"), title="Counting Pips on Fair Dice",
              year=2011, arxiv="1103.0123")

GOOD = """## 1. Dice

$$E[X] = \\frac{1+2+3+4+5+6}{6}$$

So the mean face is 3.5, and a double six comes up with chance 1/36.

## 2. Sources

- Quill & Rook (2011). “Counting Pips on Fair Dice.” arXiv:1103.0123
"""
BAD = (GOOD.replace("mean face is 3.5", "mean face is 3.6").replace("1/36", "1/38")
       .replace("(2011)", "(2013)").replace("\\frac{1+2+3+4+5+6}{6}", "\\frac{1+2+3+4+5}{6}"))


def _info() -> ClaimInfo:
    values = {"id": "dice", "title": "t", "section": "1", "statement": "s",
              "figures": (FigureInfo("mean face", "3.5", near="the mean face is"),
                          FigureInfo("double six", "1/36", near="double six comes up with chance")),
              "formulas": (r"E[X] = \frac{1+2+3+4+5+6}{6}",), "sources": (WORK,),
              "statistical_tests": 0, "path": "<test>", "summary": ""}
    for f in dataclasses.fields(ClaimInfo):
        if f.name not in values and f.default is dataclasses.MISSING:
            values[f.name] = () if "tuple" in str(f.type) else None
    return ClaimInfo(**values)


def _result(info: ClaimInfo) -> SimpleNamespace:
    figures = tuple(FigureResult(f.label, f.printed, (v,), "accurate", 0.0, "")
                    for f, v in zip(info.figures, (3.5, 1 / 36)))
    return SimpleNamespace(verdict="verified", figures=figures, reason="")


def _by_document(report) -> dict[str, list[tuple]]:
    found: dict[str, list[tuple]] = {}
    for f in report.findings:
        found.setdefault(f.document, []).append(
            (f.kind, f.status, f.line, f.label, f.printed, f.detail))
    return {path: sorted(rows) for path, rows in found.items()}


def test_each_document_gets_the_findings_it_gets_alone_in_every_order():
    info = _info()
    results = {"dice": _result(info)}
    texts = {"good.md": GOOD, "bad.md": BAD, "copy.md": GOOD}
    docs = {name: parse_document(text, name)
            for name, text in texts.items()}
    alone = {name: _by_document(gate.check([d], [info], results))[name]
             for name, d in docs.items()}
    assert {r[1] for r in alone["good.md"]} == {"accurate", "covered"}
    assert {(r[0], r[1]) for r in alone["bad.md"]} >= {
        ("figure", "inaccurate"), ("citation", "year"), ("formula", "changed")}
    assert [r[4] for r in alone["bad.md"] if r[1] == "inaccurate"] == ["1/38", "3.6"]
    for pair in itertools.permutations(docs, 2):
        report = gate.check([docs[n] for n in pair], [info], results)
        assert _by_document(report) == {n: alone[n] for n in pair}, pair
        assert report.passed == ("bad.md" not in pair), pair
        assert report.documents == pair


def test_min_coverage_holds_for_each_document():
    info = _info()
    results = {"dice": _result(info)}
    full, other = parse_document(GOOD, "full.md"), parse_document(GOOD, "other.md")
    half = parse_document(
        GOOD + "\n$$P(H) = \\frac{1}{2}$$\n\n$$P(T) = \\frac{1}{2}$$\n\n$$P(E) = 0$$\n",
        "half.md")
    assert gate.check([half], [info], results, min_coverage=70).passed is False
    report = gate.check([full, other, half], [info], results, min_coverage=70)
    assert report.coverage >= 70  # the total alone would hide it
    assert not report.passed and any("half.md" in n for n in report.notes)


@pytest.fixture
def dice(claims_dir):
    return claims_dir({"dice_claims.py": DICE_CLAIMS})


def _cli(paths, claims) -> tuple[int, dict[str, list[tuple]]]:
    result = CliRunner().invoke(CHECK_APP, ["check", *map(str, paths), "--claims", str(claims),
                                            "-f", "json", "-j", "1"])
    assert result.exit_code in (0, 1), result.output
    found: dict[str, list[tuple]] = {}
    for f in json.loads(result.stdout)["findings"]:
        found.setdefault(Path(f["document"]).name, []).append(
            (f["kind"], f["status"], f["line"], f.get("label"), f.get("printed")))
    return result.exit_code, {k: sorted(v) for k, v in found.items()}


def test_the_command_checks_each_document_alone(dice, tmp_path):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    bad = text.replace("就是 3.5", "就是 3.6").replace("1/36", "1/38")
    for name, body in (("good.txt", text), ("bad.txt", bad), ("copy.txt", text)):
        (tmp_path / name).write_text(body, encoding="utf-8")
    alone = {n: _cli([tmp_path / n], dice) for n in ("good.txt", "bad.txt", "copy.txt")}
    assert alone["good.txt"][0] == ExitCode.OK and alone["bad.txt"][0] == ExitCode.FAILED
    for pair in (("good.txt", "bad.txt"), ("bad.txt", "good.txt"), ("good.txt", "copy.txt")):
        code, found = _cli([tmp_path / n for n in pair], dice)
        assert found == {n: alone[n][1][n] for n in pair}, pair
        assert code == (ExitCode.FAILED if "bad.txt" in pair else ExitCode.OK), pair


def test_a_citation_year_and_a_reference_number_are_never_plain_figures():
    """A year in a citation and a bracketed reference number are not figures on their own
    (a head count must not be read from "(Devlin et al., 2019)" or "[12]")."""
    from tmath.gate.document import parse_document
    from tmath.gate.numbers import scan

    document = parse_document("BERT (Devlin et al., 2019) uses 12 heads [12], as Vaswani et "
                              "al. 2017 did with 8 (2017); the weights were [0.5, 0.25].")
    plain = {document.text[t.start:t.end]: t.plain
             for t in scan(document, 0, len(document.text), 50)[0]}
    assert plain == {"2019": False, "12": True, "[12]": False, "2017": False, "8": True,
                     "[0.5, 0.25]": True}
