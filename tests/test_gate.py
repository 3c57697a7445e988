"""The documentation gate: documents written for these tests, held to small user claims (and
to built-in claims they pin); planted errors must be reported exactly, on the right lines."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from conftest import CHECK_APP

from tmath.gate import document as document_module
from tmath import gate
from tmath.gate.anchoring import Scope, build_quotes, locate_all
from tmath.gate.formulas import CHANGED_SIMILARITY, normalise
from tmath.gate.numbers import scan
from tmath.gate.document import chinese_number, parse_document, read_document
from tmath.exitcodes import ExitCode
from tmath.engine.figures import FigureResult
from tmath.engine.model import ClaimInfo, FigureInfo

DOCS = Path(__file__).parent / "docs"

app = CHECK_APP
runner = CliRunner()

# Four small true claims about dice, anchored on the formulas and numbers of docs/dice.txt.
DICE_CLAIMS = r'''
import sympy as sp
from tmath import Figure, Foil, Statement, claim
from tmath.engine.experiment import tolerance

FACES = range(1, 7)
k = sp.Symbol("k", integer=True, positive=True)


@claim(id="die-face-mean", title="A fair die shows 7/2 on average", section="1.1",
       statement=Statement("E[X] = 7/2", sp.Rational(7, 2), lhs=sp.Sum(k, (k, 1, 6)) / 6),
       premises=("X is uniform on 1..6",), foils=(Foil("E[X] = 3", sp.Integer(3)),),
       figures=(Figure("mean face", "3.5", near=r"\frac{7}{2}", compute=lambda: sum(FACES) / 6),),
       formulas=(r"E[X] = \frac{1+2+3+4+5+6}{6} = \frac{7}{2}",))
class DieFaceMean:
    """The six faces averaged."""
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.Sum(k, (k, 1, 6)) / 6, "E[X]").evaluate("sum"))

    def check(self, value, experiment):
        # six additions and a division, on numbers below 22
        experiment.close(sum(FACES) / 6, float(value), tolerance(7, 22.0), "mean of the faces")


@claim(id="die-face-variance", title="A fair die has variance 35/12", section="1.2",
       statement=Statement("Var(X) = 35/12", sp.Rational(35, 12),
                           lhs=sp.Sum(k**2, (k, 1, 6)) / 6 - (sp.Sum(k, (k, 1, 6)) / 6) ** 2),
       premises=("X is uniform on 1..6",), foils=(Foil("Var(X) = 3", sp.Integer(3)),),
       figures=(Figure("variance", "≈ 2.92", near=r"\frac{35}{12}", compute=lambda: 35 / 12),
                Figure("standard deviation", "1.71", near="标准差约",
                       compute=lambda: (35 / 12) ** 0.5)),
       formulas=(r"\text{Var}(X) = E[X^2] - (E[X])^2 = \frac{91}{6} - \frac{49}{4} = \frac{35}{12}",))
class DieFaceVariance:
    """Second moment minus the squared mean."""
    def prove(self, value, proof):
        second = sp.Sum(k**2, (k, 1, 6)) / 6
        first = sp.Sum(k, (k, 1, 6)) / 6
        proof.conclude(value, proof.chain(second - first**2, "Var(X)").evaluate("sums"))

    def check(self, value, experiment):
        mean = sum(FACES) / 6
        var = sum((f - mean) ** 2 for f in FACES) / 6
        # about 20 operations on numbers below 7
        experiment.close(var, float(value), tolerance(20, 7.0), "variance of the faces")


@claim(id="two-dice-sum", title="Two dice sum to 7 on average", section="2.1",
       statement=Statement("E[X + Y] = 7", sp.Integer(7), lhs=2 * sp.Sum(k, (k, 1, 6)) / 6),
       premises=("X, Y are fair dice",), foils=(Foil("E[X + Y] = 6", sp.Integer(6)),),
       figures=(Figure("chance of a double six", "1/36", near="E[Y] = 7", compute=lambda: 1 / 36),
                Figure("chance of each face", "[0.17, 0.17, 0.17, 0.17, 0.17, 0.17]",
                       near="列表：", compute=lambda: [1 / 6] * 6)),
       formulas=(r"E[X + Y] = E[X] + E[Y] = 7",))
class TwoDiceSum:
    """Expectations add."""
    def prove(self, value, proof):
        one = sp.Sum(k, (k, 1, 6)) / 6
        proof.conclude(value, proof.chain(one + one, "E[X + Y]").evaluate("sums"))

    def check(self, value, experiment):
        total = sum(a + b for a in FACES for b in FACES) / 36
        # 36 additions of pairs and a division, on numbers below 300
        experiment.close(total, float(value), tolerance(80, 300.0), "mean of the 36 sums")


@claim(id="ten-dice-outcomes", title="Ten dice have 6^10 outcomes", section="2.2",
       statement=Statement("#outcomes = 6^10", sp.Integer(6) ** 10, lhs=sp.Product(6, (k, 1, 10))),
       premises=("each die has 6 faces",), foils=(Foil("10^6 outcomes", sp.Integer(10) ** 6),),
       figures=(Figure("outcomes of ten dice", "6047 万", near="一共有", compute=lambda: 6**10),
                Figure("outcomes of ten dice, exactly", "60,466,176", near="逐个数出来是",
                       compute=lambda: 6**10)))
class TenDiceOutcomes:
    """A product over the ten dice."""
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.Product(6, (k, 1, 10)), "outcomes").evaluate("product"))

    def check(self, value, experiment):
        experiment.holds(len({(a, b) for a in FACES for b in FACES}) ** 5 == int(value),
                         "counting pairs of dice five times")
'''


@pytest.fixture
def dice(claims_dir):
    return claims_dir({"dice_claims.py": DICE_CLAIMS})


def run(*args: str):
    return runner.invoke(app, ["check", *args])


def report(*args: str) -> tuple[int, dict]:
    result = run(*args, "--format", "json", "--jobs", "1")
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def figures(doc: dict, status: str | None = None) -> list[dict]:
    return [f for f in doc["findings"] if f["kind"] == "figure"
            and (status is None or f["status"] == status)]


def formulas(doc: dict, status: str | None = None) -> list[dict]:
    return [f for f in doc["findings"] if f["kind"] == "formula"
            and (status is None or f["status"] == status)]


def line_of(text: str, fragment: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if fragment in line)


def write(tmp_path: Path, text: str, name: str = "doc.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- the command on documents -------------------------------------------------------------------

def test_an_accurate_document_passes(dice):
    code, doc = report(str(DOCS / "dice.txt"), "--claims", str(dice))
    assert code == ExitCode.OK
    assert doc["document"] == str(DOCS / "dice.txt")
    assert {f["status"] for f in figures(doc)} == {"accurate"} and len(figures(doc)) == 7
    assert len(formulas(doc, "covered")) == 3
    [uncovered] = formulas(doc, "uncovered")
    assert uncovered["section"] == "3" and uncovered["formula"] == r"P(H) = \frac{1}{2}"
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    [mean] = [f for f in figures(doc) if f["label"] == "mean face"]
    assert (mean["line"], mean["section"], mean["printed"], mean["expected"]) == \
        (line_of(text, "平均点数"), "1.1", "3.5", 3.5)
    [big] = [f for f in figures(doc) if f["label"] == "outcomes of ten dice"]
    assert big["printed"] == "6047 万" and big["expected"] == 6**10
    coverage = doc["coverage"]
    assert (coverage["covered"], coverage["total"]) == (10, 11)  # 7 figures, 3 of 4 formulas
    assert [s["section"] for s in coverage["sections_without_claims"]] == ["3"]
    assert doc["summary"]["passed"] is True


def test_planted_wrong_figures_are_reported_exactly_on_their_lines(dice, tmp_path):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    planted = (text.replace("平均点数就是 3.5", "平均点数就是 3.6")
                   .replace("1/36", "1/38")
                   .replace("[0.17, 0.17, 0.17", "[0.17, 0.20, 0.17")
                   .replace("6047 万", "6147 万"))
    code, doc = report(str(write(tmp_path, planted)), "--claims", str(dice))
    assert code == ExitCode.FAILED
    wrong = {(f["label"], f["line"], f["printed"]) for f in figures(doc, "inaccurate")}
    assert wrong == {
        ("mean face", line_of(planted, "3.6"), "3.6"),
        ("chance of a double six", line_of(planted, "1/38"), "1/38"),
        ("chance of each face", line_of(planted, "0.20"), "[0.17, 0.20, 0.17, 0.17, 0.17, 0.17]"),
        ("outcomes of ten dice", line_of(planted, "6147"), "6147 万"),
    }
    assert len(figures(doc, "accurate")) == 3 and not formulas(doc, "changed")
    [double_six] = [f for f in figures(doc) if f["label"] == "chance of a double six"]
    assert double_six["expected"] == pytest.approx(1 / 36)
    assert double_six["relative_error"] == pytest.approx(1 - 36 / 38)


def test_rounding_within_half_a_printed_unit_is_accurate(dice, tmp_path):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    # 35/12 = 2.9166…: "2.9" is right to one decimal; 6^10 = 6046.6万: "6000 万" is right to ±50万
    loose = text.replace("$\\approx 2.92$", "$\\approx 2.9$").replace("6047 万", "6000 万")
    code, doc = report(str(write(tmp_path, loose)), "--claims", str(dice))
    assert code == ExitCode.OK, [f for f in figures(doc) if f["status"] != "accurate"]


def test_a_changed_formula_is_reported_with_both_versions(dice, tmp_path):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    edited = text.replace("E[X + Y] = E[X] + E[Y] = 7", "E[X + Y] = E[X] \\cdot E[Y] = 7")
    code, doc = report(str(write(tmp_path, edited)), "--claims", str(dice))
    assert code == ExitCode.FAILED
    [changed] = formulas(doc, "changed")
    assert changed["claim"] == "two-dice-sum" and changed["line"] == line_of(edited, "\\cdot E[Y]")
    assert changed["formula"] == "E[X + Y] = E[X] \\cdot E[Y] = 7"
    assert changed["recorded"] == "E[X + Y] = E[X] + E[Y] = 7"
    assert changed["similarity"] >= CHANGED_SIMILARITY
    assert {f["status"] for f in figures(doc)} == {"accurate"}


def test_trivial_spelling_differences_still_cover(dice, tmp_path):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    respelled = text.replace(r"\frac{91}{6} - \frac{49}{4}", r"\dfrac{91}{6}\, -\, \dfrac{49}{4}")
    respelled = respelled.replace("(E[X])^2", r"\left(E[X]\right)^{2}")
    code, doc = report(str(write(tmp_path, respelled)), "--claims", str(dice))
    assert code == ExitCode.OK
    assert len(formulas(doc, "covered")) == 3


def test_a_removed_section_leaves_its_figures_missing_and_lowers_coverage(dice, tmp_path):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    start, end = text.index("二、两颗骰子"), text.index("三、硬币")
    shorter = text[:start] + text[end:]
    _, before = report(str(DOCS / "dice.txt"), "--claims", str(dice))
    code, doc = report(str(write(tmp_path, shorter)), "--claims", str(dice))
    assert code == ExitCode.FAILED
    missing = figures(doc, "missing")
    assert {f["claim"] for f in missing} == {"two-dice-sum", "ten-dice-outcomes"}
    assert len(missing) == 4 and all(f["printed"] is None for f in missing)
    assert {f["section"] for f in missing} == {"2.1", "2.2"}
    [lost] = formulas(doc, "missing")
    assert lost["claim"] == "two-dice-sum"
    assert doc["coverage"]["percent"] < before["coverage"]["percent"]
    assert len(figures(doc, "accurate")) == 3


def test_min_coverage_fails_the_gate_below_it(dice):
    path = str(DOCS / "dice.txt")
    assert run(path, "--claims", str(dice), "--min-coverage", "90").exit_code == ExitCode.OK
    below = run(path, "--claims", str(dice), "--min-coverage", "95")
    assert below.exit_code == ExitCode.FAILED
    assert "coverage below the minimum" in below.output


def test_markdown_document_pinned_to_builtin_claims(tmp_path):
    empty = tmp_path / "no_claims"
    empty.mkdir()
    code, doc = report(str(DOCS / "scaling.md"), "--claims", str(empty))
    assert code == ExitCode.OK
    text = (DOCS / "scaling.md").read_text(encoding="utf-8")
    assert {(f["printed"], f["line"]) for f in figures(doc)} == {
        ("8", line_of(text, "standard deviation 8")), ("22.6", line_of(text, "22.6"))}
    assert [(f["status"], f["claim"]) for f in formulas(doc)] == [
        ("covered", "dot-product-variance"), ("uncovered", None)]  # the fenced $$ is code
    assert doc["summary"]["claims"] == 1  # only the pinned claim, not all built-in ones
    assert [s["section"] for s in doc["coverage"]["sections_without_claims"]] == ["2"]


def test_an_anchor_naming_no_claim_fails(tmp_path, dice):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8")
    pinned = text.replace("1.2 方差\n", "1.2 方差\n<!-- tmath: die-face-varience -->\n")
    code, doc = report(str(write(tmp_path, pinned)), "--claims", str(dice))
    assert code == ExitCode.FAILED
    [anchor] = [f for f in doc["findings"] if f["kind"] == "anchor"]
    assert anchor["status"] == "unknown" and anchor["line"] == line_of(pinned, "varience")


def test_several_documents_are_checked_together(dice):
    code, doc = report(str(DOCS / "dice.txt"), str(DOCS / "scaling.md"), "--claims", str(dice))
    assert code == ExitCode.OK
    assert doc["document"] == [str(DOCS / "dice.txt"), str(DOCS / "scaling.md")]
    pinned = [f for f in figures(doc) if f["claim"] == "dot-product-variance"]
    assert {f["document"] for f in pinned} == {str(DOCS / "scaling.md")}
    assert len(figures(doc, "accurate")) == 9


def test_a_broken_claims_module_exits_3_and_the_rest_is_checked(claims_dir):
    folder = claims_dir({"dice_claims.py": DICE_CLAIMS, "broken.py": "def oops(:\n"})
    result = run(str(DOCS / "dice.txt"), "--claims", str(folder), "-f", "json")
    assert result.exit_code == ExitCode.LOAD_ERROR
    doc = json.loads(result.stdout)
    assert doc["load_errors"][0]["path"].endswith("broken.py")
    assert {f["status"] for f in figures(doc)} == {"accurate"}


def test_junit_and_github_formats(dice, tmp_path):
    text = (DOCS / "dice.txt").read_text(encoding="utf-8").replace("1/36", "1/38")
    path = write(tmp_path, text)
    junit = run(str(path), "--claims", str(dice), "-f", "junit", "-o", str(tmp_path / "r.xml"))
    assert junit.exit_code == ExitCode.FAILED
    root = ET.fromstring((tmp_path / "r.xml").read_text(encoding="utf-8"))
    suites = list(root.iter("testsuite"))
    assert sum(int(s.get("failures")) for s in suites) == 1
    assert sum(int(s.get("skipped")) for s in suites) == 1
    [failure] = root.iter("failure")
    assert failure.get("type") == "inaccurate" and "1/38" in failure.get("message")
    github = run(str(path), "--claims", str(dice), "-f", "github")
    errors = [l for l in github.stdout.splitlines() if l.startswith("::error")]
    warnings = [l for l in github.stdout.splitlines() if l.startswith("::warning")]
    assert len(errors) == 1 and f"line={line_of(text, '1/38')}," in errors[0]
    assert f"file={path}" in errors[0] and "printed 1/38" in errors[0]
    assert len(warnings) == 1 and "uncovered" in warnings[0]


def test_table_is_grouped_by_section(dice):
    result = run(str(DOCS / "dice.txt"), "--claims", str(dice))
    assert result.exit_code == ExitCode.OK
    out = result.stdout
    assert out.index("§1 单颗骰子") < out.index("§2 两颗骰子") < out.index("§3 硬币")
    assert "no claims" in out and "PASSED" in out


# -- usage errors -------------------------------------------------------------------------------

def test_missing_file_and_folder_are_usage_errors(tmp_path):
    missing = run(str(tmp_path / "nope.md"))
    assert missing.exit_code == ExitCode.USAGE and "not found" in missing.output
    folder = run(str(tmp_path))
    assert folder.exit_code == ExitCode.USAGE and "is a folder" in folder.output


def test_binary_and_non_utf8_files_are_usage_errors(tmp_path):
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    result = run(str(binary))
    assert result.exit_code == ExitCode.USAGE and "not a text file" in result.output
    legacy = tmp_path / "gbk.txt"
    legacy.write_bytes("一、骰子\n均值是 3.5\n".encode("gbk"))
    result = run(str(legacy))
    assert result.exit_code == ExitCode.USAGE and "not UTF-8" in result.output


def test_a_document_over_the_size_limit_is_a_usage_error(tmp_path):
    big = tmp_path / "big.md"
    big.write_bytes(b"a" * (document_module.MAX_BYTES + 1))
    result = run(str(big))
    assert result.exit_code == ExitCode.USAGE and "larger than the 5 MB" in result.output


def test_bad_options_are_usage_errors(tmp_path):
    doc = str(DOCS / "dice.txt")
    assert run(doc, "--min-coverage", "120").exit_code == ExitCode.USAGE
    assert run(doc, "--format", "xml").exit_code == ExitCode.USAGE
    nowhere = run(doc, "-o", str(tmp_path / "no" / "such" / "report.json"))
    assert nowhere.exit_code == ExitCode.USAGE and "does not exist" in nowhere.output
    assert run(doc, "--claims", str(tmp_path / "none")).exit_code == ExitCode.USAGE


def test_help_teaches_the_command():
    result = run("--help")
    assert result.exit_code == 0
    for word in ("--min-coverage", "--claims", "junit", "github", "Exit codes", "tmath:"):
        assert word in result.output


# -- reading documents --------------------------------------------------------------------------

def test_chinese_numerals():
    assert [chinese_number(t) for t in ("一", "九", "十", "十五", "二十", "二十一", "一百")] == \
        [1, 9, 10, 15, 20, 21, 100]
    assert chinese_number("abc") is None


def test_sections_from_chinese_and_decimal_headings():
    doc = parse_document("前言 2.5\n一、甲\n1.1 子节\n正文\n二、乙\n一、列表里的一项\n2.1 另一个\n")
    assert [(s.number, s.line) for s in doc.sections] == [("1", 2), ("1.1", 3), ("2", 5), ("2.1", 7)]
    assert doc.section_at(doc.line_starts[5]).number == "2"  # "一、" inside §2 is not a heading
    assert doc.section("1").end == doc.line_starts[4]


def test_markdown_headings_numbered_by_order_when_unnumbered():
    doc = parse_document("# Title\n## Alpha\n### One\n### Two\n## Beta\ntext\n")
    assert [(s.number, s.title) for s in doc.sections] == [
        (None, "Title"), ("1", "Alpha"), ("1.1", "One"), ("1.2", "Two"), ("2", "Beta")]


def test_glued_display_formulas_and_inline_math():
    doc = parse_document("x $a$$b$ y\n$$A = 1$$$$B = 2$$\n$$\nC\n$$\n价格 \\$5 和 $$ 未闭合\n")
    assert [(m.latex, m.line) for m in doc.formulas] == [("A = 1", 2), ("B = 2", 2), ("C", 3)]
    assert [m.latex for m in doc.inline] == ["a", "b"]
    assert doc.unclosed_math == (6,)


@pytest.mark.parametrize("text, form, wanted", [
    ("ω = 1/10000^0 = 1", "single", "1"),              # 10000 is a base, 0 an exponent
    ("周期 = 2π ≈ 6.28", "single", "6.28"),             # 2π is a coefficient
    ("GPT-2 用 12 层", "single", "12"),                  # a name, not a number
    ("Section 3.2.1 gives 42", "single", "42"),          # a version number
    ("x_1 + 10^{-9} + 7", "single", "7"),
    ("有 1,600 万个", "single", "1,600 万"),
    ("只要 92% 就够", "single", "92%"),
    ("softmax → [≈1.00, ≈0.00]", "list", "[≈1.00, ≈0.00]"),
    ("ω ≈ \\frac{1}{100}", "fraction", "\\frac{1}{100}"),
    ("[B, T, D] 然后 [0.5, 0.5]", "list", "[0.5, 0.5]"),
])
def test_which_numbers_are_figures(text, form, wanted):
    doc = parse_document(text)
    tokens, _ = scan(doc, 0, len(text), 100)
    token = next(t for t in tokens if t.form == form and t.plain)
    assert text[token.start:token.end] == wanted


def locate_one(doc, near: str, printed: str, truth=None) -> str | None:
    """Where a single figure is anchored in ``doc`` (its text), or None."""
    scope = Scope(doc, 0, len(doc.text), "§1", 0.0, 2)
    quotes = build_quotes([(("c", 0), FigureInfo("f", printed, near), [scope], truth)])
    located = locate_all(quotes)[("c", 0)].located
    return doc.text[located.token.start:located.token.end] if located else None


def test_the_anchor_locates_the_figure_after_it_or_the_one_it_ends_with():
    doc = parse_document("一、甲\n当 $d = 64$ 时是 8，$d = 4$ 时是 2。\n用 0.1 的平滑\n")
    assert locate_one(doc, "d = 64", "8") == "8"
    assert locate_one(doc, "d = 4", "2") == "2"
    assert locate_one(doc, "d = 64", "9") == "8"  # the document changed it: read, then judged
    assert locate_one(doc, "d = 4", "3") == "2"
    assert locate_one(doc, "用 0.1", "0.1") == "0.1"  # the anchor itself holds the figure
    assert locate_one(doc, "x = 7", "5") is None  # neither the quote nor its context is there


def test_normalised_formulas():
    same = [r"\left( \frac{a}{b} \right)^{2}", r"(\dfrac{a}{b})^2", r"\left(\frac{a}{b}\right)^2 ,"]
    assert len({normalise(f) for f in same}) == 1
    assert normalise(r"\mathrm{Var}(x)\,") == normalise(r"\text{Var}(x)")
    assert normalise(r"\frac{a}{b}") != normalise(r"\frac{b}{a}")


# -- safety ----------------------------------------------------------------------------------------

def _fake(info: ClaimInfo, values) -> SimpleNamespace:
    figures = tuple(FigureResult(f.label, f.printed, (v,), "accurate", 0.0, "")
                    for f, v in zip(info.figures, values))
    return SimpleNamespace(verdict="verified", figures=figures, reason="")


def _info(figures=(), formulas=(), section="1") -> ClaimInfo:
    values = {"id": "fake-claim", "title": "t", "section": section, "statement": "s",
              "figures": tuple(figures), "formulas": tuple(formulas), "statistical_tests": 0,
              "path": "<test>", "summary": ""}
    for f in dataclasses.fields(ClaimInfo):
        if f.name not in values and f.default is dataclasses.MISSING:
            values[f.name] = () if "tuple" in str(f.type) else None
    return ClaimInfo(**values)


def test_hostile_input_is_read_and_judged(tmp_path):
    lines = ["一、开始 9", "$$" + "x" * 30_000, "[" + " " * 9_000 + "x", "1" * 50_000,
             ("[0.1, " * 2_000), "$" * 20_000, "<!-- tmath: " + "a" * 5_000]
    lines += ["9 " * 3_000 + "$$\\left(" + "a+" * 500 + "\\right)$$"] * 300
    path = write(tmp_path, "\n".join(lines), "hostile.md")
    assert path.stat().st_size < document_module.MAX_BYTES
    info = _info([FigureInfo("f", "[1, 2]", near="不存在的锚"), FigureInfo("g", "9", near="开始")],
                 [r"\left(" + "a+" * 499 + r"b\right)"])
    doc = read_document(path)  # how fast: benchmarks/bench.py --gate, never a timed test
    result = gate.check([doc], [info], {"fake-claim": _fake(info, [1.0, 9.0])})
    assert doc.truncated_lines  # the 50 000-character line was cut
    statuses = {f.status for f in result.findings if f.kind == "figure"}
    assert statuses == {"missing", "accurate"}


def test_document_text_is_never_executed(tmp_path):
    marker = tmp_path / "pwned"
    payload = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    doc = parse_document(f"一、x\n$${payload}$$\n值为 {payload} 1\n")
    info = _info([FigureInfo("f", "1", near=payload)], [payload + " "])
    result = gate.check([doc], [info], {"fake-claim": _fake(info, [1.0])})
    assert not marker.exists()
    assert [f.status for f in result.findings] == ["covered", "accurate"]


# -- which claims hold a document ------------------------------------------------------------------

COMPANION = Path(__file__).resolve().parents[1] / "docs" / "companion.md"


def test_a_document_no_claim_set_vouches_for_is_read_for_what_the_builtin_claims_prove():
    result = run(str(DOCS / "unrelated_chapter.md"), "--format", "json")
    assert result.exit_code == ExitCode.OK   # nothing recognised: not a usage error
    doc = json.loads(result.stdout)
    [recognition] = doc["recognition"]   # it prints the softmax: recognised, nothing wrong
    assert recognition["claims"] == ["softmax-boltzmann"] and recognition["contradicts"] == 0
    assert doc["summary"]["passed"]


def test_with_claims_given_a_document_they_do_not_vouch_for_is_one_line_and_exit_2(dice):
    result = run(str(DOCS / "unrelated_chapter.md"), "--claims", str(dice))
    assert result.exit_code == ExitCode.USAGE
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) <= 3, result.output
    assert "no claim set vouches for" in result.output and "--claims DIR" in result.output


def test_claims_add_to_the_builtin_claims_and_each_set_holds_its_own_document(dice):
    code, doc = report(str(DOCS / "dice.txt"), str(COMPANION), "--claims", str(dice))
    assert code == ExitCode.OK
    held = {(f["document"], f["claim"]) for f in figures(doc)}
    assert {c for d, c in held if d == str(DOCS / "dice.txt")} == {
        "die-face-mean", "die-face-variance", "two-dice-sum", "ten-dice-outcomes"}
    assert "dot-product-variance" in {c for d, c in held if d == str(COMPANION)}
    assert not [f for f in doc["findings"] if f["status"] == "missing"]


def test_no_builtin_uses_only_the_given_folders(dice):
    only = run(str(COMPANION), "--claims", str(dice), "--no-builtin")
    assert only.exit_code == ExitCode.USAGE and "no claim set vouches" in only.output
    assert "the built-in claims" not in only.output
    code, doc = report(str(DOCS / "dice.txt"), "--claims", str(dice), "--no-builtin")
    assert code == ExitCode.OK and doc["summary"]["claims"] == 4


def test_builtin_is_a_deprecated_no_op(dice):
    result = run(str(DOCS / "dice.txt"), "--claims", str(dice), "--builtin", "-j", "1")
    assert result.exit_code == ExitCode.OK and "--builtin is no longer needed" in result.output


def test_a_document_nothing_vouches_for_fails_when_checked_with_others(dice):
    code, doc = report(str(DOCS / "dice.txt"), str(DOCS / "unrelated_chapter.md"),
                       "--claims", str(dice))
    assert code == ExitCode.FAILED
    [unbound] = [f for f in doc["findings"] if f["kind"] == "document"]
    assert unbound["status"] == "unbound"
    assert unbound["document"] == str(DOCS / "unrelated_chapter.md")


def test_with_output_the_table_goes_to_the_file_and_one_summary_line_to_the_screen(dice, tmp_path):
    result = run(str(DOCS / "dice.txt"), "--claims", str(dice), "-o", str(tmp_path / "r.txt"))
    assert result.exit_code == ExitCode.OK
    written = (tmp_path / "r.txt").read_text(encoding="utf-8")
    assert "PASSED" in written and len(written.splitlines()) > 3
    shown = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(shown) <= 2 and shown[0].startswith(f"wrote {tmp_path / 'r.txt'}")


def test_a_recorded_formula_printed_inline_is_found_there():
    """A claim may record a formula the document prints inside a sentence: it is covered on
    that line, not missing; printed nowhere, it is missing."""
    info = _info(formulas=[r"\omega_i = 1 / 10000^{2i/d}"])
    inline = parse_document("一、频率\n频率是 $\\omega_i = 1 / 10000^{2i/d}$，随 i 变小。\n")
    found = [f for f in gate.check([inline], [info], {"fake-claim": _fake(info, [])}).findings
             if f.kind == "formula"]
    assert [(f.status, f.line) for f in found] == [("covered", 2)]
    elsewhere = parse_document("一、频率\n频率是 $\\omega_i = 1 / 10000^{i/d}$。\n")
    found = [f for f in gate.check([elsewhere], [info], {"fake-claim": _fake(info, [])}).findings
             if f.kind == "formula"]
    assert [f.status for f in found] == ["missing"]
