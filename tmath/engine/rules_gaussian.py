"""Vetted rules for expectations of exponentials of independent standard normal entries.

Random-feature estimates (Performer's φ(x) = exp(Wx − |x|²/2)/√m) are exponentials of linear
forms in the entries of a Gaussian matrix. :class:`StandardNormal` holds the rules a
derivation needs about them, for the entries of the ``IndexedBase`` objects the claim declares
independent N(0, 1) (its premise, named by ``law``, or the rules' results rest on it):

* ``independence``: E[exp(Σ_i c_i·w[…, i])] = Π_i E[exp(c_i·w[…, i])]. The exponent may be
  given as several sums over the same range, products of exponentials or SymPy's
  ``Product(exp(…))``; they are merged into one sum, and the merge is checked at random
  points. Side conditions, checked where it is applied: the range is a finite run of terms
  (not reversed: Karr's Σ_{1}^{-2} is minus a sum), every term of the merged sum holds
  exactly one random entry, that entry has the summation index among its indices (so distinct
  terms are distinct, independent entries) and its coefficient holds no random entry.
* ``mgf``: E[exp(a + b·w)] = exp(a)·M(b) for one standard normal entry w and a, b free of
  random entries, where M(t) = E[e^{tZ}] is SymPy's moment generating function of N(0, 1)
  (exp(t²/2)); a non-linear exponent is refused.

:data:`PRODUCT_OF_EXPS` (Π_i exp(f_i) = exp(Σ_i f_i)) is a computational rewrite, validated on
random small instances.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp

from tmath.engine import numeric
from tmath.engine.moments import E, owed_premise
from tmath.engine.proof import Rule, show
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.i18n.markers import N_

__all__ = ["StandardNormal", "PRODUCT_OF_EXPS", "normal_mgf"]


@functools.lru_cache(maxsize=1)
def normal_mgf() -> sp.Lambda:
    """t ↦ E[e^{tZ}] for Z ~ N(0, 1), from SymPy's normal distribution."""
    from sympy import stats

    t = sp.Symbol("t", real=True)
    return sp.Lambda(t, sp.simplify(stats.moment_generating_function(stats.Normal("Z", 0, 1))(t)))


def _exponent(arg: sp.Basic) -> sp.Basic:
    """L with arg = exp(L), for a product of exponentials (and Products of exponentials)."""
    if isinstance(arg, sp.exp):
        return arg.args[0]
    if isinstance(arg, sp.Product) and isinstance(arg.function, sp.exp):
        return sp.Sum(arg.function.args[0], *arg.limits)
    if isinstance(arg, sp.Pow) and arg.exp.is_number:
        return arg.exp * _exponent(arg.base)
    if isinstance(arg, sp.Mul):
        return sp.Add(*[_exponent(f) for f in arg.args])
    raise SideConditionFailed(f"{show(arg)} is not a product of exponentials")


def _merged(exponent: sp.Basic, random: Any) -> tuple[sp.Basic, sp.Sum]:
    """a + c₁·Σ_i f_i + c₂·Σ_j g_j (same range, a free of random entries) → (a, Σ_i (c₁ f_i +
    c₂ g_i))."""
    terms, limits, outside = [], None, []
    for term in sp.Add.make_args(sp.expand(exponent, power_exp=False, mul=True, multinomial=False)):
        sums = [f for f in sp.Mul.make_args(term) if isinstance(f, sp.Sum)]
        coefficient = sp.Mul(*[f for f in sp.Mul.make_args(term) if not isinstance(f, sp.Sum)])
        if not any(e.base in random for e in term.atoms(sp.Indexed)):
            outside.append(term)
            continue
        if len(sums) != 1 or len(sums[0].limits) != 1:
            raise SideConditionFailed(f"{show(term)} is not a multiple of one sum")
        (index, low, high), = sums[0].limits
        if limits is None:
            limits = (index, low, high)
        elif (low, high) != limits[1:]:
            raise SideConditionFailed("the sums in the exponent run over different ranges")
        terms.append(coefficient * sums[0].function.xreplace({index: limits[0]}))
    if limits is None:
        raise SideConditionFailed("the exponent holds no sum")
    return sp.Add(*outside), sp.Sum(sp.Add(*terms), limits)


