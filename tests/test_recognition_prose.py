"""Recognition beyond display formulas: moments stated in a sentence, a claim's chain read
end to end, and the figures a recognised claim computes where the document prints them.

Every document here is written for these tests; each broken copy differs from its clean one
by one deliberate change, reported on its line, and the clean ones pass.
"""

from __future__ import annotations

import json
import textwrap

import pytest
import sympy as sp
from typer.testing import CliRunner

from conftest import CHECK_APP
from tmath.exitcodes import ExitCode
from tmath.gate.document import parse_document
from tmath.gate.prose_relations import stated
from test_recognition import library  # noqa: F401  (the fixture: the claims verified once)

pytestmark = pytest.mark.xdist_group("recognition")   # one worker verifies the claims once

MOMENTS = textwrap.dedent(r"""
    # Raw scores

    Take queries and keys whose coordinates are independent, with zero mean and unit
    variance. Each product $q_i k_i$ then has mean zero and variance one.
    Their dot product, $q \cdot k = \sum_{i=1}^{d_k} q_i k_i$, has mean $0$ and variance $d_k$.
    """).lstrip()


def _stated(text: str) -> list[tuple[str, int]]:
    return [(s.latex, s.line) for s in stated(parse_document(text, "doc.md"))]


def test_a_sentence_states_the_moments_of_its_subject():
    found = _stated(MOMENTS)
    assert ("E[q_i k_i] = 0", 4) in found and (r"\text{Var}(q_i k_i) = 1", 4) in found
    # the value of one moment ($0$) is never the subject of the next; "dot product" makes
    # q · k the inner product
    assert ("E[q^T k] = 0", 5) in found and (r"\text{Var}(q^T k) = d_k", 5) in found


def test_a_term_stands_for_its_formula_and_of_names_the_subject():
    text = "# S\n\nThe dot product of the two has zero mean and a variance of $d$.\n" \
           "The variance of $x_1$ is $4$, and nothing else here is a moment: a mean trick.\n"
    assert _stated(text) == [("E[q^T k] = 0", 3), (r"\text{Var}(q^T k) = d", 3),
                             (r"\text{Var}(x_1) = 4", 4)]


def test_a_standard_deviation_is_stated_as_its_square():
    """σ is compared as the variance σ²: "a standard deviation of $d$" says Var = d², which the
    claims' Var(qᵀk) = d contradicts, and "of $\\sqrt{d}$" says what they prove."""
    text = "# S\n\nThe dot product of the two has a standard deviation of $d$.\n"
    assert _stated(text) == [(r"\text{Var}(q^T k) = (d)^2", 3)]
    assert _stated(text.replace("$d$", r"$\sqrt{d}$")) == [(r"\text{Var}(q^T k) = (\sqrt{d})^2", 3)]


@pytest.mark.parametrize("abbreviation", ["i.e.", "e.g.", "cf.", "vs.", "viz."])
def test_a_sentence_goes_on_after_an_abbreviation(abbreviation):
    from tmath.gate.prose_relations import sentences

    text = f"The score uses one offset, {abbreviation} the gap between two positions. Next."
    assert [text[a:b] for a, b in sentences(text)][0].endswith("two positions")


def test_a_sentence_without_a_subject_states_nothing():
    assert _stated("# S\n\nValues are drawn with zero mean and unit variance.\n") == []


def test_moments_in_words_are_recognised_and_a_wrong_one_found(library):
    from tmath.gate.recognition import recognise

    found = recognise(parse_document(MOMENTS, "doc.md"), library)
    assert not [f for f in found.findings if f.failing], \
        [(f.line, f.detail) for f in found.findings if f.failing]
    assert {"product-term-moments", "dot-product-variance"} <= set(found.claims)
    broken = MOMENTS.replace("variance $d_k$", r"variance $\sqrt{d_k}$")
    wrong = [f for f in recognise(parse_document(broken, "doc.md"), library).findings
             if f.failing]
    assert [(f.line, f.status, f.claim) for f in wrong] == [
        (5, "contradicts", "dot-product-variance")]
    assert "the sentence states" in wrong[0].detail


