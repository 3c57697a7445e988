"""Step-checked symbolic derivations.

A claim's ``prove(value, proof)`` builds a :class:`Derivation`: one or more chains of
equalities that start from an expression of the premises and move step by step, each step
either checked by SymPy or resting on a *named* rule (a premise SymPy cannot check, such as
"independent variances add"). ``proof.conclude(value, *chains)`` finally compares where the
chains arrived with the statement's value. A foil's value therefore fails at the conclusion,
with a counterexample when one can be found.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import sympy as sp

from tmath.engine.results import ProofStep, StepKind


SIMPLIFIERS: dict[str, Callable[[Any], Any]] = {
    "simplify": sp.simplify,
    "expand": sp.expand,
    "trigsimp": sp.trigsimp,
    "expand_trig": lambda e: sp.simplify(sp.expand_trig(e)),
    "factor": sp.factor,
    "cancel": sp.cancel,
    "powsimp": lambda e: sp.powsimp(e, force=True),
    "logcombine": lambda e: sp.simplify(sp.logcombine(e, force=True)),
    "expand_log": lambda e: sp.simplify(sp.expand_log(e, force=True)),
    "doit": lambda e: sp.simplify(e.doit()),
}


@dataclass(frozen=True)
class Rule:
    """A named rewrite SymPy cannot justify, e.g. linearity of expectation.

    ``apply`` performs the rewrite mechanically, so the step is exactly the rule's output;
    the rule itself is a premise and is shown as such.
    """

    name: str
    apply: Callable[[Any], Any]


# Exceptions SymPy itself raises when it cannot decide a step (seen: StopIteration inside
# sum_simplify, NotImplementedError in series expansions). A step SymPy cannot check is a
# failed step, not a bug in the claim.
# TypeError and the like stay errors: they point at the claim's code, and an audit must not
# count a broken foil as a rejected one.
SYMPY_FAILURES = (NotImplementedError, StopIteration, RecursionError, sp.PolynomialError)


class ProofFailure(Exception):
    """Raised inside a derivation when a step does not hold; ends the proof as ``failed``."""


def reduces_to_zero(difference: Any, method: str = "simplify") -> bool:
    """True when SymPy's ``method`` reduces ``difference`` to exactly zero."""
    simplify = SIMPLIFIERS[method]
    if isinstance(difference, sp.MatrixBase):
        return all(reduces_to_zero(entry, method) for entry in difference)
    reduced = simplify(sp.sympify(difference))
    if reduced == 0:
        return True
    return bool(getattr(reduced, "is_zero", False))


def counterexample(difference: Any, tries: int = 12) -> str | None:
    """Find values of the free symbols at which ``difference`` is clearly not zero."""
    entries = list(difference) if isinstance(difference, sp.MatrixBase) else [difference]
    rng = random.Random(0)
    for entry in entries:
        entry = sp.sympify(entry)
        symbols = sorted(entry.free_symbols, key=str)
        for _ in range(tries):
            point = {s: _sample_value(s, rng) for s in symbols}
            try:
                value = complex(entry.subs(point).evalf(30))
            except (TypeError, ValueError):
                break
            if abs(value) > 1e-9:
                at = ", ".join(f"{s}={v}" for s, v in point.items()) or "all values"
                return f"differs by {_short(value)} at {at}"
    return None


def _limit_disagreement(expr: Any, variable: sp.Symbol, point: Any, direction: str,
                        result: Any) -> str | None:
    """SymPy's limit has returned wrong values for expressions with several symbolic
    parameters, so each limit is cross-checked: evaluated with 50 digits close to the point
    (10⁻¹² away, or at 10¹² for ∞) at random parameter values, it must agree with the limit
    to within 10⁻³ (the check is skipped where the expression cannot be evaluated)."""
    rng = random.Random(1)
    if point in (sp.oo, -sp.oo):
        near = sp.Integer(10) ** 12 * (1 if point == sp.oo else -1)
    else:
        near = point + (sp.Rational(1, 10**12) if direction != "-" else -sp.Rational(1, 10**12))
    others = sorted(sp.sympify(expr).free_symbols - {variable}, key=str)
    for _ in range(3):
        point_values = {s: _sample_value(s, rng) for s in others}
        try:
            got = complex(sp.sympify(expr).subs(point_values).subs(variable, near).evalf(50))
            want = complex(sp.sympify(result).subs(point_values).evalf(50))
        except (TypeError, ValueError):
            return None
        if abs(got - want) > 1e-3 * max(1.0, abs(want)):
            at = ", ".join(f"{s}={v}" for s, v in point_values.items())
            return (f"SymPy's limit {show(result)} disagrees with the value {_short(got)} "
                    f"near the point (at {at})")
    return None


