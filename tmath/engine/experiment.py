"""Randomized checks: simulate the premises, then test the statement.

A claim's ``check(value, experiment)`` draws data that satisfy the premises from
``experiment.rng`` (a stream derived from the run seed and the claim id) and records tests:

* statistical tests (``mean``, ``variance``, ``frequencies``): sample size chosen for power
  ``POWER`` against a stated smallest deviation, p-value and confidence interval at the
  claim's share of the false-alarm budget;
* deterministic tests (``close``, ``holds``): a property of random inputs that must hold up to
  a floating-point tolerance derived from dtype and problem size (:func:`tolerance`).

Samples are drawn in chunks, so memory stays bounded whatever ``n`` is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from tmath.engine import stats
from tmath.engine.results import EmpiricalResult, TestResult
from tmath.engine.stats import rounding_tolerance as tolerance  # re-exported for claims

__all__ = ["Experiment", "TestResult", "EmpiricalResult", "tolerance"]

Draw = Callable[[np.random.Generator, int], np.ndarray]
CHUNK = 1 << 14
PILOT = 20_000
MAX_N = 4_000_000


class PlanError(Exception):
    """The check ran more statistical tests than its claim declared."""


@dataclass
class Experiment:
    """The builder a claim's ``check`` receives."""

    rng: np.random.Generator
    alpha_per_test: float
    tests_declared: int
    results: list[TestResult] = field(default_factory=list)

    # -- statistical tests ---------------------------------------------------------------------
    def mean(self, draw: Draw, expected: float, label: str,
             min_effect: float = stats.DEFAULT_MIN_EFFECT) -> TestResult:
        """z-test of E[X] = expected, corrected for skewness.

        ``min_effect`` is the smallest deviation the test must detect with power ``POWER``:
        relative to |expected|, or in units of the standard deviation when expected is 0.
        Skewed data (products of random matrices, say) make the plain z-test's far tail
        wrong by orders of magnitude at α ≈ 10⁻⁶; the statistic therefore goes through
        Hall's monotone skewness correction and n is at least
        :func:`tmath.stats.edgeworth_sample_size` of the pilot's skewness and kurtosis.
        """
        alpha = self._take_alpha()
        pilot = _moments(draw, self.rng, PILOT)
        sd = math.sqrt(pilot.variance)
        effect = min_effect * (abs(expected) if expected else sd)
        n = stats.sample_size(sd, effect, alpha) if sd > 0 else 1000
        n = min(MAX_N, max(n, stats.edgeworth_sample_size(pilot, alpha)))
        m = _moments(draw, self.rng, n)
        se = math.sqrt(m.variance / m.n)
        return self._z_result(label, m.mean, expected, se, m.n, alpha,
                              _resolution(stats.detectable(se, alpha), expected, sd, "σ"),
                              skewness=m.skewness)

    def variance(self, draw: Draw, expected: float, label: str,
                 min_effect: float = stats.DEFAULT_MIN_EFFECT) -> TestResult:
        """z-test of Var(X) = expected, with the exact variance of the sample variance.

        The usual asymptotic (μ₄ − σ⁴)/n vanishes for two-point laws (±a), where the
        estimate still fluctuates at order 1/n; the exact formula keeps that term.
        """
        alpha = self._take_alpha()
        pilot = _moments(draw, self.rng, PILOT)
        sd_of_square = math.sqrt(max(pilot.fourth_central - pilot.variance**2, 0.0))
        effect = min_effect * abs(expected) if expected else min_effect * pilot.variance
        n = min(MAX_N, stats.sample_size(sd_of_square, effect, alpha)) if sd_of_square else 1000
        m = _moments(draw, self.rng, n)
        # plug in the central moments of one kind (both /n), or the two terms stop cancelling
        se = math.sqrt(stats.variance_of_sample_variance(m.fourth_central, m.m2 / m.n, m.n))
        return self._z_result(label, m.variance, expected, se, m.n, alpha,
                              _resolution(stats.detectable(se, alpha), expected, 1.0, ""))

    def frequencies(self, draw: Callable[[np.random.Generator, int], np.ndarray],
                    probabilities: Any, label: str,
                    min_effect: float = 0.05) -> TestResult:
        """Chi-square goodness-of-fit of observed category indices to ``probabilities``.

        ``min_effect`` is Cohen's w = sqrt(Σ (p₁ − p₀)² / p₀), the smallest discrepancy to
        detect with power ``POWER``.
        """
        from scipy.special import chdtrc, chdtri, chndtrinc

        alpha = self._take_alpha()
        p0 = np.asarray(probabilities, dtype=float).ravel()
        k = p0.size
        critical = float(chdtri(k - 1, alpha))
        noncentrality = float(chndtrinc(critical, k - 1, 1 - stats.POWER))
        n = min(MAX_N, max(1000, math.ceil(noncentrality / min_effect**2)))
        counts = np.zeros(k, dtype=np.int64)
        for size in _chunks(n):
            counts += np.bincount(np.asarray(draw(self.rng, size)).ravel(), minlength=k)[:k]
        with np.errstate(divide="ignore", invalid="ignore"):
            expected_counts = n * p0
            terms = np.where(expected_counts > 0, (counts - expected_counts) ** 2 / expected_counts,
                             np.where(counts > 0, np.inf, 0.0))
        statistic = float(terms.sum())
        p = float(chdtrc(k - 1, statistic)) if math.isfinite(statistic) else 0.0
        observed = counts / n
        tv = 0.5 * float(np.abs(observed - p0).sum())
        result = TestResult(
            label, "statistical", p > alpha,
            f"χ²={statistic:.3g}, df={k - 1}, p={p:.2g}, TV distance {tv:.3g} (n={_sci(n)})",
            estimate=tv, expected=0.0, n=n, p_value=p, alpha=alpha,
            resolution=f"Cohen's w ≥ {min_effect:g}")
        self.results.append(result)
        return result

    # -- deterministic tests -------------------------------------------------------------------
    def close(self, actual: Any, expected: Any, tol: float, label: str,
              inputs: str = "") -> TestResult:
        """Max |actual − expected| over all entries must not exceed ``tol``."""
        a, e = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
        if a.shape != e.shape:
            defect, shape_note = math.inf, f" (shapes {a.shape} vs {e.shape})"
        else:
            with np.errstate(invalid="ignore"):
                diff = np.abs(a - e)
            same_inf = (a == e)
            defect = float(np.where(same_inf, 0.0, diff).max()) if diff.size else 0.0
            shape_note = ""
        passed = bool(defect <= tol)
        on = f" on {inputs}" if inputs else ""
        result = TestResult(label, "deterministic", passed,
                            f"max |Δ| {defect:.2g} {'≤' if passed else '>'} tol {tol:.2g}"
                            f"{on}{shape_note}", estimate=defect, expected=0.0)
        self.results.append(result)
        return result

    def holds(self, condition: bool, label: str, detail: str = "") -> TestResult:
        """A yes/no property observed on the simulated data."""
        result = TestResult(label, "deterministic", bool(condition),
                            detail or ("holds" if condition else "does not hold"))
        self.results.append(result)
        return result

    # -- helpers -------------------------------------------------------------------------------
    def _take_alpha(self) -> float:
        used = sum(1 for r in self.results if r.kind == "statistical")
        if used >= self.tests_declared:
            raise PlanError(
                f"the check runs more than the {self.tests_declared} statistical test(s) it "
                f"declares; raise statistical_tests= in @claim so the α budget is split honestly")
        return self.alpha_per_test

    def _z_result(self, label: str, estimate: float, expected: float, se: float, n: int,
                  alpha: float, resolution: str, skewness: float = 0.0) -> TestResult:
        if se == 0:
            z = 0.0 if estimate == expected else math.inf
        else:
            z = stats.hall_skewness_correction((estimate - expected) / se, skewness, n)
        p = stats.two_sided_p(z)
        half = stats.z_quantile(1 - alpha / 2) * se
        result = TestResult(
            label, "statistical", p > alpha,
            f"{_num(estimate)} vs {_num(expected)} (±{_num(half)}, p={p:.2g}, n={_sci(n)})",
            estimate=estimate, expected=expected, n=n, ci=(estimate - half, estimate + half),
            p_value=p, alpha=alpha, resolution=resolution)
        self.results.append(result)
        return result


def _chunks(n: int):
    while n > 0:
        size = min(CHUNK, n)
        yield size
        n -= size


def _moments(draw: Draw, rng: np.random.Generator, n: int) -> stats.RunningMoments:
    m = stats.RunningMoments()
    for size in _chunks(n):
        m.add(draw(rng, size))
    return m


def _resolution(shift: float, expected: float, sd: float, unit: str) -> str:
    if expected:
        return f"{100 * shift / abs(expected):.2g}% of the stated value"
    return f"{shift / sd:.2g}{unit}"


def _num(x: float) -> str:
    return f"{x:.4g}"


def _sci(n: int) -> str:
    if n < 10_000:
        return str(n)
    exponent = int(math.floor(math.log10(n)))
    mantissa = n / 10**exponent
    sup = str(exponent).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mantissa:.2g}·10{sup}" if mantissa != 1 else f"10{sup}"