def test_a_claims_chain_relates_its_ends(library):
    """The claim records E[q_i k_i] = E[q_i]·E[k_i] = 0 × 0 = 0: E[q_i k_i] = 0, its two ends,
    is what it proves, not a near form of its first link; E[q_i k_i] = 1 is not the end
    Var(q_i k_i) = 1 of its other chain (E is never renamed Var)."""
    from tmath.gate.recognition import recognise

    ends = "# P\n\n$$E[q_i k_i] = 0$$\n"
    found = recognise(parse_document(ends, "doc.md"), library)
    assert [(f.status, f.claim) for f in found.findings] == [
        ("recognised", "product-term-moments")]
    wrong = recognise(parse_document(ends.replace("= 0$$", "= 1$$"), "doc.md"), library)
    assert [(f.status, f.claim) for f in wrong.findings] == [
        ("contradicts", "product-term-moments")]


FIGURES = textwrap.dedent(r"""
    # Spread

    $$E[q^T k] = 0, \quad \text{Var}(q^T k) = d_k$$

    The standard deviation of a raw score is therefore sqrt(d_k): for d_k = 512 it is
    about 22.6. Elsewhere d_k = 512 and 3 other numbers appear.
    """).lstrip()


def _check(tmp_path, text: str) -> tuple[int, list[dict]]:
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "--format", "json"])
    return run.exit_code, [f for f in json.loads(run.stdout)["findings"] if f["kind"] == "figure"]


def test_a_recognised_claims_figure_is_checked_where_the_document_prints_it(tmp_path):
    code, figures = _check(tmp_path, FIGURES)
    assert code == ExitCode.OK
    assert [(f["status"], f["line"], f["printed"]) for f in figures] == [
        ("accurate", 6, "22.6")]   # "d_k = 512 and 3": no word says 3 is a deviation
    code, figures = _check(tmp_path, FIGURES.replace("22.6", "26.2"))
    assert code == ExitCode.FAILED
    assert [(f["status"], f["line"], f["claim"]) for f in figures] == [
        ("inaccurate", 6, "dot-product-variance")]


def test_a_figure_is_not_looked_for_where_its_claim_is_not_recognised(tmp_path):
    unrelated = FIGURES.replace(r"E[q^T k] = 0, \quad \text{Var}(q^T k) = d_k", "a + b = c")
    code, figures = _check(tmp_path, unrelated.replace("22.6", "26.2"))
    assert figures == []


def test_sine_typed_without_its_backslash_is_still_the_sine(library):
    """A paper's source writes PE_{(pos,2i)} = sin(pos / 10000^{2i/d}): read as the sine, so
    the exponent i for 2i is found."""
    from tmath.gate.recognition import recognise

    good = "# P\n\n$$PE_{(pos,2i)} = sin(pos / 10000^{2i/d_{model}})$$\n"
    found = recognise(parse_document(good, "doc.md"), library)
    assert [(f.status, f.claim) for f in found.findings] == [
        ("recognised", "sinusoidal-frequency-period")]
    wrong = recognise(parse_document(good.replace("{2i/", "{i/"), "doc.md"), library)
    assert [(f.line, f.status) for f in wrong.findings] == [(3, "contradicts")]


def test_a_greek_family_member_in_other_index_names(library):
    """ω_k = 1/10000^{2k/d} is the claim's ω_i = 1/10000^{2i/d_model} (k is a variable of the
    formula, so ω_k is the family's k-th member); with 2k → k it is wrong."""
    from tmath.gate.recognition import recognise

    good = "# F\n\nThe rate is $\\omega_k = \\frac{1}{10000^{2k / d}}$ for pair $k$.\n"
    found = recognise(parse_document(good, "doc.md"), library)
    assert [(f.status, f.claim) for f in found.findings] == [
        ("recognised", "sinusoidal-frequency-period")]
    wrong = recognise(parse_document(good.replace("{2k /", "{k /"), "doc.md"), library)
    assert [(f.line, f.status) for f in wrong.findings] == [(3, "contradicts")]
    latin = "# F\n\n$$d_k = 10000^{k}$$\n"   # a Latin name keeps _k as part of its name
    assert not [f for f in recognise(parse_document(latin, "doc.md"), library).findings
                if f.failing]


