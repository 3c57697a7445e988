"""Formulas by meaning (tmath.meaning, tmath.gate.meaning): a formula that means what a claim
proves is bound whatever its spelling; the near form of it with another meaning is an error,
at verify time (a claim recording it fails) and in the gate (on the document's line)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.exitcodes import ExitCode
from tmath.latex import read
import sympy as sp

from tmath.meaning.compare import compare
from tmath.meaning.forms import form

runner = CliRunner()


def relation(latex: str):
    [r] = read(latex).relations
    made = form(r.lhs, r.op, r.rhs)
    assert made is not None, latex
    return made


CLAIMED = r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = \frac{\text{Var}(q^T k)}{d_k}"


@pytest.mark.parametrize("same", [
    r"\frac{\text{Var}(q^T k)}{d_k} = \text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right)",   # sides
    r"\text{Var}(d_k^{-1/2}\, q^T k) = d_k^{-1} \text{Var}(q^T k)",                     # powers
    r"\mathrm{Var}\left(\frac{q^\top k}{\sqrt{d_k}}\right) = \frac{\mathrm{Var}(q^\top k)}{d_k}",
    r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) - \frac{\text{Var}(q^T k)}{d_k} = 0",  # moved
])
def test_a_formula_spelt_otherwise_is_equivalent(same):
    assert compare(relation(same), relation(CLAIMED)) == "equivalent"


@pytest.mark.parametrize("other", [
    r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = -\frac{\text{Var}(q^T k)}{d_k}",  # sign
    r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = \frac{\text{Var}(q^T k)}{d_k^2}",  # exp.
    r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = \frac{\text{Var}(q^T k)}{\sqrt{d_k}}",
    r"\text{Var}\left(\frac{q^T k}{\sqrt{d_k}}\right) = \text{Var}(q^T k)",                # factor
])
def test_the_near_form_with_another_meaning_contradicts(other):
    assert compare(relation(other), relation(CLAIMED)) == "contradicts"


def test_expectations_read_with_either_letter_are_one_quantity():
    assert compare(relation(r"\mathbb{E}[x^2] = 1"), relation(r"E[x^2] = 1")) == "equivalent"
    assert compare(relation(r"\mathbb{E}[x^2] = 2"), relation(r"E[x^2] = 1")) == "contradicts"


def test_bounds_keep_their_direction_and_strength():
    claimed = relation(r"\text{Var}(x) \le E[x^2]")
    assert compare(relation(r"E[x^2] \ge \text{Var}(x)"), claimed) == "equivalent"
    assert compare(relation(r"\text{Var}(x) \le 2 E[x^2]"), claimed) == "contradicts"
    assert compare(relation(r"\text{Var}(x) < E[x^2]"), claimed) == "contradicts"  # not shown


def test_arithmetic_identities_match_only_themselves():
    assert compare(relation("3 + 3 = 6"), relation("2 + 2 = 4")) is None
    assert compare(relation("4 = 2 + 2"), relation("2 + 2 = 4")) == "equivalent"


def test_sums_with_other_index_letters_are_one_sum():
    a = relation(r"S = \sum_{i=1}^{n} x_i^2")
    assert compare(relation(r"S = \sum_{j=1}^{n} x_j^2"), a) == "equivalent"
    assert compare(relation(r"S = \sum_{j=1}^{n} x_j"), a) is None   # S is a bare name


# -- the wrong-formula hole, end to end -----------------------------------------------------

CLAIM = '''\
"""A toy claim for the tests: the variance of a difference of independent variables."""

import sympy as sp

from tmath import Foil, Statement, claim
from tmath.engine.moments import Moments, Var

A, B = sp.symbols("A B")


@claim(
    id="difference-variance",
    title="Variances of independent variables add, even for a difference",
    section="1",
    statement=Statement("Var(A - B) = Var(A) + Var(B)", Var(A) + Var(B), lhs=Var(A - B)),
    premises=("A and B are independent",),
    foils=(Foil("the variances subtract", Var(A) - Var(B)),),
    formulas=(RECORDED,),
    statistical_tests=1,
)
class DifferenceVariance:
    """Independence kills the covariance term; the sign of B does not matter once squared."""

    def prove(self, value, proof):
        rules = Moments(random=(A, B), independent="A and B are independent")
        chain = (proof.chain(Var(A - B), "Var(A − B)").apply(rules.bienayme)
                 .apply(rules.variance_scaling))
        proof.conclude(value, chain)

    def check(self, value, experiment):
        # A standard normal, B exponential with scale 2 (variance 4), drawn independently
        expected = float(value.subs({Var(A): 1, Var(B): 4}))
        experiment.variance(lambda rng, m: rng.standard_normal(m) - rng.exponential(2.0, m),
                            expected, "Var(A − B)")
'''

DOCUMENT = """\
# Differences

## 1. Spread

