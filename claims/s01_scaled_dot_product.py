"""Section 1: why attention scores are divided by √d_k."""

import math

import numpy as np
import sympy as sp

from tmath import Figure, Foil, Source, Statement, claim
from tmath.distributions import STANDARDIZED, dot_products
from tmath.experiment import tolerance
from tmath.moments import E, Moments, Var
from tmath.nn import softmax

VASWANI = Source("Vaswani et al. (2017), Attention Is All You Need, §3.2.1", arxiv="1706.03762")

q, k = sp.symbols("q_i k_i", real=True)
d_k = sp.Symbol("d_k", positive=True, integer=True)
i = sp.Symbol("i", positive=True, integer=True)
qv, kv = sp.IndexedBase("q"), sp.IndexedBase("k")
DOT = sp.Sum(qv[i] * kv[i], (i, 1, d_k))
UNIT_MOMENTS = {E(q): 0, E(k): 0, Var(q): 1, Var(k): 1}
PAIRS = (("Rademacher", "uniform"), ("centred exponential", "Gaussian"))


def _pair(name_q: str, name_k: str, d: int):
    dq, dk = STANDARDIZED[name_q], STANDARDIZED[name_k]
    return lambda rng, m: dot_products(rng, m, d, dq, dk)


@claim(
    id="product-term-moments",
    title="Each product q_i·k_i has mean 0 and variance 1",
    section="1.1",
    statement=Statement("E[q_i k_i] = 0 and Var(q_i k_i) = 1", (0, 1), lhs=(E(q * k), Var(q * k))),
    premises=("q_i and k_i are independent", "E[q_i] = E[k_i] = 0", "Var(q_i) = Var(k_i) = 1"),
    foils=(Foil("Var(q_i k_i) = 2 (the two variances added)", (0, 2)),
           Foil("E[q_i k_i] = 1", (1, 1))),
    sources=(VASWANI,),
    tags=("variance", "attention"),
    statistical_tests=4,
)
class ProductTermMoments:
    """The product of two independent standardized variables is again standardized; no
    Gaussian assumption is needed, only independence and the first two moments."""

    def prove(self, value, proof):
        rules = Moments(random=(q, k))
        mean = (proof.chain(E(q * k), "E[q_i k_i]")
                .apply(rules.independence)
                .substitute(UNIT_MOMENTS, premise="mean 0, variance 1"))
        var = (proof.chain(Var(q * k), "Var(q_i k_i)")
               .apply(rules.variance_definition)
               .apply(rules.independence)
               .apply(rules.second_moment)
               .substitute(UNIT_MOMENTS, premise="mean 0, variance 1"))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        mean, var = (float(v) for v in value)
        for name_q, name_k in PAIRS:
            draw = _pair(name_q, name_k, 1)
            experiment.mean(draw, mean, f"E[q_i k_i] ({name_q} × {name_k})")
            experiment.variance(draw, var, f"Var(q_i k_i) ({name_q} × {name_k})")


@claim(
    id="dot-product-variance",
    title="The dot product qᵀk has mean 0 and variance d_k",
    section="1.1",
    statement=Statement("E[qᵀk] = 0 and Var(qᵀk) = d_k", (0, d_k), lhs=(E(DOT), Var(DOT))),
    premises=("all components q_i, k_i are mutually independent",
              "each component has mean 0 and variance 1"),
    foils=(Foil("Var(qᵀk) = √d_k", (0, sp.sqrt(d_k))),
           Foil("Var(qᵀk) = d_k²", (0, d_k**2))),
    depends_on=("product-term-moments",),
    sources=(VASWANI,),
    tags=("variance", "attention"),
    figures=(
        Figure("standard deviation of qᵀk at d_k = 64", "8", near="d_k = 64",
               compute=lambda: math.sqrt(64)),
        Figure("standard deviation of qᵀk at d_k = 512", "≈ 22.6", near="d_k = 512",
               compute=lambda: math.sqrt(512)),
    ),
    statistical_tests=4,
)
class DotProductVariance:
    """Summing d_k independent unit-variance products adds their variances, so the spread
    of raw attention scores grows like √d_k."""

    def prove(self, value, proof):
        rules = Moments(random=(qv, kv))
        term = qv[i] * kv[i]
        mean = (proof.chain(E(DOT), "E[qᵀk]")
                .apply(rules.linearity)
                .substitute({E(term): 0}, lemma="product-term-moments")
                .evaluate("sum of d_k zeros"))
        var = (proof.chain(Var(DOT), "Var(qᵀk)")
               .apply(rules.bienayme)
               .substitute({Var(term): 1}, lemma="product-term-moments")
               .evaluate("sum of d_k ones"))
        proof.conclude(value, mean, var)

    def check(self, value, experiment):
        mean, var = value
        for d, (name_q, name_k) in zip((4, 64), PAIRS):
            draw = _pair(name_q, name_k, d)
            experiment.mean(draw, float(mean), f"E[qᵀk] at d_k={d} ({name_q} × {name_k})")
            experiment.variance(draw, float(var.subs(d_k, d)),
                                f"Var(qᵀk) at d_k={d} ({name_q} × {name_k})")