def _sample_value(symbol: sp.Symbol, rng: random.Random) -> sp.Expr:
    if symbol.is_integer:
        low = 1 if symbol.is_positive else (0 if symbol.is_nonnegative else -5)
        return sp.Integer(rng.randint(low + 1, 9))
    numerator = rng.randint(1, 40)
    if symbol.is_positive or symbol.is_nonnegative:
        return sp.Rational(numerator, 7)
    return sp.Rational(numerator - 20, 7)


def _short(value: complex) -> str:
    if abs(value.imag) < 1e-12:
        return f"{value.real:.4g}"
    return f"{value:.4g}"


def show(expr: Any) -> str:
    """Compact one-line text of an expression."""
    if isinstance(expr, (tuple, list)):
        return "(" + ", ".join(show(e) for e in expr) + ")"
    return sp.sstr(expr) if isinstance(expr, sp.Basic) else str(expr)


class Chain:
    """A sequence of equalities ``start = e1 = e2 = ...``; each step is recorded."""

    def __init__(self, derivation: Derivation, start: Any, label: str) -> None:
        self._derivation = derivation
        self.label = label
        self.start = sp.sympify(start)
        self.value = self.start
        self.steps = 0

    def equals(self, expr: Any, why: str = "algebra", method: str = "simplify") -> Chain:
        """Move to ``expr``; SymPy must reduce ``current - expr`` to zero."""
        expr = sp.sympify(expr)
        difference = self.value - expr
        try:
            if reduces_to_zero(difference, method):
                return self._record(expr, f"{why} [SymPy {method}]", "checked")
            found = counterexample(difference)
            detail = found or f"SymPy {method} left {show(SIMPLIFIERS[method](difference))}"
        except SYMPY_FAILURES as exc:
            detail = f"SymPy could not check this step ({type(exc).__name__}: {exc})"
        return self._record(expr, why, "failed", detail)

    def evaluate(self, why: str = "evaluate", method: str = "simplify") -> Chain:
        """Let SymPy evaluate sums, integrals, limits and derivatives (``doit``) and simplify."""
        try:
            result = SIMPLIFIERS[method](self.value.doit())
        except SYMPY_FAILURES as exc:
            return self._record(self.value, why, "failed",
                                f"SymPy could not evaluate ({type(exc).__name__}: {exc})")
        return self._record(result, f"{why} [SymPy doit + {method}]", "checked")

    def limit(self, variable: sp.Symbol, point: Any, direction: str = "+") -> Chain:
        """Move to the limit of the current expression, computed by SymPy."""
        try:
            result = sp.limit(self.value, variable, point, dir=direction)
        except SYMPY_FAILURES as exc:
            return self._record(self.value, f"limit {variable} → {point}", "failed",
                                f"SymPy could not take the limit ({type(exc).__name__}: {exc})")
        if result.has(sp.Limit, sp.AccumBounds) or result is sp.nan:
            return self._record(result, f"limit {variable} → {point}", "failed",
                                "SymPy could not determine the limit")
        disagreement = _limit_disagreement(self.value, variable, point, direction, result)
        if disagreement:
            return self._record(result, f"limit {variable} → {point}", "failed", disagreement)
        return self._record(result, f"limit {variable} → {point} [SymPy limit, "
                                    "cross-checked numerically]", "checked")

    def apply(self, rule: Rule) -> Chain:
        """Rewrite by a named rule (a premise), applied mechanically."""
        result = rule.apply(self.value)
        return self._record(result, rule.name, "rule", "" if result != self.value else "no change")

    def substitute(self, mapping: Mapping[Any, Any], premise: str | None = None,
                   lemma: str | None = None) -> Chain:
        """Replace sub-expressions by their values from a premise or a proved lemma (claim id)."""
        if (premise is None) == (lemma is None):
            raise ValueError("substitute() needs exactly one of premise= or lemma=")
        if lemma is not None:
            self._derivation.cite(lemma)
        result = self.value.xreplace({sp.sympify(k): sp.sympify(v) for k, v in mapping.items()})
        if result == self.value:
            return self._record(result, premise or f"by {lemma}", "failed",
                                "none of the substituted expressions occurs here")
        if lemma is not None:
            return self._record(result, f"by claim {lemma}", "lemma")
        return self._record(result, f"premise: {premise}", "premise")

    def _record(self, expr: Any, why: str, kind: StepKind, detail: str = "") -> Chain:
        self._derivation.add(ProofStep(self.label, show(self.value), show(expr), why, kind, detail))
        self.value = expr
        self.steps += 1
        if kind == "failed":
            raise ProofFailure(detail or why)
        return self