$$FORMULA$$
"""

WRONG = r"\text{Var}(A - B) = \text{Var}(A) - \text{Var}(B)"
RIGHT = r"\text{Var}(A - B) = \text{Var}(A) + \text{Var}(B)"


def _folder(tmp_path: Path, recorded: str) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    source = CLAIM.replace("RECORDED", repr(recorded))
    (folder / "difference.py").write_text(source, encoding="utf-8")
    return folder


def _document(tmp_path: Path, formula: str) -> Path:
    path = tmp_path / "doc.md"
    path.write_text(DOCUMENT.replace("FORMULA", formula), encoding="utf-8")
    return path


def _verify(folder: Path):
    return runner.invoke(app, ["verify", "all", "--claims", str(folder), "--no-builtin",
                               "--no-cache", "-j", "1", "-f", "json"])


def _check(doc: Path, folder: Path):
    result = runner.invoke(app, ["check", str(doc), "--claims", str(folder), "--no-builtin",
                                 "--no-cache", "-j", "1", "-f", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def _formulas(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["kind"] == "formula"]


def test_an_honest_claim_recording_the_right_formula_covers_it_by_meaning(tmp_path):
    folder = _folder(tmp_path, RIGHT)
    assert _verify(folder).exit_code == ExitCode.OK
    spelt = r"\mathrm{Var}(A) + \mathrm{Var}(B) = \mathrm{Var}(A - B)"   # sides swapped
    code, report = _check(_document(tmp_path, spelt), folder)
    [finding] = _formulas(report)
    assert code == ExitCode.OK
    assert (finding["status"], finding["meaning"]) == ("covered", "equivalent")
    assert finding["compared_with"] == ["statement"]


def test_a_claim_recording_a_wrong_formula_fails_verification(tmp_path):
    """Route 1: the author writes the claim by hand, proves the truth, records the notes'
    wrong formula. Before, the gate blessed the wrong formula (covered, exit 0)."""
    folder = _folder(tmp_path, WRONG)
    result = _verify(folder)
    assert result.exit_code == ExitCode.FAILED
    [claim] = json.loads(result.stdout)["claims"]
    assert claim["verdict"] == "failed"
    [recorded] = claim["formulas"]
    assert recorded["meaning"] == "contradicts" and "Var(A) + Var(B)" in recorded["detail"]
    code, report = _check(_document(tmp_path, WRONG), folder)
    [finding] = _formulas(report)
    assert code == ExitCode.FAILED and finding["status"] != "covered"


def test_a_document_changing_the_formula_contradicts_the_claim_on_its_line(tmp_path):
    folder = _folder(tmp_path, RIGHT)
    code, report = _check(_document(tmp_path, WRONG), folder)
    [finding] = _formulas(report)
    assert code == ExitCode.FAILED
    assert (finding["status"], finding["meaning"], finding["line"]) == ("contradicts",
                                                                        "contradicts", 5)
    assert finding["recorded"] == RIGHT and "difference-variance" in finding["detail"]


def test_tmath_new_then_an_honest_statement_fails_on_the_wrong_formula(tmp_path, monkeypatch):
    """Route 2: `tmath new` records the document's (wrong) formula and writes the statement
    from its parse; the author corrects the statement and proves it; the claim then fails
    on the recorded formula, and the gate does not bless it."""
    monkeypatch.chdir(tmp_path)
    doc = _document(tmp_path, WRONG)
    assert runner.invoke(app, ["new", "--from", f"{doc}:5", "--claims", "mine"]).exit_code == 0
    [written] = (tmp_path / "mine").glob("*.py")
    source = written.read_text(encoding="utf-8")
    assert "lhs=PARSED.lhs" in source and "PARSED.rhs" in source
    honest = source.replace("PARSED.rhs,", "Var(A) + Var(B),").replace(
        "from tmath import", "from tmath.engine.moments import Moments, Var\nfrom tmath import")
    honest = honest.replace("premises=(),", 'premises=("A and B are independent",),\n'
                            "    statistical_tests=1,")
    honest = honest.replace('        not_written_yet("prove()")', textwrap.indent(textwrap.dedent('''\
        rules = Moments(random=(A, B), independent="A and B are independent")
        proof.conclude(value, proof.chain(PARSED.lhs, "Var(A − B)").apply(rules.bienayme)
                       .apply(rules.variance_scaling))'''), " " * 8))
    honest = honest.replace('        not_written_yet("check()")', textwrap.indent(textwrap.dedent('''\
        expected = float(value.subs({Var(A): 1, Var(B): 4}))
        experiment.variance(lambda rng, m: rng.standard_normal(m) - rng.exponential(2.0, m),
                            expected, "Var(A − B)")'''), " " * 8))
    written.write_text(honest, encoding="utf-8")
    result = _verify(tmp_path / "mine")
    assert result.exit_code == ExitCode.FAILED
    [claim] = json.loads(result.stdout)["claims"]
    assert claim["proof"]["status"] == "proved"
    assert [f["meaning"] for f in claim["formulas"]] == ["contradicts"]
    code, report = _check(doc, tmp_path / "mine")
    assert code == ExitCode.FAILED
    assert [f["status"] for f in _formulas(report)] != ["covered"]


def test_a_changed_identity_contradicts_it():
    identity = relation(r"\sin(a + b) = \sin a \cos b + \cos a \sin b")
    assert compare(relation(r"\sin a \cos b + \cos a \sin b = \sin(a + b)"), identity) \
        == "equivalent"
    assert compare(relation(r"\sin(a + b) = \sin a \cos b - \cos a \sin b"), identity) \
        == "contradicts"


def test_fix_restates_a_contradicted_formula_by_the_claims_form(tmp_path):
    folder = _folder(tmp_path, RIGHT)
    swapped = r"\mathrm{Var}(A) - \mathrm{Var}(B) = \mathrm{Var}(A - B)"
    doc = _document(tmp_path, swapped)
    result = runner.invoke(app, ["check", str(doc), "--claims", str(folder), "--no-builtin",
                                 "-j", "1", "--fix", "--write"])
    assert result.exit_code == ExitCode.OK, result.output
    fixed = doc.read_text(encoding="utf-8")
    assert r"$$\text{Var}(A) + \text{Var}(B) = \mathrm{Var}(A - B)$$" in fixed


@pytest.mark.parametrize("swapped", [
    r"\text{Attention}(Q, K, V) = V \, \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right)",
    r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{K^T Q}{\sqrt{d_k}}\right) V",
])
def test_products_of_matrices_keep_their_order(swapped):
    claimed = relation(r"\text{Attention}(Q, K, V) = \text{softmax}"
                       r"\left(\frac{QK^T}{\sqrt{d_k}}\right) V")
    assert compare(relation(swapped), claimed) == "contradicts"


def test_a_named_quantity_redefined_contradicts_only_a_statement_or_definition_of_it():
    defined = relation(r"m_t = \beta_1 m_{t-1} + (1 - \beta_1) g_t")
    changed = relation(r"m_t = \beta_1 m_{t-1} + (1 + \beta_1) g_t")
    assert compare(changed, defined, named=True) == "contradicts"
    assert compare(changed, defined) is None                  # not a definition: unrelated
    assert compare(relation("m_t = 3"), defined, named=True) is None   # a figure
    assert compare(relation("y = a + b"), relation("y = a - b"), named=True) is None  # a letter


def test_a_shape_statement_and_a_printed_membership_are_one_relation():
    from tmath.engine.rules_shapes import shape
    from tmath.latex.operators import RealSpace

    T, d = sp.symbols("T d_k")
    M = sp.Symbol("M")
    stated = form(shape(M), "=", sp.ImmutableMatrix([T, d]))
    assert compare(relation(r"M \in \mathbb{R}^{T \times d_k}"), stated) == "equivalent"
    assert compare(relation(r"M \in \mathbb{R}^{d_k \times T}"), stated) is None   # a bare M
    defined = form(M, "=", RealSpace(T, d))
    assert compare(relation(r"M \in \mathbb{R}^{T \times d_k}"), defined) == "equivalent"


def test_a_concatenation_and_attention_are_matrices_in_products():
    claimed = relation(r"\text{MultiHead}(Q, K, V) = \text{Concat}(\text{head}_1, \ldots, "
                       r"\text{head}_h) \cdot W_O")
    swapped = relation(r"\text{MultiHead}(Q, K, V) = W_O \cdot \text{Concat}(\text{head}_1, "
                       r"\ldots, \text{head}_h)")
    assert compare(swapped, claimed) == "contradicts"


def test_terms_free_of_the_variable_do_not_move_an_argmin():
    assert compare(relation(r"\arg\min_\theta (f(\theta) + c) = \arg\min_\theta f(\theta)"),
                   relation("a = b")) is None   # an identity: compared only with itself
    same = relation(r"\arg\min_\theta (f(\theta) + c) = \arg\min_\theta f(\theta)")
    assert same.identity
    assert not relation(r"\arg\min_\theta (f(\theta) + \theta) = \arg\min_\theta f(\theta)").identity
    assert relation(r"\arg\max_x g(x) = \arg\min_x (-g(x))").identity


def test_a_condition_in_words_is_a_proposition_compared_but_never_said_to_contradict():
    ours = relation(r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ is real} \\ -\infty & "
                    r"\text{if } j \text{ is padded} \end{cases}")
    assert compare(relation(r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ is real} \\ "
                            r"-\infty & \text{if } j \text{ is padded} \end{cases}"), ours,
                   named=True) == "equivalent"
    reworded = relation(r"M_{ij} = \begin{cases} 0 & \text{if } j \text{ is a token} \\ "
                        r"-\infty & \text{if } j \text{ is a pad} \end{cases}")
    assert compare(reworded, ours, named=True) is None   # other words: not judged
    assert read(r"x \text{ for all } y = 2").status == "unparsed"   # prose elsewhere: unread
