"""``tmath explain`` as a page a learner reads (issue 28): steps on one line, one notation, the
minus sign −, named foils in full and near-misses in one table, vetted rules apart from
premises, several ids with the worst exit code, and Chinese pages without stray English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tmath.cli import app
from tmath.engine.results import ProofResult, ProofStep
from tmath.exitcodes import ExitCode
from tmath.i18n import Translator
from tmath.render.derivation import HEADINGS, used_parts
from tmath.render.rule_conditions import SIDE_CONDITIONS

from conftest import die_claim

runner = CliRunner()
WIDTH = {"COLUMNS": "80"}
PAGES = ("dot-product-variance", "softmax-jacobian", "product-term-moments")
TWO_D = re.compile(r"[⎛⎜⎝⎞⎟⎠⎡⎢⎣⎤⎥⎦‾╲╱]")
ENTRY_IN_BRACKETS = re.compile(r"\b(?!E\[)[A-Za-z]\[[a-z](?:, ?[a-z])*\]")
"""q[i] or A[i, j] (E[x] is an expectation)."""
ASCII_MINUS = re.compile(r"(?<![\w\-])-(?=[\d∞(√A-Za-zα-ω])|(?<= )-(?= )")


def pages(output: str) -> dict[str, str]:
    """Each page of a several-id explain, by claim id (a page starts with its id)."""
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r"^([a-z0-9-]+)  §", output, flags=re.M)]
    return {claim_id: output[start:(starts[k + 1][0] if k + 1 < len(starts) else None)]
            for k, (start, claim_id) in enumerate(starts)}


@pytest.fixture(scope="module")
def english():
    result = runner.invoke(app, ["explain", *PAGES], env=WIDTH)
    assert result.exit_code == 0, result.output
    return pages(result.output)


def test_several_ids_give_one_page_each_in_80_columns(english):
    assert set(english) == set(PAGES)
    for page in english.values():
        assert max(len(line.rstrip()) for line in page.splitlines()) <= 80


def test_a_step_that_fits_is_one_line_of_linear_math(english):
    page = english["dot-product-variance"]
    assert re.search(r"1\. ○ E\[Σᵢ₌₁\^\{dₖ\} kᵢ·qᵢ\] = Σᵢ₌₁\^\{dₖ\} E\[kᵢ·qᵢ\]\s+"
                     r"linearity of expectation\n", page)
    for claim_id, page in english.items():
        assert not TWO_D.search(page), f"2D layout in {claim_id} at 80 columns"


def test_a_chain_of_equalities_reads_on_from_the_step_above(english):
    page = english["dot-product-variance"]
    assert re.search(r"  2\. ↳ = Σᵢ₌₁\^\{dₖ\} 0\s+by claim product-term-moments\n", page)
    assert re.search(r"  3\. ✓ = 0\s+sum of d_k zeros", page)
    assert "  7. ✓ E[qᵀk]: 0 = 0" in page  # a comparison named by its chain shows both sides


def test_a_long_step_breaks_before_its_relation_not_into_2d(english):
    lines = english["softmax-jacobian"].splitlines()
    first = next(k for k, line in enumerate(lines) if line.startswith("  1. ✓"))
    assert lines[first + 1].strip().startswith("∂/∂zᵢ exp(zᵢ)")
    assert lines[first + 2].strip().startswith("= ")


def test_one_notation_entries_are_subscripts(english):
    for claim_id, page in english.items():
        assert not ENTRY_IN_BRACKETS.search(page), (claim_id, ENTRY_IN_BRACKETS.search(page))
    assert "kᵢ·qᵢ" in english["dot-product-variance"]


def _math_lines(page: str) -> list[str]:
    """The page without the lines that hold commands or paths (options keep their --)."""
    return [line for line in page.splitlines()
            if not re.match(r"\s*(reproduce|defined in)\b", line)]


def test_no_ascii_hyphen_as_a_minus_in_math_or_numbers(english):
    for claim_id, page in english.items():
        for line in _math_lines(page):
            assert not ASCII_MINUS.search(line), (claim_id, line)
    assert "= −pᵢ·pⱼ" in english["softmax-jacobian"]
    assert "= −1 " in english["dot-product-variance"]  # the automatic "one less" foil


def test_named_foils_in_full_near_misses_one_row_each(english):
    page = english["dot-product-variance"]
    assert "✓ Var(qᵀk) = √d_k\n    proof: Var(qᵀk): derived dₖ, stated √dₖ; numerically" in page
    lines = page.splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("automatic near-misses"))
    count = int(re.search(r"\((\d+)\)", lines[head]).group(1))
    assert count >= 4
    assert re.match(r"\s*near-miss\s+changed statement\s+rejected by", lines[head + 1])
    rows = lines[head + 2:head + 2 + count]
    assert all(re.match(r"✓\s+\S.*\S\s+proof · check$", row.rstrip()) for row in rows), rows
    assert lines[head + 2 + count].startswith("sources and related claims")
    kinds = {row.split("  ")[1].strip() for row in rows}
    assert {"one more", "one less", "sign flipped"} <= kinds
    assert "[automatic]" not in page


def test_vetted_rules_are_not_listed_as_premises(english):
    page = english["dot-product-variance"]
    assert "taken as premises" not in page and "premises the steps use" not in page
    rules = page.split("vetted rules of the engine (checked at each use):\n")[1]
    assert rules.startswith("  ○ linearity of expectation — if the constants are not random\n"
                            "  ○ independent terms: variances add — if the terms share no "
                            "random variable\n")
    jacobian = english["softmax-jacobian"]
    assert "premises the steps use: p = softmax(z)" in jacobian
    assert "vetted rules" not in jacobian


def test_rules_premises_and_assumptions_each_under_their_own_heading():
    steps = (ProofStep("c", "a", "b", "linearity of expectation", "rule"),
             ProofStep("", "", "", "premise: x = 2", "premise"),
             ProofStep("c", "b", "c", "a claim-local rule", "assumed"))
    proof = ProofResult("proved-assuming", steps, rests_on=("rule: a claim-local rule",))
    console = Console(width=80, record=True)
    for part in used_parts(proof, Translator()):
        console.print(part)
    text = console.export_text()
    rules, premises, rests = (text.index(h) for h in HEADINGS)
    assert rules < text.index("linearity of expectation") < premises
    assert premises < text.index("x = 2") < rests
    assert text.index("a claim-local rule") > rests


def test_every_vetted_rule_of_the_library_has_its_side_condition():
    source = Path(__file__).resolve().parents[1] / "tmath" / "engine"
    names = set()
    for path in source.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r'(?:library_rule|_vetted)\(\s*N_\("([^"]+)"\)', text))
        names |= set(re.findall(r'name = N_\("([^"]+)"\)\n\s+return library_rule', text))
    assert len(names) >= 20
    assert not names - set(SIDE_CONDITIONS), sorted(names - set(SIDE_CONDITIONS))


def test_every_near_miss_kind_is_known():
    from tmath.engine import foils

    source = Path(foils.__file__).read_text(encoding="utf-8")
    yielded = set(re.findall(r'yield "([^"]+)"', source)) | {d for _, d in foils.FACTORS}
    assert yielded <= set(foils.KINDS), sorted(yielded - set(foils.KINDS))
    assert foils.statement_and_kind("Var(x) = −dₖ, sign flipped") == ("Var(x) = −dₖ",
                                                                      "sign flipped")


def test_unknown_id_among_several_is_one_line_and_runs_nothing():
    result = runner.invoke(app, ["explain", "dot-product-variance", "no-such-claim"])
    assert result.exit_code == ExitCode.USAGE
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "no-such-claim" in lines[0] and "`tmath list`" in lines[0]
    assert "derivation" not in result.output


def test_the_exit_code_is_the_worst_of_the_pages(claims_dir):
    folder = claims_dir({"die.py": die_claim("die-mean") + die_claim("die-wrong", "3")})
    base = ["explain", "--claims", str(folder), "--no-builtin"]
    good = runner.invoke(app, [*base, "die-mean"])
    both = runner.invoke(app, [*base, "die-mean", "die-wrong"])
    assert good.exit_code == ExitCode.OK, good.output
    assert both.exit_code == ExitCode.FAILED, both.output
    assert set(pages(both.output)) == {"die-mean", "die-wrong"}


def test_all_explains_every_claim_as_verify_and_audit_accept_it(claims_dir):
    folder = claims_dir({"die.py": die_claim("die-mean") + die_claim("die-wrong", "3")})
    every = runner.invoke(app, ["explain", "--claims", str(folder), "--no-builtin", "all"])
    assert set(pages(every.output)) == {"die-mean", "die-wrong"}
    assert every.exit_code == ExitCode.FAILED   # the worst page: die-wrong


def test_plot_takes_one_id(tmp_path: Path):
    result = runner.invoke(app, ["explain", "dot-product-variance", "softmax-jacobian",
                                 "--plot", str(tmp_path / "x.png")])
    assert result.exit_code == ExitCode.USAGE and "one claim id" in result.output


def test_where_the_claim_is_defined_is_a_path_to_open(english):
    assert re.search(r"^defined in claims/s01_scaled_dot_product\.py:\d+$",
                     english["dot-product-variance"], flags=re.M)


# -- Chinese -------------------------------------------------------------------------------------

ZH_PAGES = ("dot-product-variance", "softmax-jacobian", "product-term-moments",
            "dk-scaling-conjecture", "scaling-keeps-softmax-responsive")
ALLOWED_ENGLISH = {
    # names of people, libraries and distributions named after people, kept as written
    "Vaswani", "SymPy", "NumPy", "Rademacher", "Gaussian", "Jacobian",
    # function names the formulas are written with (softmax(z), exp, Var, diag, max |Δ|, tol)
    "softmax", "exp", "Var", "diag", "max", "tol", "argmax",
    # technical terms Chinese texts on attention keep in English (the claims' own translations
    # write "query 和 key", "one-hot")
    "query", "key", "one-hot",
}
"""English that may stay on a Chinese page besides mathematics and claim ids. Kept short: each
entry is a name, a function of the mathematics, or a term Chinese writing on attention keeps."""
WORD = re.compile(r"[A-Za-z]{3,}(?:-[A-Za-z]+)*")


def stray_english(page: str, claim_ids: set[str]) -> list[str]:
    """English words left on a Chinese page once claim ids, commands, paths and URLs, the
    citations of sources (a work's title stays in its language) and the terms a claim is
    anchored by in the notes (searched for as the English notes write them) are taken out."""
    anchored = Translator("zh").ui("anchored by")
    found = []
    for line in page.splitlines():
        text = line.strip()
        if re.match(r"(https?://|• .*\(\d{4}\))", text) or text.startswith(anchored) or \
                "tmath verify" in text or "claims/" in text:
            continue
        for claim_id in sorted(claim_ids, key=len, reverse=True):
            text = text.replace(claim_id, "")
        found += [w for w in WORD.findall(text) if w not in ALLOWED_ENGLISH]
    return found


def test_chinese_pages_have_no_stray_english(registry):
    result = runner.invoke(app, ["explain", *ZH_PAGES, "--lang", "zh"], env=WIDTH)
    assert result.exit_code == 0, result.output
    by_id = pages(result.output)
    assert set(by_id) == set(ZH_PAGES)
    ids = {spec.id for spec in registry}
    for claim_id, page in by_id.items():
        left = stray_english(page, ids)
        assert not left, f"English on the Chinese page of {claim_id}: {sorted(set(left))}"


def test_the_stray_english_guard_can_fail():
    assert stray_english("✓ 已证明 proved by linearity\n定义于 claims/x.py:3", set()) == \
        ["proved", "linearity"]


def test_2d_only_when_it_fits_else_the_linear_halves_wrap():
    from tmath.render.derivation import MAX_BLOCK_LINES, math_lines

    long = "Σᵢ₌₁ⁿ " + " + ".join(f"x{k}" for k in range(40))
    tall = "\n".join(["x"] * (MAX_BLOCK_LINES + 1))
    step = ProofStep("c", long, long, "why", "checked", block=tall)
    lines = math_lines(f"{long} = {long}", step, 60)
    assert [line.plain for line in lines] == [long, f"= {long}"]
    small = ProofStep("c", long, long, "why", "checked", block="a\n─ = b\nc")
    assert [line.plain for line in math_lines(f"{long} = {long}", small, 60)] == \
        ["a\n─ = b\nc"]
    short = ProofStep("c", "a", "b", "why", "checked", block="a = b")
    assert [line.plain for line in math_lines("a = b", short, 60)] == ["a = b"]


def test_a_near_miss_names_the_part_it_changes():
    from tmath.render.foil_table import changed_value

    assert changed_value("Var(x) = 2·dₖ", ["Var(x)"]) == "= 2·dₖ"
    assert changed_value("Var(x) = 2·dₖ", ["E[x]", "Var(x)"]) == "(2) = 2·dₖ"
    assert changed_value("part 1 of the value: 3", ["E[x]"]) == "part 1 of the value: 3"


def test_several_parts_of_a_statement_are_numbered(english):
    page = english["dot-product-variance"]
    assert "  (1) E[Σᵢ₌₁^{dₖ} kᵢ·qᵢ] = 0" in page and "  (2) Var(Σᵢ₌₁^{dₖ} kᵢ·qᵢ) = dₖ" in page
    assert re.search(r"one less\s+\(1\) = −1\s+proof · check", page)
