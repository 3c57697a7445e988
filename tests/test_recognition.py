"""The gate on a document no claim set is bound to: what the built-in claims prove is
recognised in it under its own names, and the near forms with another meaning are errors.

Every document here is written for these tests. Each broken example is the clean one with
one deliberate change, and must be reported on its line; the clean ones must pass.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from typer.testing import CliRunner

from conftest import CHECK_APP
from tmath.exitcodes import ExitCode
from tmath.gate.document import parse_document

pytestmark = pytest.mark.xdist_group("recognition")   # one worker verifies the claims once

CLEAN = textwrap.dedent(r"""
    # Scores

    We write $d$ for the width of a query. Scaled attention is

    $$\mathrm{Attn}(Q, K, V) = \mathrm{softmax}\left(\frac{QK^\top}{\sqrt{d}}\right) V$$

    For independent unit-variance entries $\mathrm{Var}(\mathbf{q}\cdot\mathbf{k}) = d$.

    One weight, written out:

    $$\mathrm{softmax}\left(\frac{\mathbf{q}_i \mathbf{k}_j^\top}{\sqrt{d}}\right) = \frac{\exp(\mathbf{q}_i \mathbf{k}_j^\top/\sqrt{d})}{\sum_r \exp(\mathbf{q}_i \mathbf{k}_r^\top/\sqrt{d})}$$

    # Positions

    $$PE_{(pos,2i)} = \sin\left(pos / 10000^{2i/d_{\text{model}}}\right)$$

    With $d = 64$ the scores shrink by $\sqrt{64} = 8$; with 512 they shrink by
    $\sqrt{512} \approx 22.6$, and eight heads of 512 have $512/8 = 64$ columns each.

    ```python
    d = 64; scale = 10   # code is never read
    ```
    """).lstrip()

BROKEN = {   # (what the clean text says, what the broken copy says, the claim it breaks)
    "the square root dropped": (r"{\sqrt{d}}\right) V", r"{d}\right) V", "attention-temperature"),
    "√d outside the exponential": (
        r"\frac{\exp(\mathbf{q}_i \mathbf{k}_j^\top/\sqrt{d})}{\sum_r \exp(\mathbf{q}_i \mathbf{k}_r^\top/\sqrt{d})}",
        r"\frac{\exp(\mathbf{q}_i \mathbf{k}_j^\top)}{\sqrt{d}\sum_r \exp(\mathbf{q}_i \mathbf{k}_r^\top)}",
        "softmax-boltzmann"),
    "the exponent 2i → i": ("10000^{2i/", "10000^{i/", "sinusoidal-frequency-period"),
    "the variance said to be √d": (r"\cdot\mathbf{k}) = d$", r"\cdot\mathbf{k}) = \sqrt{d}$",
                                   "dot-product-variance"),
    "the transpose dropped": (r"\frac{QK^\top}{\sqrt{d}}", r"\frac{QK}{\sqrt{d}}",
                              "attention-temperature"),
    "√64 = 6": (r"\sqrt{64} = 8", r"\sqrt{64} = 6", None),
    "512/8 = 32": ("512/8 = 64", "512/8 = 32", None),
    "√512 ≈ 23.6": ("22.6", "23.6", None),
}


@pytest.fixture(scope="module")
def library():
    from tmath.cli.common import collect, load_catalog
    from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
    from tmath.engine.cache import ResultCache
    from tmath.engine.session import verify
    from tmath.gate.recognition import library as build

    catalog = load_catalog(None, False)
    results, _ = collect(verify(catalog, list(catalog), DEFAULT_SEED, 2, DEFAULT_TIMEOUT,
                                ResultCache(enabled=True), None), len(catalog.claims), False)
    return build(list(catalog), {r.info.id: r for r in results})


def recognise(text: str, library):
    from tmath.gate.recognition import recognise as run

    return run(parse_document(text, "doc.md"), library)


def problems(found) -> list:
    return [f for f in found.findings if f.failing]


def test_the_clean_document_is_recognised_under_its_own_names(library):
    found = recognise(CLEAN, library)
    assert not problems(found), [f.detail for f in problems(found)]
    assert dict(found.mapping) == {"Attn": "Attention", "d": "d_k"}
    assert {"attention-temperature", "dot-product-variance", "softmax-boltzmann",
            "sinusoidal-frequency-period"} <= set(found.claims)


@pytest.mark.parametrize("change", sorted(BROKEN))
def test_each_deliberate_error_is_reported_on_its_line(library, change):
    before, after, claim = BROKEN[change]
    assert CLEAN.count(before) == 1
    broken = CLEAN.replace(before, after)
    line = CLEAN[:CLEAN.index(before)].count("\n") + 1
    wrong = problems(recognise(broken, library))
    assert [f.line for f in wrong] == [line], [(f.line, f.detail) for f in wrong]
    if claim:
        assert wrong[0].status == "contradicts" and wrong[0].claim == claim
        shown = wrong[0].detail.split(" proves ")[1].split("; this formula reads")[0]
        assert "d_k" not in shown   # the claim's form, in the document's names
    else:
        assert wrong[0].kind == "figure" and wrong[0].status == "inaccurate"


def test_a_formula_in_other_index_names_is_recognised_and_its_near_form_found(library):
    """p_{t, 2k} = sin(t / 10000^{2k/D}) is the claim's PE(pos, 2i) with its own free names
    (t, k, D, and the family p as a function of its indices); with 2k → k it is wrong."""
    good = "# P\n\n$$p_{t, 2k} = \\sin\\left(\\frac{t}{10000^{2k/D}}\\right)$$\n"
    found = recognise(good, library)
    assert found.claims == ("sinusoidal-frequency-period",) and not problems(found)
    wrong = problems(recognise(good.replace("{2k/D}", "{k/D}"), library))
    assert [(f.line, f.status, f.claim) for f in wrong] == [
        (3, "contradicts", "sinusoidal-frequency-period")]
    assert "i" not in dict(found.mapping)   # renamings of one formula's indices stay local


def test_a_function_the_document_defines_is_never_the_ground_for_an_error(library):
    """softmax(s(q, k_i)) = exp(qᵀk_i/√d)/Σ_j … is right once s is the document's own score;
    the claims do not know s, so the formula is not recognised, and not called wrong. The
    same weight with √d outside the exponential, summed over a set, is wrong."""
    own = ("# S\n\n$$\\mathrm{softmax}(s(\\mathbf{q}, \\mathbf{k}_i)) = \\frac{\\exp("
           "\\mathbf{q}^\\top \\mathbf{k}_i / \\sqrt{d})}{\\sum_{j=1} \\exp(\\mathbf{q}^"
           "\\top \\mathbf{k}_j / \\sqrt{d})}$$\n")
    assert not problems(recognise(own, library))
    wrong = ("# S\n\n$$\\mathrm{softmax}\\left(\\frac{\\mathbf{q}_i \\mathbf{k}_j^\\top}"
             "{\\sqrt{d}}\\right) = \\frac{\\exp(\\mathbf{q}_i \\mathbf{k}_j^\\top)}{\\sqrt{d}"
             "\\sum_{r \\in S_i} \\exp(\\mathbf{q}_i \\mathbf{k}_r^\\top)}$$\n")
    assert [(f.line, f.status) for f in problems(recognise(wrong, library))] == [
        (3, "contradicts")]


def test_the_documents_own_function_is_read_with_its_definition_in_force(library):
    """s is defined twice; the weight written with s uses the definition above it: with the
    scaled score, √d outside the exponential is wrong; under the first s it would be right.
    The use and the definition it read disagree, so both lines are reported, the definition
    naming the use."""
    text = textwrap.dedent(r"""
        # W

        $$s(\mathbf{q}, \mathbf{k}_i) = \mathbf{q}^\top \mathbf{k}_i$$

        $$s(\mathbf{q}, \mathbf{k}_i) = \mathbf{q}^\top \mathbf{k}_i / \sqrt{d}$$

        $$\mathrm{softmax}(s(\mathbf{q}, \mathbf{k}_i)) = \frac{\exp(\mathbf{q}^\top \mathbf{k}_i)}{\sqrt{d} \sum_j \exp(\mathbf{q}^\top \mathbf{k}_j)}$$
        """).lstrip()
    found = problems(recognise(text, library))
    assert sorted((f.line, f.status) for f in found) == [(5, "contradicts"), (7, "contradicts")]
    assert "formula on line 7" in next(f.detail for f in found if f.line == 5)
    assert "definitions on line 5" in next(f.detail for f in found if f.line == 7)
    right = text.replace(r"\exp(\mathbf{q}^\top \mathbf{k}_i)}{\sqrt{d} \sum_j \exp("
                         r"\mathbf{q}^\top \mathbf{k}_j)}", r"\exp(\mathbf{q}^\top \mathbf{k}_i"
                         r" / \sqrt{d})}{\sum_j \exp(\mathbf{q}^\top \mathbf{k}_j / \sqrt{d})}")
    assert right != text and not problems(recognise(right, library))


def test_a_use_right_as_written_but_wrong_with_its_definition_is_reported(library):
    """The weight is a right softmax as written, but the score it applies softmax to is
    defined above with d for √d: put in, softmax(qᵀk_i/d) = exp(qᵀk_i/√d)/Σ… is false, so the
    definition and the use are both reported (the end of the chain, α = a right softmax,
    does not excuse a link that breaks softmax's definition at its own argument). With the
    score defined by √d, nothing is reported."""
    text = textwrap.dedent(r"""
        # Scores

        $$a(\mathbf{q}, \mathbf{k}_i) = \mathbf{q}^\top \mathbf{k}_i / d$$

        $$\alpha(\mathbf{q}, \mathbf{k}_i) = \mathrm{softmax}(a(\mathbf{q}, \mathbf{k}_i)) = \frac{\exp(\mathbf{q}^\top \mathbf{k}_i / \sqrt{d})}{\sum_{j} \exp(\mathbf{q}^\top \mathbf{k}_j / \sqrt{d})}$$
        """).lstrip()
    found = problems(recognise(text, library))
    assert sorted((f.line, f.status) for f in found) == [(3, "contradicts"), (5, "contradicts")]
    right = text.replace(r"\mathbf{k}_i / d$$", r"\mathbf{k}_i / \sqrt{d}$$")
    assert right != text and not problems(recognise(right, library))


def test_a_name_the_document_also_uses_is_never_a_target(library):
    """A document that writes d_k itself means something else by d: d is not renamed, and
    Var(q·k) = d is then neither recognised nor called wrong (other names, not a near form)."""
    text = "# A\n\n$d_k = 64$ and $\\mathrm{Var}(\\mathbf{q}\\cdot\\mathbf{k}) = d$\n"
    found = recognise(text, library)
    assert "d" not in dict(found.mapping) and not problems(found)


def test_the_cli_reports_json_on_stdout_and_exits_by_findings(tmp_path, library):
    runner = CliRunner()
    clean, broken, prose = (tmp_path / n for n in ("clean.md", "broken.md", "prose.md"))
    clean.write_text(CLEAN, encoding="utf-8")
    broken.write_text(CLEAN.replace("512/8 = 64", "512/8 = 32"), encoding="utf-8")
    prose.write_text("# Notes\n\nA paragraph from 2017 with 12 heads and no formula.\n",
                     encoding="utf-8")
    ok = runner.invoke(CHECK_APP, ["check", str(clean), "--format", "json"])
    assert ok.exit_code == ExitCode.OK, ok.output
    report = json.loads(ok.stdout)
    assert report["recognition"][0]["mapping"] == {"Attn": "Attention", "d": "d_k"}
    bad = runner.invoke(CHECK_APP, ["check", str(broken), "--format", "json"])
    assert bad.exit_code == ExitCode.FAILED
    assert [f["line"] for f in json.loads(bad.stdout)["findings"] if f["status"] == "inaccurate"] \
        == [CLEAN[:CLEAN.index("512/8")].count("\n") + 1]
    none = runner.invoke(CHECK_APP, ["check", str(prose)])
    assert none.exit_code == ExitCode.OK
    assert "nothing in it was recognised" in " ".join(none.output.split())


PAPER = textwrap.dedent(r"""
    \documentclass{article}
    \newcommand{\dmodel}{d_{\text{model}}}
    \newcommand{\scale}[1]{#1}
    \begin{document}
    \section{Model}
    \begin{equation}
    PE_{(pos,2i)} = \sin(pos / 10000^{2i/\dmodel})
    \end{equation}
    \end{document}
    """).lstrip()


def test_a_latex_sources_own_macros_are_put_in_before_reading(tmp_path, library):
    """\\dmodel, defined in the preamble, is d_model; the finding stays on the line written."""
    from tmath.gate.document import read_document
    from tmath.gate.readers.macros import expand, macros
    from tmath.gate.recognition import recognise as run

    assert macros(PAPER) == {"dmodel": r"d_{\text{model}}"}   # [1]-argument macros left alone
    assert expand(r"x^{1/\dmodel}", macros(PAPER)) == r"x^{1/{d_{\text{model}}}}"
    good, bad = tmp_path / "paper.tex", tmp_path / "planted.tex"
    good.write_text(PAPER, encoding="utf-8")
    bad.write_text(PAPER.replace("{2i/", "{i/"), encoding="utf-8")
    assert run(read_document(good), library).claims == ("sinusoidal-frequency-period",)
    wrong = problems(run(read_document(bad), library))
    assert [(f.line, f.status) for f in wrong] == [(7, "contradicts")]



def test_a_section_file_without_its_preamble_reads_the_papers_shorthand(tmp_path, library):
    """A section checked alone uses \\dmodel that its main file defines: read as d_model, so
    a wrong exponent is still found; a source's own definition always wins."""
    from tmath.gate.document import read_document
    from tmath.gate.readers.macros import macros
    from tmath.gate.recognition import recognise as run

    section = "\n".join(PAPER.splitlines()[5:8]) + "\n"   # the equation, no preamble
    assert macros(section) == {"dmodel": r"d_{\text{model}}"}
    assert macros(PAPER.replace(r"{d_{\text{model}}}", "{D}")) == {"dmodel": "D"}
    good, bad = tmp_path / "section.tex", tmp_path / "planted.tex"
    good.write_text(section, encoding="utf-8")
    bad.write_text(section.replace("{2i/", "{i/"), encoding="utf-8")
    assert run(read_document(good), library).claims == ("sinusoidal-frequency-period",)
    assert [(f.line, f.status) for f in problems(run(read_document(bad), library))] == \
        [(2, "contradicts")]


SPREAD = textwrap.dedent(r"""
    # Schedule

    $$
    lrate = d_{\text{model}}^{-0.5} \cdot
      \min(step^{-0.5},
           step \cdot warmup\_steps^{-1.5})
    $$

    # Positions

    $$
    PE(pos, j) =
    \begin{cases}
    \sin\left(pos / 10000^{2i/d_{\text{model}}}\right) & \text{if } j = 2i \\
    \cos\left(pos / 10000^{2i/d_{\text{model}}}\right) & \text{if } j = 2i + 1
    \end{cases}
    $$
    """).lstrip()


@pytest.mark.parametrize("before, after, line", [
    ("warmup\\_steps^{-1.5}", "warmup\\_steps^{-0.5}", 6),   # the third line of one relation
    ("\\sin\\left(pos / 10000^{2i/", "\\sin\\left(pos / 10000^{i/", 14),   # one case's row
    ("\\cos\\left(pos / 10000^{2i/", "\\cos\\left(pos / 10000^{i/", 15),
    ("\\min(step^{-0.5},", "\\max(step^{-0.5},", 5),   # only the function differs
])
def test_an_error_in_a_formula_over_several_lines_is_reported_on_its_own_line(
        library, before, after, line):
    """The line reported is the one that holds the part that differs from the claim, not
    the formula's first line."""
    assert not problems(recognise(SPREAD, library))
    wrong = problems(recognise(SPREAD.replace(before, after), library))
    assert [f.line for f in wrong] == [line], [(f.line, f.detail) for f in wrong]


def test_the_part_that_differs_is_found_whatever_the_order_of_a_sum():
    """differing_part names what differs (and the function above it); where a node differs in
    more than one argument, that whole node is the part; nothing when both sides differ."""
    import sympy as sp

    from tmath.meaning.difference import differing_part

    s, w, d, x = sp.symbols("s w d x")
    claim = (sp.Symbol("lr"), d ** -0.5 * sp.Min(s ** -0.5, s * w ** -1.5))
    wrong = (sp.Symbol("lr"), d ** -0.5 * sp.Min(s ** -0.5, s * w ** -0.5))
    assert differing_part(wrong, claim) == ("w", "fn:Min")
    assert differing_part((x, sp.Max(s, w)), (x, sp.Min(s, w))) == ("fn:Max",)
    assert differing_part((x, sp.cos(w) + d), (x, sp.sin(w) + d)) == ("fn:cos",)
    assert differing_part((x, sp.sin(x) + w + 2 * d), (x, 2 * d + sp.sin(x) + s)) == ("w",)
    assert differing_part((x, sp.sin(w) + d), (x, sp.sin(s) + x)) == ("d", "w")
    assert differing_part((w, sp.sin(w)), (x, sp.sin(s))) == ()
    assert differing_part((x, sp.sin(w)), (x, sp.sin(s)), back={"w": "omega"}) == \
        ("omega", "fn:sin")


WINDOW = textwrap.dedent(r"""
    # A local window

    Each token attends to the $s$ tokens before it:

    $$
    \begin{aligned}
    e_{ij} &= \mathbf{q}_i {\mathbf{k}_j}^\top \\
    a_{ij} &= \text{softmax}(e_{ij}) = \frac{\exp(e_{ij})}{\sum_{r=i-s}^{i-1} \exp(e_{ir})}
    \end{aligned}
    $$
    """).lstrip()


def test_a_softmax_over_a_window_is_the_claims_softmax_over_that_window(library):
    """The claim's Σ_j runs over every index; a document's softmax over a printed range
    Σ_{r=i−s}^{i−1} is the same definition over that range: recognised as written, and its
    near form (the denominator without exp) reported on its row."""
    clean = recognise(WINDOW, library)
    assert not problems(clean) and "softmax-boltzmann" in clean.claims
    broken = WINDOW.replace(r"\sum_{r=i-s}^{i-1} \exp(e_{ir})", r"\sum_{r=i-s}^{i-1} e_{ir}")
    wrong = problems(recognise(broken, library))
    assert [(f.status, f.claim, f.line) for f in wrong] == [
        ("contradicts", "softmax-boltzmann", 8)]
    # the function right after \frac{ is a word of its own: log for exp is found on its row
    numerator = WINDOW.replace(r"\frac{\exp(e_{ij})}", r"\frac{\log(e_{ij})}")
    assert [(f.status, f.line) for f in problems(recognise(numerator, library))] == [
        ("contradicts", 8)]


def test_renaming_every_name_of_a_bare_product_recognises_nothing(library):
    """y = Wx is Q = XW_Q once every name is renamed; that is no evidence it means the
    claim's projection, so nothing is recognised (and no figure of that claim is looked for)."""
    found = recognise("# Layer\n\n$$y = W x$$\n\n$$z = W^{(1)} x$$\n", library)
    assert found.findings == () and found.claims == ()


def test_a_shared_name_moved_onto_another_of_the_claim_is_no_evidence(library):
    """S = QK shares Q with the claim's Q = XW_Q; renaming S → Q, Q → X, K → W_Q would make
    them one, but then Q means two things: nothing is recognised (QK is not even the scores)."""
    found = recognise("# Scores\n\n$$S = Q K$$\n\n$$B = QK$$\n", library)
    assert found.findings == () and found.claims == ()


WRITTEN_OUT = textwrap.dedent(r"""
    # Weights

    INTRO

    $$\beta_{t,j} = \frac{\exp(\mathrm{g}(\mathbf{u}_t, \mathbf{m}_j))}{\sum_{l=1}^{L} \exp(\mathrm{g}(\mathbf{u}_t, \mathbf{m}_l))}$$
    """).lstrip()
BETA_BROKEN = (r"\sum_{l=1}^{L} \exp(\mathrm{g}(\mathbf{u}_t, \mathbf{m}_l))",
               r"\sum_{l=1}^{L} \mathrm{g}(\mathbf{u}_t, \mathbf{m}_l)")


def test_a_softmax_written_out_without_its_name_is_recognised(library):
    """exp(g_j)/Σ_l exp(g_l), with no softmax in sight, is the claim's definition at g_j over
    the printed range: recognised whatever the words say."""
    found = recognise(WRITTEN_OUT.replace("INTRO", "Each memory slot gets a weight."), library)
    assert not problems(found) and "softmax-boltzmann" in found.claims


@pytest.mark.parametrize("intro, reported", [
    ("The weights are a softmax of the scores over the slots.", True),
    ("Each memory slot gets a weight.", False),   # not said to be a softmax: its own definition
])
def test_its_near_form_is_an_error_only_where_the_words_call_it_a_softmax(library, intro,
                                                                          reported):
    broken = WRITTEN_OUT.replace("INTRO", intro).replace(*BETA_BROKEN)
    wrong = problems(recognise(broken, library))
    assert [(f.status, f.claim, f.line) for f in wrong] == (
        [("contradicts", "softmax-boltzmann", 5)] if reported else [])


def test_a_log_softmax_or_a_masked_one_is_not_a_near_form(library):
    """Only a product with exp(E_j) as a factor is set beside the definition: the log of a
    softmax, or one with a mask as another factor, is left alone even where called softmax."""
    text = ("# Log\n\nThe log-softmax and a masked softmax:\n\n"
            r"$$\log p_j = x_j - \log \sum_l \exp(x_l)$$" "\n\n"
            r"$$a_{j} = \frac{\exp(x_j) m_j}{\sum_l \exp(x_l) m_l}$$" "\n")
    assert not problems(recognise(text, library))


EXPRESSION = ("# Output\n\nScaled dot-product attention of the rows of Q against those of K "
              "returns\n\n"
              r"$$\mathrm{softmax}\left(\frac{Q K^\top}{\sqrt{w}}\right) V \in \mathbb{R}^{n \times v}$$"
              "\n")


def test_a_definitions_body_written_as_an_expression_is_recognised_and_its_near_form_found(
        library):
    """softmax(QKᵀ/√w)V with its shape is Attention's body, w renamed in this expression
    alone; with √w → w, where the words call it attention, it is the claim's near form."""
    assert "attention-temperature" in recognise(EXPRESSION, library).claims
    broken = EXPRESSION.replace(r"{\sqrt{w}}", "{w}")
    wrong = problems(recognise(broken, library))
    assert [(f.status, f.claim, f.line) for f in wrong] == [
        ("contradicts", "attention-temperature", 5)]
    unnamed = broken.replace("Scaled dot-product attention of", "A weighting of")
    assert not problems(recognise(unnamed, library))


ENTRIES = textwrap.dedent(r"""
    # Positions as vectors

    Each position $t$ gets a vector of $d$ numbers. Its $i$-th entry is

    $$
    \vec{p_t}^{(i)} = f(t)^{(i)} :=
    \begin{cases}
    \sin({\omega_k} . t),  & \text{if}\  i = 2k \\
    \cos({\omega_k} . t),  & \text{if}\  i = 2k + 1
    \end{cases}
    $$

    where

    $$
    \omega_k = \frac{1}{10000^{2k / d}}
    $$
    """).lstrip()


@pytest.mark.parametrize("broken, line", [
    (r"\cos({\omega_k} . t),  & \text{if}\  i = 2k \\", 8),   # both rows cos: merged by
    (r"\sin({\omega_k} / t),  & \text{if}\  i = 2k \\", 8),   # SymPy, row found by its
])                                                               # printed condition
def test_entries_by_cases_with_a_family_defined_below_are_the_claims_encoding(library, broken,
                                                                              line):
    r"""``p_t^{(i)}`` is the i-th entry of p_t (not a power); the family ``ω_k`` defined
    below is put in, so the cases are PE(pos, 2i) and PE(pos, 2i+1); a broken case is the
    claim's near form, reported on its row, and the family's definition, itself the claim's
    ω_i, is not blamed."""
    clean = recognise(ENTRIES, library)
    assert not problems(clean)
    assert clean.claims == ("sinusoidal-frequency-period",)
    row = r"\sin({\omega_k} . t),  & \text{if}\  i = 2k \\"
    wrong = problems(recognise(ENTRIES.replace(row, broken), library))
    assert [(f.status, f.claim, f.line) for f in wrong] == [
        ("contradicts", "sinusoidal-frequency-period", line)]


def test_a_family_is_never_renamed_onto_a_plain_name(library):
    """Without its definition, sin(ω_k t) is not PE(pos, 2i) = sin(pos/10000^{2i/d}) with
    ω renamed to d: a family is renamed onto a family only, so nothing is said."""
    alone = ENTRIES.split("where")[0]
    assert not problems(recognise(alone, library))


def test_a_part_of_a_claim_said_with_a_name_of_its_other_part_is_its_near_form(library):
    """The claim has E[qᵀk] = 0 and Var(qᵀk) = d_k; a mean of d_k uses only the claim's
    names, though not those of the part it states, and is that part's near form."""
    good = ("# Moments\n\nWith unit-variance components, $\\mathrm{E}[\\mathbf{q}^\\top \\mathbf{k}]"
            " = 0$ and $\\mathrm{Var}(\\mathbf{q}^\\top \\mathbf{k}) = d_k$.\n")
    found = recognise(good, library)
    assert "dot-product-variance" in found.claims and not problems(found)
    wrong = problems(recognise(good.replace("= 0$", "= d_k$"), library))
    assert [(f.line, f.status, f.claim) for f in wrong] == [
        (3, "contradicts", "dot-product-variance")]


def test_the_cache_key_changes_with_any_gate_module_subfolders_included(tmp_path):
    from tmath.engine.cache import code_digest

    (tmp_path / "readers").mkdir()
    (tmp_path / "top.py").write_text("A = 1\n")
    (tmp_path / "readers" / "words.py").write_text("B = 1\n")
    before = code_digest(tmp_path)
    (tmp_path / "readers" / "words.py").write_text("B = 2\n")   # a reader's judgement changed
    assert code_digest(tmp_path) != before
    (tmp_path / "readers" / "words.py").write_text("B = 1\n")
    assert code_digest(tmp_path) == before
    (tmp_path / "readers" / "words.py").rename(tmp_path / "words.py")   # moved, same bytes
    assert code_digest(tmp_path) != before
