"""Softmax relative to its largest entry, as SymPy expressions, for proofs of its limits.

Dividing numerator and denominator by the largest exponential writes softmax through the
leads g_l > 0 of the maximum (entry 1) over the other entries l = 2 … n:
p_1 = 1/(1 + Σ_{l≥2} u_l) and p_a = u_a/(1 + Σ_{l≥2} u_l), with u_l = exp(−c·g_l) for scores
scaled by c, or exp(−g_l/T) at temperature T. The engine's limit laws take such an expression
term by term when the variable enters only through finite sums, so a lone term u_a is written
as the one-term sum Σ_{l=a}^{a} u_l (SymPy checks that rewrite).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import sympy as sp

LEAD = sp.IndexedBase("g", positive=True)
"""g_l: how far the largest score is ahead of score l."""
INDEX = sp.Symbol("l", integer=True)


@dataclass(frozen=True)
class ByLeads:
    """Softmax of n entries written through u_l = ``term(l)``, entry 1 the maximum."""

    term: Callable[[Any], sp.Expr]
    n: sp.Symbol

    @property
    def denominator(self) -> sp.Expr:
        return 1 + sp.Sum(self.term(INDEX), (INDEX, 2, self.n))

    @property
    def top(self) -> sp.Expr:
        """p_1, the weight of the maximum."""
        return 1 / self.denominator

    def entry(self, a: Any) -> sp.Expr:
        """p_a for a non-maximal index a, its u_a written as a one-term sum."""
        return sp.Sum(self.term(INDEX), (INDEX, a, a)) / self.denominator

    def plain(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` with every one-term sum Σ_{l=a}^{a} u_l replaced by u_a, as one writes it."""
        return expr.replace(lambda e: isinstance(e, sp.Sum) and e.limits[0][1] == e.limits[0][2],
                            lambda e: e.function.xreplace({e.limits[0][0]: e.limits[0][1]}))

    def limit(self, proof, expr: sp.Expr, variable: sp.Symbol, point: Any, label: str):
        """A chain from ``plain(expr)`` (the statement's form) to its limit: the one-term sums
        are put back (a checked step) where there are any, then the limit laws apply."""
        chain = proof.chain(self.plain(expr), label)
        if chain.start != expr:
            chain = chain.equals(expr, "a lone term as a one-term sum", method="doit")
        return chain.limit(variable, point, "+" if point == 0 else "-")