@claim(
    id="scaled-score-variance",
    title="Dividing by √d_k brings the score variance back to 1",
    section="1.3",
    statement=Statement("Var(qᵀk · c) = 1 for the scale c = 1/√d_k", 1 / sp.sqrt(d_k),
                        lhs=sp.Symbol("c")),
    premises=("Var(qᵀk) = d_k (claim dot-product-variance)", "c is a constant"),
    foils=(Foil("the scale 1/d_k gives unit variance", 1 / d_k),
           Foil("no scaling is needed (c = 1)", sp.Integer(1))),
    depends_on=("dot-product-variance",),
    sources=(VASWANI,),
    tags=("variance", "scaling"),
    statistical_tests=2,
)
class ScaledScoreVariance:
    """Var(c·X) = c²·Var(X), so the only positive scale that makes the variance 1 is
    c = 1/√Var(X) = 1/√d_k."""

    def prove(self, c, proof):
        rules = Moments(random=(qv, kv))
        var = (proof.chain(Var(c * DOT), "Var(c·qᵀk)")
               .apply(rules.variance_scaling)
               .substitute({Var(DOT): d_k}, lemma="dot-product-variance"))
        proof.conclude(1, var)

    def check(self, c, experiment):
        for d, (name_q, name_k) in zip((16, 256), PAIRS):
            scale = float(c.subs(d_k, d))
            draw = _pair(name_q, name_k, d)
            experiment.variance(lambda rng, m: scale * draw(rng, m), 1.0,
                                f"Var(c·qᵀk) at d_k={d} ({name_q} × {name_k})")


@claim(
    id="dk-scaling-overshrinks",
    title="Dividing by d_k instead would shrink the score variance to 1/d_k",
    section="1.3",
    statement=Statement("Var(qᵀk / d_k) = 1/d_k", 1 / d_k, lhs=Var(DOT / d_k)),
    premises=("Var(qᵀk) = d_k (claim dot-product-variance)",),
    foils=(Foil("Var(qᵀk / d_k) = 1", sp.Integer(1)),
           Foil("Var(qᵀk / d_k) = 1/√d_k", 1 / sp.sqrt(d_k))),
    depends_on=("dot-product-variance",),
    sources=(VASWANI,),
    tags=("variance", "scaling"),
    statistical_tests=2,
)
class DkScalingOvershrinks:
    """With 1/d_k the scores' spread falls as 1/√d_k, flattening the softmax more and more
    as the head dimension grows."""

    def prove(self, value, proof):
        rules = Moments(random=(qv, kv))
        var = (proof.chain(Var(DOT / d_k), "Var(qᵀk/d_k)")
               .apply(rules.variance_scaling)
               .substitute({Var(DOT): d_k}, lemma="dot-product-variance"))
        proof.conclude(value, var)

    def check(self, value, experiment):
        for d, (name_q, name_k) in zip((16, 256), PAIRS):
            draw = _pair(name_q, name_k, d)
            experiment.variance(lambda rng, m: draw(rng, m) / d, float(value.subs(d_k, d)),
                                f"Var(qᵀk/d_k) at d_k={d} ({name_q} × {name_k})")
