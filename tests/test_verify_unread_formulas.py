"""``verify`` says when a claim's recorded formulas were not read by meaning (``unparsed`` or
``not-compared``): ``tmath check`` can then match them by spelling only, which passed
silently before. The table marks the claim, and a line below it says what that means and
which command's JSON shows every formula's meaning and why."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tmath.cli import app
from tmath.exitcodes import ExitCode

runner = CliRunner()

SLOPE = '''
import sympy as sp
from tmath import Foil, Statement, claim

x = sp.Symbol("x", real=True)
S = 1 / (1 + sp.exp(-x))


@claim(id="slope", title="the logistic slope", section="1",
       statement=Statement("s' = s(1 − s)", S * (1 - S), lhs=sp.Derivative(S, x)),
       premises=(), foils=(Foil("s²", S**2),),
       formulas=({formula!r},))
class Slope:
    def prove(self, value, proof):
        chain = (proof.chain(S).differentiate(x, method="none")
                 .equals(S * (1 - S), "s(1 − s)", method="cancel"))
        proof.conclude(value, chain)

    def check(self, value, experiment):
        experiment.holds(abs(float(value.subs(x, 0)) - 0.25) < 1e-12, "s'(0) = 1/4")
'''


def verify(claims_dir, formula: str, *extra: str):
    folder = claims_dir({"slope.py": SLOPE.format(formula=formula)})
    return runner.invoke(app, ["verify", "--claims", str(folder), "--no-builtin", "slope",
                               "--no-cache", "-j", "1", *extra], env={"COLUMNS": "200"})


def test_an_unread_recorded_formula_is_said_in_the_table_and_the_summary(claims_dir):
    done = verify(claims_dir, r"\frac{d}{dx} s(x) = s(x) (1 - s(x))")
    assert done.exit_code == ExitCode.OK, done.output   # not a failure: a note
    assert "(formulas unread: 1)" in done.output
    said = " ".join(done.output.split())
    assert "formulas unread (marked above): recorded formulas not read by meaning" in said
    assert "tmath verify ID -f json" in said


def test_the_json_the_note_points_to_shows_each_formulas_meaning(claims_dir):
    done = verify(claims_dir, r"\frac{d}{dx} s(x) = s(x) (1 - s(x))", "-f", "json")
    [claim] = json.loads(done.stdout)["claims"]
    [formula] = claim["formulas"]
    assert formula["meaning"] == "unparsed" and "d/dx (Leibniz notation)" in formula["detail"]


def test_a_formula_read_by_meaning_gives_no_note(claims_dir):
    done = verify(claims_dir, r"\frac{\partial}{\partial x} \frac{1}{1 + e^{-x}} = "
                              r"\frac{1}{1 + e^{-x}} \left(1 - \frac{1}{1 + e^{-x}}\right)")
    assert done.exit_code == ExitCode.OK, done.output
    assert "unread" not in done.output and "not read by meaning" not in done.output