BOUND = textwrap.dedent(r"""
    # Heads

    The model width is $d_{\text{model}} = 512$ and we run $h = 8$ heads, so each head
    reads $d_k = d_{\text{model}}/h = 64$ columns.
    """).lstrip()


def test_arithmetic_with_the_values_the_document_states(library):
    """d_model/h = 64 is arithmetic once the document's own d_model = 512 and h = 8 are put
    in; a wrong result, or a wrong value, is reported on both lines (either may be wrong)."""
    from tmath.gate.recognition import recognise

    def wrong(text):
        found = recognise(parse_document(text, "doc.md"), library).findings
        return sorted({(f.line, f.status) for f in found if f.failing})

    assert wrong(BOUND) == []
    assert wrong(BOUND.replace("/h = 64", "/h = 32")) == [(3, "inaccurate"), (4, "inaccurate")]
    assert wrong(BOUND.replace("h = 8", "h = 16")) == [(3, "inaccurate"), (4, "inaccurate")]
    unbound = BOUND.replace("$h = 8$", "several")
    assert wrong(unbound.replace("/h = 64", "/h = 32")) == []   # h has no value: not arithmetic


def test_a_square_root_said_in_words_is_checked():
    """"divide by 8 (the square root of the key width, 64)": √64 is 8; a wrong root or a
    wrong radicand is found on its line; a whole number that is not a square is read at the
    root's printed precision."""
    from tmath.gate.prose_relations import roots_said
    from tmath.gate.recognition import _root_holds

    text = ("# S\n\nWe divide by 8 (the square root of the key width -- 64) first.\n"
            "A spread of 22.6, the square root of 512, is large.\n")
    roots = roots_said(parse_document(text, "doc.md"))
    assert [(r.root, r.of, r.line) for r in roots] == [("8", "64", 3), ("22.6", "512", 4)]
    assert all(_root_holds(r) for r in roots)
    for wrong in ("by 6 (the", "width -- 32)", "of 22.9, the"):
        broken = text.replace("by 8 (the", wrong) if wrong.startswith("by") else \
            text.replace("width -- 64)", wrong) if wrong.startswith("width") else \
            text.replace("of 22.6, the", wrong)
        assert [r.line for r in roots_said(parse_document(broken, "doc.md"))
                if not _root_holds(r)] == [4 if "22.9" in wrong else 3]


RANGE = textwrap.dedent(r"""
    # Positions

    $$PE(pos, 2i) = \sin\left(\frac{pos}{10000^{2i/d_{model}}}\right)$$

    The wavelengths grow geometrically from $2\pi$ to $10000 \cdot 2\pi$ across the pairs.
    """).lstrip()


def test_a_range_in_words_is_held_to_the_claims_figures(tmp_path):
    """The range of periods a sentence gives is compared, end by end, with the figures of the
    claims building on the recognised encoding (pe-period-range)."""
    code, figures = _check(tmp_path, RANGE)
    assert code == ExitCode.OK
    assert {(f["status"], f["line"], f["claim"]) for f in figures} == {
        ("accurate", 5, "pe-period-range")}
    code, figures = _check(tmp_path, RANGE.replace("10000 \\cdot 2\\pi", "1000 \\cdot 2\\pi"))
    assert code == ExitCode.FAILED
    assert [(f["status"], f["line"]) for f in figures if f["status"] != "accurate"] == [
        ("inaccurate", 5)]
    unrelated = RANGE.replace("wavelengths", "prices")   # no quantity the claims compute
    assert _check(tmp_path, unrelated.replace("10000 \\cdot", "1000 \\cdot"))[1] == []


WARMUP = textwrap.dedent(r"""
    # Schedule

    $$lrate = d_{\text{model}}^{-0.5} \cdot \min(step^{-0.5}, step \cdot warmup\_steps^{-1.5})$$

    We used $warmup\_steps=4000$ in training.
    """).lstrip()