class Derivation:
    """The builder a claim's ``prove`` receives."""

    def __init__(self, allowed_lemmas: Iterable[str] = ()) -> None:
        self.steps: list[ProofStep] = []
        self.cases: str | None = None
        self.concluded = False
        self._allowed_lemmas = frozenset(allowed_lemmas)

    def chain(self, start: Any, label: str = "") -> Chain:
        """Start a chain of equalities at an expression built from the premises."""
        return Chain(self, start, label)

    def for_cases(self, description: str) -> None:
        """Declare that the derivation covers only these cases (e.g. "n = 2..6")."""
        self.cases = description

    def fact(self, lhs: Any, rhs: Any, why: str, method: str = "simplify") -> None:
        """A standalone SymPy-checked equality (a lemma used inside this proof)."""
        self.chain(lhs, why).equals(rhs, why, method)

    def holds(self, condition: Any, why: str) -> None:
        """A relation (inequality, Boolean) that SymPy must evaluate to True."""
        value = sp.simplify(condition)
        ok = value is sp.true or value is True
        self.add(ProofStep(why, show(condition), show(value), f"{why} [SymPy]",
                           "checked" if ok else "failed",
                           "" if ok else f"SymPy reduced it to {show(value)}"))
        if not ok:
            raise ProofFailure(f"{why}: {show(value)}")

    def cite(self, claim_id: str) -> None:
        if claim_id not in self._allowed_lemmas:
            raise ValueError(f"cites claim {claim_id!r}: add it to depends_on")

    def add(self, step: ProofStep) -> None:
        self.steps.append(step)

    def conclude(self, stated: Any, *chains: Chain, method: str = "simplify") -> None:
        """Compare where the chains arrived with the statement's value.

        With one chain, ``stated`` is a single value; with several, a tuple in the same order.
        """
        if not chains or any(c.steps == 0 for c in chains):
            raise ValueError("conclude() needs chains with at least one step each")
        derived = [c.value for c in chains]
        expected = list(stated) if len(chains) > 1 else [stated]
        if len(expected) != len(derived):
            raise ValueError(f"statement has {len(expected)} parts, derivation {len(derived)}")
        for chain, got, want in zip(chains, derived, expected):
            difference = sp.sympify(got) - sp.sympify(want)
            if reduces_to_zero(difference, method):
                self.add(ProofStep(chain.label, show(got), show(want), "matches the statement",
                                   "checked"))
                continue
            found = counterexample(difference)
            detail = found or "SymPy could not show the derived value equals the stated one"
            self.add(ProofStep(chain.label, show(got), show(want), "compare with the statement",
                               "failed", detail))
            raise ProofFailure(f"{chain.label}: derived {show(got)}, stated {show(want)}; {detail}")
        self.concluded = True
