"""A step's ``method=``: a wrong name is a one-line error that lists the names there are; every
name is an equivalence the kernel still checks (a false step fails whatever the method); and
``differentiate``/``evaluate`` can leave SymPy's result as it is (``method="none"``)."""

from __future__ import annotations

import pytest
import sympy as sp
from typer.testing import CliRunner

from tmath import Statement
from tmath.cli import app
from tmath.engine.equality import SIMPLIFIERS
from tmath.engine.proof import Derivation, ProofDefinitionError, ProofFailure

x = sp.Symbol("x", real=True)
SIGMOID = 1 / (1 + sp.exp(-x))
SLOPE = SIGMOID * (1 - SIGMOID)
RAW_SLOPE = sp.exp(-x) / (1 + sp.exp(-x)) ** 2
runner = CliRunner()


def derivation(lhs, value) -> Derivation:
    return Derivation(statement=Statement("s", value, lhs), value=value)


@pytest.mark.parametrize("step", [
    lambda c: c.equals(SIGMOID, "same", method="bogus"),
    lambda c: c.evaluate("evaluate", method="bogus"),
    lambda c: c.differentiate(x, method="bogus"),
])
def test_a_wrong_method_names_the_methods_there_are(step):
    proof = derivation(sp.Derivative(SIGMOID, x), SLOPE)
    with pytest.raises(ProofDefinitionError) as raised:
        step(proof.chain(SIGMOID, "σ"))
    message = str(raised.value)
    assert "\n" not in message and "method='bogus'" in message
    assert all(name in message for name in SIMPLIFIERS)


def test_a_wrong_method_in_conclude_is_refused_too():
    proof = derivation(sp.Derivative(SIGMOID, x), SLOPE)
    chain = proof.chain(sp.Derivative(SIGMOID, x), "σ'").evaluate()
    with pytest.raises(ProofDefinitionError, match="use one of: simplify"):
        proof.conclude(SLOPE, chain, method="bogus")


def test_a_wrong_method_is_a_proof_error_in_one_line_not_a_traceback(claims_dir, tmp_path):
    folder = claims_dir({"slope.py": '''
        import sympy as sp
        from tmath import Foil, Statement, claim

        x = sp.Symbol("x", real=True)
        S = 1 / (1 + sp.exp(-x))

        @claim(id="slope", title="σ' = σ(1 − σ)", section="1",
               statement=Statement("σ' = σ(1 − σ)", S * (1 - S), lhs=sp.Derivative(S, x)),
               premises=(), foils=(Foil("σ²", S**2),))
        class Slope:
            def prove(self, value, proof):
                proof.conclude(value, proof.chain(sp.Derivative(S, x)).evaluate(method="bogus"))

            def check(self, value, experiment):
                experiment.holds(True, "nothing", sanity="a stub")
        '''})
    result = runner.invoke(app, ["verify", "--claims", str(folder), "--no-builtin", "slope",
                                 "--no-cache", "-j", "1"])
    assert result.exit_code != 0
    assert "KeyError" not in result.output and "Traceback" not in result.output
    assert "method='bogus' is not one of tmath's SymPy methods" in " ".join(result.output.split())


def test_differentiate_simplifies_by_default_and_keeps_sympys_form_with_none():
    """The default (unchanged for existing claims) may reach a form the next step cannot
    relate back (1/(4 cosh²(x/2))); ``method="none"`` keeps e^{-x}/(1 + e^{-x})²."""
    simplified = derivation(sp.Derivative(SIGMOID, x), SLOPE).chain(SIGMOID).differentiate(x)
    assert simplified.value.has(sp.cosh)
    kept = derivation(sp.Derivative(SIGMOID, x), SLOPE).chain(SIGMOID).differentiate(
        x, method="none")
    assert kept.value == RAW_SLOPE
    assert "[SymPy doit]" in kept._derivation.steps[-1].why


def test_the_sigmoid_slope_is_proved_through_the_unsimplified_derivative():
    proof = derivation(sp.Derivative(SIGMOID, x), SLOPE)
    chain = (proof.chain(SIGMOID, "σ").differentiate(x, method="none")
             .equals(SLOPE, "σ(1 − σ) written out", method="cancel"))
    proof.conclude(SLOPE, chain)
    proof.finish()
    assert proof.level() == ("proved", ())


def test_evaluate_with_none_keeps_the_evaluated_form():
    proof = derivation(sp.Derivative(SIGMOID, x), SLOPE)
    chain = proof.chain(sp.Derivative(SIGMOID, x)).evaluate(method="none")
    assert chain.value == RAW_SLOPE


@pytest.mark.parametrize("method", ["together", "ratsimp", "radsimp", "none", "cancel"])
def test_every_method_still_refuses_a_false_step(method):
    proof = derivation(sp.Derivative(SIGMOID, x), SLOPE)
    chain = proof.chain(sp.Derivative(SIGMOID, x)).evaluate(method="none")
    with pytest.raises(ProofFailure):
        chain.equals(SIGMOID * (1 + SIGMOID), "a foil", method=method)


@pytest.mark.parametrize("method, a, b", [
    ("ratsimp", 1 / (x + 1) + 1 / (x - 1), 2 * x / (x**2 - 1)),
    ("radsimp", sp.sqrt(2) / (sp.sqrt(2) - 1), 2 + sp.sqrt(2)),
    ("together", 1 / (x + 1) + 1 / (x - 1), 2 * x / ((x - 1) * (x + 1))),
])
def test_the_added_methods_show_what_they_are_for(method, a, b):
    proof = derivation(a, b)
    chain = proof.chain(a).equals(b, method, method=method)
    proof.conclude(b, chain)
    proof.finish()
    assert proof.level()[0] == "proved"