def test_a_published_figure_a_recognised_claim_records_is_checked(tmp_path):
    """noam-schedule-shape records the original warm-up length (4000); its prefix in the
    notes' words is cut to what follows them (``warmup_steps =``), so a document that writes
    the schedule and the setting in its own sentence is held to it."""
    code, figures = _check(tmp_path, WARMUP)
    assert [(f["status"], f["line"], f["claim"]) for f in figures] == [
        ("accurate", 5, "noam-schedule-shape")]
    code, figures = _check(tmp_path, WARMUP.replace("=4000", "=400"))
    assert code == ExitCode.FAILED
    assert [(f["status"], f["line"]) for f in figures] == [("inaccurate", 5)]


def test_a_formula_for_a_name_is_not_arithmetic_and_values_stay_in_their_paragraph(library):
    """σ = 2√p says what σ is: values of p and σ stated elsewhere (an example, a later
    section) never make it 'false'; a value below a formula counts only in its paragraph."""
    from tmath.gate.recognition import recognise

    text = textwrap.dedent(r"""
        # Coins

        For a fair example take $p = 0$ first.

        In general $\sigma = 2\sqrt{p}$ and $2\sqrt{p} \cdot 3 = 6$.

        Later we scale so that $\sigma = 1$.
        """).lstrip()
    found = recognise(parse_document(text, "doc.md"), library).findings
    assert [(f.line, f.detail) for f in found if f.failing] == [
        (5, "6*sqrt(p) = 6 is false with p = 0: the left side is 0"),
        (3, "with p = 0 as stated here, 6*sqrt(p) = 6 on line 5 is false (the left side is "
            "0): this value or that relation is wrong")]


def test_renaming_every_name_of_a_bare_product_is_no_evidence(library):
    """A W = W Σ (an eigendecomposition) shares a side with Q = X W_Q only once every name is
    renamed: it is not a near form of the claim's projection."""
    from tmath.gate.recognition import recognise

    text = "# E\n\n$$\\mathbf{A}\\mathbf{W} = \\mathbf{W} \\boldsymbol{\\Sigma}$$\n"
    assert not [f for f in recognise(parse_document(text, "doc.md"), library).findings
                if f.failing]


def test_a_power_of_ten_is_an_order_of_magnitude():
    """2·10⁹·16·32 = 10^{12} rounds to a power of ten written as one; 3·10^{12} = 10^{12} and
    1000 = 10^3 + 1 are still false."""
    from tmath.gate.arithmetic import false_relations
    from tmath.meaning.recognise import relations_of

    def false(latex):
        return [shown for shown, *_ in false_relations(latex, relations_of(latex))]

    assert false(r"2 \cdot 10^9 \cdot 16 \cdot 32 = 10^{12}") == []
    assert len(false(r"3 \cdot 10^{12} = 10^{12}")) == 1
    assert len(false(r"1000 = 10^3 + 1")) == 1


def test_the_printed_figure_of_false_arithmetic_is_its_bare_number():
    """``0.81 ≈ 0.283²`` prints 0.81 for 0.080089 (the figure on the left); ``√64 = 7``
    prints 7 for 8; ``0.081 ≈ 0.283²`` holds at the precision 0.081 is printed with."""
    from tmath.gate.arithmetic import false_relations
    from tmath.meaning.recognise import relations_of

    def false(latex):
        return [(computed, printed) for _, computed, printed, _ in
                false_relations(latex, relations_of(latex))]

    assert false(r"0.81 \approx 0.283^2") == [(pytest.approx(0.080089), 0.81)]
    assert false(r"\sqrt{64} = 7") == [(8.0, 7.0)]
    assert false(r"0.080 \approx 0.283^2") == []


