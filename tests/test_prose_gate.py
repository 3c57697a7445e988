"""The gate beyond formulas: prose statements anchored by their terms and counted in coverage,
and citations checked against the works the claims record. The documents and claims are
written for these tests; planted mistakes must be found on their lines, in every format."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer
from typer.testing import CliRunner

from tmath.cli import boundary
from tmath.cli.check import check
from tmath.exitcodes import ExitCode
from tmath.gate.document import parse_document
from tmath.engine.info import Source
from tmath.gate.arxiv import problem
from tmath.gate.citations import judge_citations
from tmath.gate.references import read_citations

app = typer.Typer()


@app.callback()
def _main() -> None:
    """A test app that registers the command the way tmath.cli does."""


app.command("check")(boundary(check))
runner = CliRunner()
NOTES = Path("/work/shared/notes/000_998e9f834dc347ba.txt")

CLAIMS = r'''
import sympy as sp
from tmath import Foil, Passage, Source, Statement, claim, prose

LOVELACE = Source(key="lovelace1843", authors=("Ada Lovelace", "Charles Babbage"),
                  title="Sketch of the Analytical Engine: Notes by the Translator", year=1843,
                  venue="Scientific Memoirs", arxiv="1003.0001")
MENABREA = Source(key="menabrea1842", authors=("Luigi Federico Menabrea",),
                  title="Notions sur la machine analytique", year=1842,
                  venue="Bibliothèque universelle de Genève", url="https://example.org/m")
HOLLERITH = Source(key="hollerith1889", authors=("Herman Hollerith",),
                   title="An Electric Tabulating System", year=1889, venue="The Quarterly",
                   url="https://example.org/h")

prose(id="engine-store-mill", kind="fact", section="1.2",
      title="The engine separates the store from the mill",
      statement="Numbers wait in the store and are operated on in the mill.",
      summary="Cited.", sources=(MENABREA.at("§2"),), passage=Passage(("store", "mill")))

prose(id="engine-loops", kind="heuristic", section="2.1",
      title="Loops make short programs do long work",
      statement="Repeating a group of cards lets a short program run for long.",
      summary="An observation.", reason="a judgement about programs",
      sources=(LOVELACE.at("Note G"),),
      not_in=((HOLLERITH, "his machine tabulates a census; it runs no programs"),),
      passage=Passage(("cards", ("loop", "repeat*"), "Note G")))


TWO_PLUS_TWO = sp.Add(2, 2, evaluate=False)


@claim(id="engine-adds", title="The engine adds", section="1.1",
       statement=Statement("2 + 2 = 4", sp.Integer(4), lhs=TWO_PLUS_TWO), premises=(),
       foils=(Foil("five", sp.Integer(5)),), formulas=(r"2 + 2 = 4",))
class EngineAdds:
    """Arithmetic."""
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(TWO_PLUS_TWO, "2 + 2").evaluate("add"))
    def check(self, value, experiment):
        experiment.holds(2 + 2 == value, "two and two")
'''

RIGHT = """\
# The engine

## 1. Arithmetic

### 1.1 Adding

$$2 + 2 = 4$$

### 1.2 Store and mill

Menabrea (1842) describes two parts: a store that holds the numbers and a mill that
combines them, as “Notions sur la machine analytique” sets out.

## 2. Programs

### 2.1 Repetition

Lovelace & Babbage (1843) point out in Note G that a group of cards may repeat, a loop that
lets a few cards do long work.

## References

