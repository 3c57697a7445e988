"""When each vetted rule of the engine applies: the side condition its code checks at every use.

Keyed by the rule's name as the engine records it in a derivation step. A rule missing here is
shown without a condition (tests/test_explain_page.py keeps this list in step with the
library's rules)."""

from __future__ import annotations

from tmath.i18n.markers import N_

SIDE_CONDITIONS = {
    "finite sums with independent ranges can be exchanged":
        N_("neither range depends on the other's index"),
    "a factor free of the summation index comes out of the sum":
        N_("the factor does not contain the index"),
    "a factor free of the summation index goes into the sum":
        N_("the factor does not contain the index"),
    "a factor free of the inner index comes out of the inner sum":
        N_("the factor does not contain the inner index"),
    "the sum of a sum of terms is the sum of their sums": N_("the range is finite"),
    "sums over the same range add term by term": N_("both sums run over the same range"),
    "a sum up to u plus its term u+1 is the sum up to u+1":
        N_("the added term is the summand at u+1"),
    "sifting: a Kronecker delta picks the one term of the sum":
        N_("the delta's other argument lies in the range"),
    "telescoping: f(b) = Σ_{k=a}^{b} (f(k) − f(k−1)) + f(a−1)": N_("b − a + 1 is a whole number"),
    "a Kronecker delta is 0 or 1, so g(δ) = g(0) + δ·(g(1) − g(0))":
        N_("none (δ takes only the values 0 and 1)"),
    "under δ(a, b) the indices a and b are interchangeable": N_("a is a plain symbol"),
    "a sum of products over independent ranges is a product of sums":
        N_("each factor depends on one range's index only"),
    "a summation index is a dummy: renaming it changes nothing":
        N_("the new name does not occur free in the sum"),
    "independent normal entries: E[exp(Σ_i c_i w_i)] = Π_i E[exp(c_i w_i)]":
        N_("the entries wᵢ are independent and the cᵢ are constants"),
    "normal moment generating function: E[exp(b·w)] = exp(b²/2)":
        N_("w is standard normal and b a constant"),
    "a product of exponentials is the exponential of the sum": N_("none (always holds)"),
    "the shape of a matrix expression, one operation down":
        N_("the operands' shapes are compatible"),
    "linearity of expectation": N_("the constants are not random"),
    "independence: E[XY] = E[X]·E[Y]": N_("X and Y share no random variable"),
    "definition: Var(X) = E[X²] − E[X]²": N_("none (a definition)"),
    "definition: E[X²] = Var(X) + E[X]²": N_("X is a single random variable"),
    "independent terms: variances add": N_("the terms share no random variable"),
    "Var(cX) = c²·Var(X)": N_("c is not random"),
}


def side_condition(rule: str) -> str:
    """The side condition of a vetted rule named ``rule``, or "" when none is recorded."""
    return SIDE_CONDITIONS.get(rule, "")