def test_a_claim_that_records_no_formula_is_recognised_by_its_statement(tmp_path):
    """dk-scaling-overshrinks records no formula (the notes print none); its statement
    Var(qᵀk/d_k) = 1/d_k, written as the reader reads it, is recognised, and its near form
    Var(qᵀk/d_k) = 1 is found."""
    text = "# Scale\n\n$$\\text{Var}\\left(\\frac{q^T k}{d_k}\\right) = \\frac{1}{d_k}$$\n"
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    ok = json.loads(CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"]).stdout)
    assert [(f["status"], f["claim"]) for f in ok["findings"]] == [
        ("recognised", "dk-scaling-overshrinks")]
    path.write_text(text.replace("\\frac{1}{d_k}$$", "1$$"), encoding="utf-8")
    bad = json.loads(CliRunner().invoke(CHECK_APP, ["check", str(path), "-f", "json"]).stdout)
    assert [(f["status"], f["line"]) for f in bad["findings"]] == [("contradicts", 3)]


def test_only_statements_about_an_operator_applied_are_read():
    """A statement whose left side is a bare name, or made of what the reader never builds
    (a derivative, a limit), is left out; what is kept is an operator applied."""
    from tmath.engine.registry import load
    from tmath.meaning.proved import statement_relations

    registry = load()
    found = statement_relations(list(registry.claims.values()), dict(registry.claims))
    claims = {claim for claim, *_ in found}
    assert "dk-scaling-overshrinks" in claims
    assert not claims & {"projection-parameters", "softmax-jacobian", "pe-period-range"}
    prints = {sp.sympify(r"PE(pos)*PE(k + pos)")}   # pe-dot-depends-on-offset's notation
    assert all(type(lhs).__module__.startswith("tmath.") or lhs in prints
               for _, _, lhs, _ in found)


def test_a_print_the_claim_declares_is_read_only_if_it_applies_a_function():
    """A claim's notation may say how its left side prints. ``PE(pos)·PE(pos+k)`` applies a
    function the claim names, so the statement is kept; a print that is a bare name (``T``)
    says nothing another document's ``T`` must mean, so the same statement is left out."""
    from types import SimpleNamespace

    from tmath.meaning.proved import statement_relations

    x, y = sp.symbols("x y")
    total = sp.Sum(sp.sin(x) * sp.sin(y), (x, 0, 3))

    def spec(printed: str):
        return SimpleNamespace(id="toy", formulas=(), depends_on=(), notation=((printed, total),),
                               statement=SimpleNamespace(lhs=total, value=sp.cos(y),
                                                         relation="=", text="toy"))

    kept = statement_relations([spec(r"F(y) \cdot F(y)")], {})
    assert [(lhs, rhs) for _, _, lhs, rhs in kept] == [(sp.sympify("F(y)**2"), sp.cos(y))]
    assert statement_relations([spec("T")], {}) == []


def test_a_figure_printed_twice_is_checked_at_each_place(tmp_path):
    """A document may print a claim's figure more than once: each place is judged, and a
    number is taken by one figure only."""
    twice = FIGURES + "Once more: the standard deviation for d_k = 512 is about 22.6.\n"
    code, figures = _check(tmp_path, twice)
    assert code == ExitCode.OK
    assert [(f["status"], f["line"]) for f in figures] == [("accurate", 6), ("accurate", 7)]
    code, figures = _check(tmp_path, twice.replace("is about 22.6.", "is about 26.2."))
    assert code == ExitCode.FAILED
    assert [(f["status"], f["line"]) for f in figures] == [("accurate", 6), ("inaccurate", 7)]


def test_importing_recognition_reads_no_sympy():
    """SymPy is loaded when a formula is read, not when the recognition modules are imported
    (a document with nothing to read should not pay for it)."""
    import subprocess
    import sys

    code = ("import sys, tmath.gate.recognition, tmath.gate.arithmetic, "
            "tmath.gate.prose_relations, tmath.gate.recognised_figures, tmath.gate.divisors; "
            "print('sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_numbers_beyond_a_float_are_still_judged(library):
    """A root or a relation whose numbers overflow a float is judged exactly, never an
    internal error and never a pass: 8 is not the square root of 10^400 − 1, and
    10^{400}·3 = 5 is false."""
    from tmath.gate.recognition import recognise

    big = "9" * 400
    text = (f"# H\n\nDivide by 8 (the square root of {big}) now; 3.5 (the square root of "
            "12.25) is right.\n\n$$10^{400} \\cdot 3 = 5$$\n")
    found = sorted((f for f in recognise(parse_document(text, "doc.md"), library).findings
                    if f.failing), key=lambda f: f.line)
    assert [(f.line, f.printed) for f in found] == [(3, "8"), (5, "5")]
    assert found[1].expected is None and "e+400" in found[1].detail


DIVIDED = textwrap.dedent(r"""
    # Scaling

    $$\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right) V$$

    With $d_k = 64$ in every head, the scores are divided by 8 before the softmax.

    # Elsewhere

    The batch is divided by 3 for the three devices, and d_k = 64 there too.
    """).lstrip()


@pytest.mark.parametrize("said, found", [
    ("divided by 8", []),
    ("divided by 6", [("inaccurate", 5, "6")]),
    ("scaled by 1/6", [("inaccurate", 5, "6")]),
    ("scaled by 1/8", []),
    ("scaled by 6", []),   # a scale by N multiplies: not read
])
def test_a_number_said_to_divide_is_held_to_the_recognised_formulas_divisor(
        tmp_path, said, found):
    """The section's recognised formula divides by √d_k and the sentence gives d_k = 64, so
    the number it divides by must be 8. The second section recognises no formula: its
    "divided by 3" is not judged."""
    code, figures = _check(tmp_path, DIVIDED.replace("divided by 8", said))
    assert [(f["status"], f["line"], f["printed"]) for f in figures] == found
    assert code == (ExitCode.FAILED if found else ExitCode.OK)


def test_a_divisor_is_judged_only_with_values_for_its_names(tmp_path):
    """Without a value for d_k in the paragraph nothing is said; a value printed with a
    decimal is held to that precision (√512 ≈ 22.6, and 23 is its whole-number rounding)."""
    unbound = DIVIDED.replace("With $d_k = 64$ in every head, t", "T")
    assert _check(tmp_path, unbound.replace("divided by 8", "divided by 6")) == (ExitCode.OK, [])
    wide = DIVIDED.replace("d_k = 64$", "d_k = 512$")
    for said, wrong in (("22.6", False), ("23", False), ("22.5", True), ("8", True)):
        code, figures = _check(tmp_path, wide.replace("divided by 8", f"divided by {said}"))
        assert bool(figures) is wrong and code == (ExitCode.FAILED if wrong else ExitCode.OK)


def test_a_divisor_beyond_a_float_is_no_internal_error(tmp_path):
    """10000^{2i/d} with i = 1000 and d = 1 is far beyond a float: not a divisor anyone
    prints, so nothing is said about it (and the check does not fail inside); the d inside
    its exponent divides the exponent, not the angle, so 3 is not held to it either."""
    text = ("# Waves\n\n$$\\omega_i = \\frac{1}{10000^{2i/d}}$$\n\n"
            "With $i = 1000$ and $d = 1$ the angle is divided by 3.\n")
    code, figures = _check(tmp_path, text)
    assert code == ExitCode.OK and figures == []


APPROXIMATE = textwrap.dedent(r"""
    # Periods

    The longest wavelength is $2\pi \cdot 10000$ positions, so every phase is seen once in
    roughly 63,000 positions.

    A batch of $2^{10}$ sequences takes about 3 hours on one card.
    """).lstrip()


def test_an_approximate_value_is_held_to_the_exact_expression_before_it(tmp_path):
    """"~N" after an expression of numbers alone is its value to N's printed precision
    (63,000 ± 500); a number of something else after it ("about 3 hours") is not read."""
    def figures(text):
        return [(f["status"], f["line"], f["printed"]) for f in _findings(tmp_path, text)
                if f["kind"] == "figure"]

    assert figures(APPROXIMATE) == []
    broken = APPROXIMATE.replace("63,000", "630,000")
    # the expression and the number on two lines: either may be the misprint, both reported
    assert figures(broken) == [("inaccurate", 3, "630,000"), ("inaccurate", 4, "630,000")]
    expression = APPROXIMATE.replace(r"$2\pi \cdot 10000$", r"$\pi \cdot 10000$")
    assert figures(expression) == [("inaccurate", 3, "63,000"), ("inaccurate", 4, "63,000")]


SCALED = textwrap.dedent(r"""
    # Scaling

    $$\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)V$$

    The raw scores grow with the key width, so we scale the dot products by
    $\frac{1}{\sqrt{d_k}}$ before the softmax.
    """).lstrip()


def test_a_divisor_said_as_a_formula_is_held_to_the_recognised_formula(tmp_path):
    """"scale … by $1/\\sqrt{d_k}$" is the formula's own divisor; "by $1/d_k$" uses the same
    name and is none of the formula's divisors; "by $1/n$" says nothing of them."""
    def errors(text):
        return [(f["status"], f["line"]) for f in _findings(tmp_path, text)
                if f["status"] == "contradicts"]

    assert errors(SCALED) == []
    assert errors(SCALED.replace(r"\frac{1}{\sqrt{d_k}}$ before", r"\frac{1}{d_k}$ before")) \
        == [("contradicts", 6)]
    assert errors(SCALED.replace(r"\frac{1}{\sqrt{d_k}}$ before", r"\frac{1}{n}$ before")) == []
    # multiplying by x divides by 1/x: "multiply … by √d_k" is not the formula's divisor
    assert errors(SCALED.replace(r"scale the dot products by", "divide the dot products by")
                  .replace(r"\frac{1}{\sqrt{d_k}}$ before", r"\sqrt{d_k}$ before")) == []
    assert errors(SCALED.replace(r"scale the dot products by", "multiply the dot products by")
                  .replace(r"\frac{1}{\sqrt{d_k}}$ before", r"\sqrt{d_k}$ before")) \
        == [("contradicts", 6)]


WEIGHTS = textwrap.dedent(r"""
    # Weights

    A block's weights are $A = \text{softmax}(QK^\top/\sqrt{d_k})$; without the scale they
    are $\text{softmax}(QK^\top)$, and masked, $\text{softmax}(QK^\top/\sqrt{d_k} + M)$.
    """).lstrip()


def test_a_softmax_of_a_claims_names_is_held_to_the_claims_argument(tmp_path):
    """The weights alone, softmax(QKᵀ/√d_k), are the softmax of attention-temperature: with
    d_k for √d_k they contradict it on their line; the softmax without the scale, or with a
    mask added outside the scale, is another quantity or the same one."""
    def errors(text):
        return [(f["status"], f["line"], f["claim"]) for f in _findings(tmp_path, text)
                if f["status"] == "contradicts"]

    assert errors(WEIGHTS) == []
    assert errors(WEIGHTS.replace(r"A = \text{softmax}(QK^\top/\sqrt{d_k})",
                                  r"A = \text{softmax}(QK^\top/d_k)")) \
        == [("contradicts", 3, "attention-temperature")]


def test_a_dot_product_of_other_names_over_the_bare_width_contradicts_the_scale(tmp_path):
    """A softmax of a dot product of any names divided by d_k itself, in a document whose
    attention divides by √d_k, is the claim's scale printed without its root."""
    def errors(text):
        return [(f["status"], f["line"]) for f in _findings(tmp_path, text)
                if f["status"] == "contradicts"]

    text = WEIGHTS + "\nA sparse head uses $B = \\text{softmax}(U V^\\top/\\sqrt{d_k})$.\n"
    assert errors(text) == []
    assert errors(text.replace(r"U V^\top/\sqrt{d_k}", r"U V^\top/d_k")) == [("contradicts", 6)]


INTRODUCED = textwrap.dedent(r"""
    # A score

    To keep the scores of unit variance we rescale the dot product by $1/\sqrt{d}$, which
    gives the score

    $$a(\mathbf{q}, \mathbf{k}) = \mathbf{q}^\top \mathbf{k} / \sqrt{d}.$$
    """).lstrip()


def test_the_divisor_the_text_says_is_held_to_the_formula_it_introduces(tmp_path):
    """No claim's relation is this score; the sentence and the formula right after it must
    agree on the divisor, and when they do not both lines are reported."""
    def errors(text):
        return [f["line"] for f in _findings(tmp_path, text) if f["status"] == "contradicts"]

    assert errors(INTRODUCED) == []
    assert errors(INTRODUCED.replace(r"\mathbf{k} / \sqrt{d}.", r"\mathbf{k} / d.")) == [3, 6]


def _findings(tmp_path, text: str) -> list[dict]:
    """The findings of ``tmath check`` on ``text``, as a user runs it (JSON)."""
    path = tmp_path / "doc.md"
    path.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(CHECK_APP, ["check", str(path), "--format", "json"])
    return json.loads(run.stdout)["findings"]
