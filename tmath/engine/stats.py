"""Small statistical and floating-point building blocks (no scipy.stats needed).

The suite's error budget: every claim gets the same false-alarm probability ``ALPHA_PER_CLAIM``
and splits it evenly among its statistical tests (Bonferroni). By the union bound the chance
that ``verify all`` rejects any true claim is at most the sum over claims, which the summary
reports; with at most ``1 / (1000 · ALPHA_PER_CLAIM)`` = 100 claims it stays below 10⁻³.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from tmath.defaults import ALPHA_PER_CLAIM, DEFAULT_MIN_EFFECT, POWER, SUITE_BOUND_TARGET

__all__ = ["ALPHA_PER_CLAIM", "DEFAULT_MIN_EFFECT", "POWER", "SUITE_BOUND_TARGET",
           "z_quantile", "two_sided_p", "sample_size", "detectable", "rounding_tolerance",
           "variance_of_sample_variance", "hall_skewness_correction", "edgeworth_sample_size",
           "RunningMoments"]

_NORMAL = NormalDist()


def z_quantile(p: float) -> float:
    """Standard normal quantile."""
    return _NORMAL.inv_cdf(p)


def two_sided_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def sample_size(sd: float, effect: float, alpha: float, power: float = POWER) -> int:
    """Observations a two-sided z-test needs to detect a shift ``effect`` with this power."""
    if effect <= 0:
        raise ValueError("effect must be positive")
    z = z_quantile(1 - alpha / 2) + z_quantile(power)
    return max(1000, math.ceil((z * sd / effect) ** 2))


def detectable(se: float, alpha: float, power: float = POWER) -> float:
    """Smallest shift detected with this power, given a standard error."""
    return (z_quantile(1 - alpha / 2) + z_quantile(power)) * se


def hall_skewness_correction(t: float, skewness: float, n: int) -> float:
    """Hall's (1992) monotone transform of a mean's t statistic for a skewed population.

    T = t + γ t²/(3√n) + γ² t³/(27 n) + γ/(6√n) removes the first-order (skewness) term of
    the Edgeworth expansion, so T is closer to N(0, 1) in the tails; unlike Johnson's (1978)
    quadratic version it is increasing in t, so a far-off foil can never look central.
    """
    if not math.isfinite(t) or skewness == 0:
        return t
    a = skewness / (3 * math.sqrt(n))
    return t + a * t * t + a * a * t**3 + skewness / (6 * math.sqrt(n))


def edgeworth_sample_size(moments: "RunningMoments", alpha: float) -> int:
    """Observations that keep the next (second-order) Edgeworth terms of the corrected mean
    test below half the nominal tail at its critical value z: n ≥ z⁴|κ|/12 + z⁶γ²/36, with
    γ, κ the skewness and excess kurtosis (estimated from a pilot sample, so heavy tails
    that the pilot has not seen are a stated limitation)."""
    z = z_quantile(1 - alpha / 2)
    return math.ceil(z**4 * abs(moments.excess_kurtosis) / 12 + z**6 * moments.skewness**2 / 36)


def upper_sd(pilot: "RunningMoments", z: float = 3.0) -> float:
    """A pilot's standard deviation, raised to a 3σ upper confidence bound (the relative
    standard error of s² is about √((κ + 2)/n), κ the excess kurtosis), so that a test sized
    from it reaches the resolution it promises even when the pilot under-reads the spread."""
    relative = math.sqrt(max(pilot.excess_kurtosis + 2.0, 0.0) / pilot.n)
    return math.sqrt(pilot.variance * (1.0 + z * relative))


def upper_sd_of_square(pilot: "RunningMoments", z: float = 3.0) -> float:
    """The standard deviation of (X − μ)², √(μ₄ − σ⁴), raised by the same kind of margin (the
    spread of an estimated fourth moment grows with the tails; the kurtosis stands in for it)."""
    spread2 = max(pilot.fourth_central - pilot.variance**2, 0.0)
    relative = math.sqrt(max(pilot.excess_kurtosis + 2.0, 2.0) / pilot.n)
    return math.sqrt(spread2 * (1.0 + z * relative))


def variance_of_sample_variance(mu4: float, sigma2: float, n: int) -> float:
    """Var(s²) of the unbiased sample variance of n i.i.d. draws: μ₄/n − σ⁴(n − 3)/(n(n − 1)).

    Exact for any law with a finite fourth moment (estimated here by plugging in the sample's
    central moments); it keeps the O(1/n²) term that the asymptotic (μ₄ − σ⁴)/n drops.
    """
    return max(mu4 / n - sigma2**2 * (n - 3) / (n * (n - 1)), 0.0)


def rounding_tolerance(ops: int, scale: float = 1.0, dtype: type = np.float64) -> float:
    """Worst-case rounding error of ``ops`` dependent float operations on values of size ``scale``.

    This is Higham's γ_n = n·u / (1 − n·u) with unit round-off u = eps/2 (Accuracy and
    Stability of Numerical Algorithms, Lemma 3.1), multiplied by the magnitude involved, plus
    n times the absolute error an operation may make in gradual underflow (the η of Higham's
    model (2.8): half the smallest subnormal), so that values near the bottom of the range
    get a bound too. Count each elementary function (exp, log, sin) as one operation.
    """
    info = np.finfo(dtype)
    u = float(info.eps) / 2
    if ops * u >= 1:
        raise ValueError("too many operations for a first-order rounding bound")
    return ops * u / (1 - ops * u) * scale + ops * float(info.smallest_subnormal)


@dataclass
class RunningMoments:
    """Count, mean and central moments 2–4 of a stream of chunks (Pébay's merge formulas)."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0
    m3: float = 0.0
    m4: float = 0.0

    def add(self, chunk: np.ndarray) -> None:
        x = np.asarray(chunk, dtype=np.float64).ravel()
        nb = x.size
        if nb == 0:
            return
        mb = float(x.mean())
        d = x - mb
        d2 = d * d  # products, not d**3 and d**4: NumPy's pow is several times slower
        m2b, m3b, m4b = float(d2.sum()), float((d2 * d).sum()), float((d2 * d2).sum())
        na, n = self.n, self.n + nb
        delta = mb - self.mean
        self.m4 = (self.m4 + m4b
                   + delta**4 * na * nb * (na * na - na * nb + nb * nb) / n**3
                   + 6 * delta**2 * (na * na * m2b + nb * nb * self.m2) / n**2
                   + 4 * delta * (na * m3b - nb * self.m3) / n)
        self.m3 = (self.m3 + m3b + delta**3 * na * nb * (na - nb) / n**2
                   + 3 * delta * (na * m2b - nb * self.m2) / n)
        self.m2 = self.m2 + m2b + delta**2 * na * nb / n
        self.mean = self.mean + delta * nb / n
        self.n = n

    @property
    def variance(self) -> float:
        """Unbiased sample variance."""
        return self.m2 / (self.n - 1)

    @property
    def fourth_central(self) -> float:
        return self.m4 / self.n

    @property
    def skewness(self) -> float:
        return (self.m3 / self.n) / (self.m2 / self.n) ** 1.5 if self.m2 > 0 else 0.0

    @property
    def excess_kurtosis(self) -> float:
        return self.fourth_central / (self.m2 / self.n) ** 2 - 3 if self.m2 > 0 else 0.0


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(Bin(n, p) ≥ k), summed exactly in floating point."""
    return float(sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)))


def sign_test_plan(alpha: float, win_rate: float, max_trials: int = 2000) -> tuple[int, int]:
    """(n, k): the fewest trials, and the wins needed among them, such that k wins out of n
    happen with probability ≤ α when there is no systematic effect (a win rate of 1/2) and
    fail to happen with probability ≤ α when the win rate is ``win_rate``."""
    for n in range(2, max_trials + 1):
        k = next(k for k in range(n + 2) if k > n or binomial_tail(n, k, 0.5) <= alpha)
        if k <= n and 1 - binomial_tail(n, k, win_rate) <= alpha:
            return n, k
    raise ValueError(f"no sign-test plan of at most {max_trials} trials reaches α={alpha:g} "
                     f"at a win rate of {win_rate:g}: plan for a higher win rate")