class StandardNormal:
    """Rules for the entries of ``random`` (IndexedBase objects), independent N(0, 1)."""

    def __init__(self, random: Any, law: Any = True) -> None:
        """``law``: the declared premise (a ``Premise`` or its text) that makes the entries
        independent N(0, 1); ``True`` names none, so the rules' results rest on it."""
        self.random = tuple(random)
        self.premise = owed_premise(law, f"the entries of {', '.join(map(str, self.random))} "
                                    "are independent N(0, 1)")

    def _entries(self, expr: sp.Basic) -> set:
        return {e for e in expr.atoms(sp.Indexed) if e.base in self.random}

    def _linear(self, exponent: sp.Basic) -> tuple[sp.Basic, sp.Basic, sp.Basic]:
        """(entry, coefficient, rest) with exponent = rest + coefficient·entry."""
        entries = self._entries(exponent)
        if len(entries) != 1:
            raise SideConditionFailed(f"{show(exponent)} holds {len(entries)} random entries, "
                                      "not exactly one")
        entry = entries.pop()
        slot = sp.Dummy("w")
        linear = sp.expand(exponent.xreplace({entry: slot}))
        coefficient, rest = linear.coeff(slot, 1), linear.coeff(slot, 0)
        if sp.expand(rest + coefficient * slot - linear) != 0 or self._entries(coefficient) \
                or coefficient.has(slot) or rest.has(slot):
            raise SideConditionFailed(f"{show(exponent)} is not linear in {show(entry)}")
        return entry, coefficient, rest

    @property
    def independence(self) -> Rule:
        def factor(arg: sp.Basic) -> sp.Basic:
            if not self._entries(arg):
                return E(arg)
            outside, total = _merged(_exponent(arg), self.random)
            (index, low, high), = total.limits
            count = sp.simplify(high - low + 1)
            if count.has(sp.oo, -sp.oo, sp.zoo) or not (count.is_nonnegative or count == 0):
                raise SideConditionFailed(f"the range of {index} is not known to be a finite "
                                          f"run of terms ({show(high)} ≥ {show(low)} − 1): a "
                                          "reversed sum is minus a sum (Karr)")
            problem, _ = numeric.disagreement(arg, sp.exp(outside + total), seed=11)
            if problem:
                raise SideConditionFailed(f"merging the exponent of {show(arg)} is wrong: {problem}")
            entry, coefficient, rest = self._linear(total.function)
            if index not in entry.indices:
                raise SideConditionFailed(f"{show(entry)} is the same entry for every {index}: "
                                          "the terms are not independent")
            body = sp.exp(rest + sp.factor_terms(coefficient) * entry)
            return sp.exp(outside) * sp.Product(E(body), (index, low, high))

        return library_rule(N_("independent normal entries: E[exp(Σ_i c_i w_i)] = Π_i E[exp(c_i w_i)]"),
                            lambda e: e.replace(E, factor), numeric_check=False,
                            premise=self.premise)

    @property
    def mgf(self) -> Rule:
        def moment(arg: sp.Basic) -> sp.Basic:
            if not isinstance(arg, sp.exp) or not self._entries(arg):
                return E(arg)
            _, coefficient, rest = self._linear(arg.args[0])
            return sp.exp(rest) * normal_mgf()(sp.factor_terms(coefficient))

        return library_rule(N_("normal moment generating function: E[exp(b·w)] = exp(b²/2)"),
                            lambda e: e.replace(E, moment), numeric_check=False,
                            premise=self.premise)


def _product_of_exps(expr: sp.Basic) -> sp.Basic:
    def merge(node: sp.Product) -> sp.Basic:
        if isinstance(node.function, sp.exp):
            return sp.exp(sp.Sum(node.function.args[0], *node.limits))
        return node
    return expr.replace(lambda e: isinstance(e, sp.Product), merge)


PRODUCT_OF_EXPS = library_rule(N_("a product of exponentials is the exponential of the sum"),
                               _product_of_exps)