- Lovelace & Babbage (1843). “Sketch of the Analytical Engine: Notes by the Translator.” arXiv:1003.0001
- Menabrea (1842). “Notions sur la machine analytique.”
"""


@pytest.fixture
def engine(claims_dir):
    return claims_dir({"engine.py": CLAIMS})


def write(tmp_path: Path, text: str, name: str = "engine.md") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def report(path: Path, folder: Path, *args: str) -> tuple[int, dict]:
    result = runner.invoke(app, ["check", str(path), "--claims", str(folder), "--no-builtin",
                                 "-f", "json", "-j", "1", *args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if fragment in line)


def of_kind(doc: dict, kind: str) -> list[dict]:
    return [f for f in doc["findings"] if f["kind"] == kind]


# -- statements ----------------------------------------------------------------------------------

def test_right_statements_and_citations_pass_with_full_coverage(tmp_path, engine):
    code, doc = report(write(tmp_path, RIGHT), engine)
    assert code == ExitCode.OK, doc["findings"]
    statements = of_kind(doc, "statement")
    assert {(f["claim"], f["status"], f["line"]) for f in statements} == {
        ("engine-store-mill", "anchored", line_of(RIGHT, "Menabrea (1842) describes")),
        ("engine-loops", "anchored", line_of(RIGHT, "in Note G"))}
    assert not of_kind(doc, "citation")
    assert doc["summary"]["citations"]["checked"] == 4  # two mentions, two references
    assert doc["summary"]["citations"]["right"] == 4
    assert doc["coverage"]["percent"] == 100.0 and doc["coverage"]["total"] == 3


def test_statement_coverage_is_counted_per_section_and_kind(tmp_path, engine):
    _, doc = report(write(tmp_path, RIGHT), engine)
    sections = {s["section"]: s["by_kind"] for s in doc["coverage"]["sections"]}
    assert sections["1"] == {"formula": {"covered": 1, "total": 1},
                             "figure": {"covered": 0, "total": 0},
                             "statement": {"covered": 1, "total": 1}}
    assert sections["2"]["statement"] == {"covered": 1, "total": 1}


def test_a_reworded_statement_is_still_anchored(tmp_path, engine):
    reworded = RIGHT.replace(
        "Lovelace & Babbage (1843) point out in Note G that a group of cards may repeat, a loop that\n"
        "lets a few cards do long work.",
        "Note G (Lovelace & Babbage, 1843) observes that cards can be made to repeat:\n"
        "with such loops, short decks run for hours.")
    assert reworded != RIGHT
    code, doc = report(write(tmp_path, reworded), engine)
    assert code == ExitCode.OK, doc["findings"]
    [loops] = [f for f in of_kind(doc, "statement") if f["claim"] == "engine-loops"]
    assert loops["status"] == "anchored" and loops["line"] == line_of(reworded, "Note G (Lovelace")


FRENCH = RIGHT.replace(
    "Menabrea (1842) describes two parts: a store that holds the numbers and a mill that\n"
    "combines them, as “Notions sur la machine analytique” sets out.",
    "Menabrea (1842) distingue le magasin, qui garde les nombres, du moulin, qui les\n"
    "combine (« Notions sur la machine analytique »).")


def test_a_glossary_lets_english_terms_find_a_statement_in_another_language(tmp_path, claims_dir):
    path = write(tmp_path, FRENCH)
    folder = claims_dir({"engine.py": CLAIMS})
    _, without = report(path, folder)
    [mill] = [f for f in of_kind(without, "statement") if f["claim"] == "engine-store-mill"]
    assert mill["status"] == "missing"  # the English terms alone do not match French prose
    (folder / "locale" / "fr").mkdir(parents=True)
    (folder / "locale" / "fr" / "glossary.json").write_text(
        '{"store": ["magasin"], "mill": ["moulin"]}', encoding="utf-8")
    _, with_glossary = report(path, folder)
    [mill] = [f for f in of_kind(with_glossary, "statement") if f["claim"] == "engine-store-mill"]
    assert mill["status"] == "anchored" and mill["line"] == line_of(FRENCH, "distingue le magasin")


def test_a_malformed_glossary_is_a_one_line_usage_error(tmp_path, claims_dir):
    folder = claims_dir({"engine.py": CLAIMS})
    (folder / "locale" / "fr").mkdir(parents=True)
    (folder / "locale" / "fr" / "glossary.json").write_text('{"store": "magasin"}', "utf-8")
    result = runner.invoke(app, ["check", str(write(tmp_path, RIGHT)), "--claims", str(folder),
                                 "--no-builtin", "-j", "1"])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "glossary.json" in result.output and "Traceback" not in result.output


def test_a_dropped_statement_is_missing_at_the_best_candidate_and_lowers_coverage(tmp_path, engine):
    dropped = RIGHT.replace("a store that holds the numbers and a mill that\ncombines them",
                            "a store that holds the numbers and a part that\ncombines them")
    code, doc = report(write(tmp_path, dropped), engine, "--min-coverage", "100")
    assert code == ExitCode.FAILED
    [missing] = [f for f in of_kind(doc, "statement") if f["status"] != "anchored"]
    assert missing["status"] == "missing" and missing["claim"] == "engine-store-mill"
    assert missing["line"] == line_of(dropped, "a store that holds")
    assert "lacks mill" in missing["detail"]
    assert doc["coverage"]["covered"] == 2 and doc["coverage"]["total"] == 3


def test_a_statement_whose_section_is_gone_is_missing_at_a_heading(tmp_path, engine):
    text = RIGHT.replace("### 2.1 Repetition\n\nLovelace & Babbage (1843) point out in Note G "
                         "that a group of cards may repeat, a loop that\nlets a few cards do long "
                         "work.\n", "")
    code, doc = report(write(tmp_path, text), engine)
    assert code == ExitCode.FAILED
    [missing] = [f for f in of_kind(doc, "statement") if f["claim"] == "engine-loops"]
    assert missing["status"] == "missing" and "no paragraph there uses them" in missing["detail"]
    assert missing["line"] == line_of(text, "## 2. Programs")


def test_uncovered_display_formulas_are_still_listed(tmp_path, engine):
    text = RIGHT.replace("$$2 + 2 = 4$$", "$$2 + 2 = 4$$\n\n$$3 + 3 = 6$$")
    code, doc = report(write(tmp_path, text), engine)
    assert code == ExitCode.OK  # an uncovered formula is a warning
    [uncovered] = [f for f in of_kind(doc, "formula") if f["status"] == "uncovered"]
    assert uncovered["line"] == line_of(text, "3 + 3 = 6")
    assert doc["coverage"]["total"] == 4 and doc["coverage"]["covered"] == 3


def test_terms_match_case_hyphens_plurals_and_prefixes_but_not_inside_words():
    from tmath.engine.model import ClaimInfo, Passage
    from tmath.gate.statements import locate, located

    document = parse_document("## 1. A\n\nPre norm stacks and LOOPS; the bnx layer.\n")
    info = ClaimInfo("c", "t", "1", "s", None, None, (), (), (), (), (), (), (), 0, None, "p",
                     None, "")
    assert located(locate(document, info, Passage(("pre-norm", "loop", "stack*"))),
                   Passage(("pre-norm", "loop", "stack*")))
    assert not locate(document, info, Passage(("BN", "norms"))).found


# -- citations -----------------------------------------------------------------------------------

PLANTS = [  # (what, old text, new text, status)
    ("wrong authors for an arXiv id", "- Lovelace & Babbage (1843). “Sketch",
     "- Hollerith & Babbage (1843). “Sketch", "authors"),
    ("misordered authors", "Lovelace & Babbage (1843) point out", "Babbage & Lovelace (1843) point out",
     "authors"),
    ("a misspelt name", "- Menabrea (1842).", "- Menabria (1842).", "authors"),
    ("a wrong year", "Menabrea (1842) describes", "Menabrea (1852) describes", "year"),
    ("a title that does not match", "Notes by the Translator.”", "Notes of the Translators.”",
     "title"),
    ("a result credited to the wrong work", "Lovelace & Babbage (1843) point out in Note G",
     "Hollerith (1889) points out in Note G", "misattributed"),
    ("a malformed arXiv id (month 13)", "arXiv:1003.0001", "arXiv:1013.0001", "arxiv"),
    ("a new-style id with too few digits", "arXiv:1003.0001", "arXiv:1003.001", "arxiv"),
    ("an old-style id with a bad month", "arXiv:1003.0001", "arXiv:math/9913001", "arxiv"),
    ("the arXiv id of another work", "arXiv:1003.0001", "arXiv:1003.0002", "arxiv"),
]


@pytest.mark.parametrize("what, old, new, status", PLANTS, ids=[p[0] for p in PLANTS])
def test_a_planted_citation_error_is_found_at_its_line(tmp_path, engine, what, old, new, status):
    assert RIGHT.count(old) == 1
    text = RIGHT.replace(old, new)
    code, doc = report(write(tmp_path, text), engine)
    assert code == ExitCode.FAILED
    found = [(f["status"], f["line"]) for f in of_kind(doc, "citation")]
    assert found == [(status, line_of(text, new.split("\n")[0]))], doc["findings"]


def test_a_shortened_reference_title_is_a_warning(tmp_path, engine):
    text = RIGHT.replace("Sketch of the Analytical Engine: Notes by the Translator.",
                         "Sketch of the Analytical Engine.")
    code, doc = report(write(tmp_path, text), engine)
    assert code == ExitCode.OK
    [short] = of_kind(doc, "citation")
    assert short["status"] == "shortened" and short["line"] == line_of(text, "- Lovelace")


def test_citation_findings_carry_their_lines_in_junit_and_github(tmp_path, engine):
    text = RIGHT.replace("Menabrea (1842) describes", "Menabrea (1852) describes")
    path = write(tmp_path, text)
    line = line_of(text, "Menabrea (1852)")
    junit = runner.invoke(app, ["check", str(path), "--claims", str(engine), "--no-builtin",
                                "-f", "junit", "-j", "1"])
    assert junit.exit_code == ExitCode.FAILED
    failures = [f for f in ET.fromstring(junit.stdout).iter("failure") if f.get("type") == "year"]
    assert len(failures) == 1 and f"{path}:{line}:" in failures[0].get("message")
    github = runner.invoke(app, ["check", str(path), "--claims", str(engine), "--no-builtin",
                                 "-f", "github", "-j", "1"])
    errors = [l for l in github.stdout.splitlines() if "year citation" in l]
    assert len(errors) == 1 and f",line={line}," in errors[0]
    table = runner.invoke(app, ["check", str(path), "--claims", str(engine), "--no-builtin",
                                "-j", "1"])
    assert "year" in table.output and "1842" in table.output


def test_citations_are_read_but_quotations_are_not_titles():
    document = parse_document(textwrap.dedent("""\
        Vaswani et al. (2017) “Attention Is All You Need” and (Hinton et al., 2015).
        He et al. (CVPR 2016) wrote one; Ba, Kiros & Hinton (2016) another.
        Vaswani et al. 在论文中写道：“We suspect that for large values the products grow.”
        LLaMA and Gemma are models. Jay Alammar, “The Illustrated Transformer”, is a post.
        [3] Tsai et al. (2019). “Transformer Dissection.” EMNLP. arXiv:1908.11775v2
        """))
    found = [(c.kind, c.line, c.surnames, c.et_al, c.year, c.title, c.arxiv)
             for c in read_citations(document)]
    assert found == [
        ("mention", 1, ("Vaswani",), True, 2017, "Attention Is All You Need", None),
        ("mention", 1, ("Hinton",), True, 2015, None, None),
        ("mention", 2, ("He",), True, 2016, None, None),
        ("mention", 2, ("Ba", "Kiros", "Hinton"), False, 2016, None, None),
        ("mention", 3, ("Vaswani",), True, None, None, None),
        ("mention", 4, ("Alammar",), False, None, "The Illustrated Transformer", None),
        ("reference", 5, ("Tsai",), True, 2019, "Transformer Dissection.", "1908.11775"),
    ]


@pytest.mark.parametrize("ident, why", [
    ("1706.03762", None), ("1706.03762v5", None), ("1412.6980", None), ("0704.0001", None),
    ("hep-th/9901001", None), ("math.GT/0309136v2", None), ("physics/0004057", None),
    ("1713.03762", "month 13"), ("1700.03762", "month 00"), ("1706.3762", "5 digits"),
    ("1412.69801", "4 digits"), ("0612.0001", "April 2007"), ("hep-th/9913001", "month 13"),
    ("math/0801001", "March 2007"), ("170603762", "neither"), ("1706.03762v", "neither"),
    ("hep-th/990100", "neither")])
def test_arxiv_ids_are_checked_for_form(ident, why):
    found = problem(ident)
    assert (found is None) if why is None else (why in found), found


def test_a_malformed_arxiv_id_anywhere_in_the_text_is_a_finding_that_names_the_right_one():
    text = RIGHT.replace("lets a few cards do long work.",
                         "lets a few cards do long work (see arXiv:1003.0001 and arXiv:1099.0001).")
    text = text.replace("Translator.” arXiv:1003.0001", "Translator.” arXiv:1003.00001")
    lovelace = Source(key="l", authors=("Ada Lovelace", "Charles Babbage"), year=1843,
                      title="Sketch of the Analytical Engine: Notes by the Translator",
                      arxiv="1003.0001")
    info = SimpleNamespace(id="engine-loops", sources=(lovelace,), not_in=())
    found, _ = judge_citations([parse_document(text, "engine.md")], [info])
    rows = [(f.status, f.line, f.printed) for f in found]
    assert rows == [("arxiv", line_of(text, "1099"), "arXiv:1099.0001"),
                    ("arxiv", line_of(text, "1003.00001"), "arXiv:1003.00001")]
    assert "arXiv:1003.0001" in found[1].detail  # the entry names the recorded work


def test_an_id_that_is_not_the_id_of_the_work_its_entry_names_is_a_finding():
    vaswani = Source(key="v", authors=("Ashish Vaswani", "Noam Shazeer"),
                     title="Attention Is All You Need", year=2017, arxiv="1706.03762")
    info = SimpleNamespace(id="attention", sources=(vaswani,), not_in=())
    text = ("# Notes\n\n## References\n\n"
            "- Vaswani et al. (2017). “Attention Is All You Need.” NIPS. arXiv:1706.03763\n"
            "- Vaswani et al. (2017). “Attention Is All You Need.” NIPS. arXiv:1706.03762v7\n")
    found, counts = judge_citations([parse_document(text, "n.md")], [info])
    [wrong] = found
    assert (wrong.status, wrong.line) == ("arxiv", 5) and wrong.failing
    assert "arXiv:1706.03762" in wrong.detail and "1706.03763" in wrong.detail
    assert counts == {"checked": 2, "unknown": 0, "right": 1}


@pytest.mark.skipif(not NOTES.is_file(), reason="the lecture notes are not on this machine")
def test_the_notes_citation_errors_are_found_on_their_lines():
    """The errors the research found in the notes (citation_errors.md A1–A5), and nothing
    else: wrong authors for arXiv:2406.09405 (lines 565, 700) and a wrong year for the same
    names (615), Tishby & Schwartz-Ziv misordered and misspelt (619, 701), the Tsai title
    (692), the Pre-LN result credited to 'Identity Mappings' (396), the binary-counter analogy
    credited to Alammar (127), the sharpness view credited to Ma & Yarats (615)."""
    result = runner.invoke(app, ["check", str(NOTES), "-f", "json", "-j", "1"])
    doc = json.loads(result.stdout)
    found = {(f["status"], f["line"]) for f in of_kind(doc, "citation")}
    assert found == {("misattributed", 127), ("misattributed", 396), ("authors", 565),
                     ("year", 615), ("misattributed", 615), ("authors", 619), ("title", 692),
                     ("authors", 700), ("shortened", 700), ("authors", 701)}
    assert doc["summary"]["statements"]["missing"] == 0


def test_the_statement_of_a_claim_that_did_not_pass_is_unverified(tmp_path, claims_dir):
    folder = claims_dir({"engine.py": CLAIMS + '''

@claim(id="engine-toy", kind="heuristic", reason="a toy", title="A toy that fails",
       section="1.2", statement=Statement("mean of U(0,1)", 0.7), premises=(),
       foils=(Foil("0.6", 0.6),), statistical_tests=1,
       passages=(Passage(("store", "numbers")),))
class EngineToy:
    """Its value is wrong on purpose."""
    def check(self, value, experiment):
        experiment.mean(lambda rng, m: rng.random(m), float(value), "mean of uniforms")
'''})
    code, doc = report(write(tmp_path, RIGHT), folder)
    assert code == ExitCode.FAILED
    [toy] = [f for f in of_kind(doc, "statement") if f["claim"] == "engine-toy"]
    assert toy["status"] == "unverified" and toy["line"] == line_of(RIGHT, "Menabrea (1842) desc")
    assert "did not verify (failed)" in toy["detail"]
