"""Randomized checks: simulate the premises, then test the statement.

A claim's ``check(value, experiment)`` draws data that satisfy the premises from
``experiment.rng`` (a stream derived from the run seed and the claim id) and records tests:

* statistical tests (``mean``, ``variance``, ``frequencies``): a group-sequential design. The
  data are looked at after 1/8, 1/4, 1/2 and all of the largest sample ``n``. The test's α is
  spent over the looks (1/64, 2/64, 8/64, 53/64 of it), so by the union bound the chance of
  rejecting a true statement stays ≤ α while a clear rejection stops early. Its β = 1 − POWER
  is spent too: the looks at 1/4 and 1/2 may stop and accept once the data rule out the
  stated smallest deviation (2 % by default) at a quarter of β each, and ``n`` gives the last
  look power 1 − β/2, so against that deviation the power over all looks stays ≥ POWER while
  a true statement usually stops at a quarter or half of ``n``;
* deterministic tests (``close``, ``close_relative``, ``holds``): a property of random inputs
  that must hold up to a floating-point tolerance derived from dtype and problem size
  (:func:`tolerance`), one for all entries or, for values far below 1, one per entry.

``experiment.draw({d_k: Integers(1, 512)}, count=3)`` draws a statement's free parameters from
their domain (edges first, then at least one point off them); pass each point as ``at=`` to
the tests that use it, and evaluate the value under test there with ``point.value(expr)``: a
foil that does not evaluate to a number makes its test fail, never raise. Samples are drawn in
chunks, so memory stays bounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from tmath.engine import stats
from tmath.engine.parameters import Choice, Domain, Integers, Point, Reals, as_record, draw
from tmath.engine.results import EmpiricalResult, TestResult
from tmath.engine.stats import POWER
from tmath.engine.stats import rounding_tolerance as tolerance  # re-exported for claims

__all__ = ["Experiment", "TestResult", "EmpiricalResult", "tolerance", "Integers", "Reals",
           "Choice", "Point", "LOOKS", "SPENDING", "FUTILITY"]

Draw = Callable[[np.random.Generator, int], np.ndarray]
CHUNK = 1 << 14
PILOT = 20_000
MAX_N = 4_000_000
PILOT_SHARE = 1 / 128
"""The pilot sample (which sizes the test) is also a first look, with this share of α: a
far-off foil is rejected there, before the main sample is drawn."""
LOOKS = (1 / 8, 1 / 4, 1 / 2, 1.0)
"""When a statistical test looks at its main sample, as fractions of its largest size."""
SPENDING = (1 / 64, 2 / 64, 8 / 64, 1 - 11 / 64 - PILOT_SHARE)
"""The share of the test's α each look spends; with the pilot's they add to 1 (Bonferroni
over the looks)."""
FINAL_SHARE = SPENDING[-1]
FUTILITY = (0.0, 1 / 4, 1 / 4)
"""The share of the test's β = 1 − POWER each look before the last may spend on stopping to
accept: it stops when the data rule out the stated smallest deviation, in both directions, at
that level. The first look is too small to rule anything out and spends nothing."""
DESIGN_POWER = 1 - (1 - POWER) * (1 - sum(FUTILITY))
"""The power the largest sample is sized for at the last look: what the early acceptances may
lose comes on top, so the power over all looks is ≥ POWER (by the union bound again)."""


class PlanError(Exception):
    """The check ran more statistical tests than its claim declared."""


@dataclass
class Experiment:
    """The builder a claim's ``check`` receives."""

    rng: np.random.Generator
    alpha_per_test: float
    tests_declared: int
    results: list[TestResult] = field(default_factory=list)

    # -- parameters ----------------------------------------------------------------------------
    def draw(self, domains: Mapping[Any, Domain], count: int = 3) -> list[Point]:
        """``count`` points of the parameters' domains (keys: SymPy symbols or names), edge
        values first, from the claim's stream."""
        return draw(self.rng, domains, count)

    def shared(self, draw: Draw, *statistics: Callable[[np.ndarray], np.ndarray]
               ) -> tuple[Draw, ...]:
        """One sampler per statistic over one simulation: each chunk ``draw(rng, m)`` is
        simulated once and every statistic computed on it (one value per simulated unit), so
        tests of several statistics of the same premise share the draws
        (:mod:`tmath.engine.shared_draws`; each test keeps its stated error rate)."""
        from tmath.engine.shared_draws import SharedSimulation

        return SharedSimulation(draw, statistics).samplers()

    # -- statistical tests ---------------------------------------------------------------------
    def mean(self, draw: Draw, expected: float, label: str,
             min_effect: float = stats.DEFAULT_MIN_EFFECT, at: Point | None = None,
             resolution_reason: str | None = None) -> TestResult:
        """Sequential z-test of E[X] = expected, corrected for skewness.

        ``min_effect`` is the smallest deviation the test must detect with power ``POWER``:
        relative to |expected|, or in units of the standard deviation when expected is 0.
        A resolution coarser than 2 % needs ``resolution_reason``. Skewed data (products of
        random matrices, say) make the plain z-test's far tail wrong by orders of magnitude at
        α ≈ 10⁻⁶; the statistic therefore goes through Hall's monotone skewness correction and
        no look happens before :func:`tmath.engine.stats.edgeworth_sample_size` draws.
        """
        alpha = self._take_alpha()
        expected = _finite(expected)
        if expected is None:
            return self._unevaluated(label, at, alpha)
        pilot = _moments(draw, self.rng, PILOT)
        floor = stats.edgeworth_sample_size(pilot, alpha * PILOT_SHARE)
        if pilot.n >= floor:  # the pilot is a look of its own (a far-off foil stops here)
            se = math.sqrt(pilot.variance / pilot.n)
            z = _z(pilot.mean, expected, se, pilot.skewness, pilot.n)
            if stats.two_sided_p(z) <= alpha * PILOT_SHARE:
                sd = math.sqrt(pilot.variance)
                return self._z_result(label, pilot.mean, expected, se, pilot.n,
                                      alpha * PILOT_SHARE, z,
                                      _resolution(stats.detectable(se, alpha * PILOT_SHARE),
                                                  expected, sd, "σ"),
                                      at, -1, min_effect, resolution_reason)
        sd = stats.upper_sd(pilot)
        effect = min_effect * (abs(expected) if expected else math.sqrt(pilot.variance))
        final_alpha = alpha * FINAL_SHARE
        n = stats.sample_size(sd, effect, final_alpha, DESIGN_POWER) \
            if sd > 0 and effect > 0 else 1000
        floor = max(floor, stats.edgeworth_sample_size(pilot, alpha * SPENDING[0]))
        n = min(MAX_N, max(n, floor))
        moments = stats.RunningMoments()
        for look, (share, spent) in enumerate(zip(LOOKS, SPENDING)):
            _extend(moments, draw, self.rng, math.ceil(share * n))
            if moments.n < floor and share < 1:
                continue
            se = math.sqrt(moments.variance / moments.n)
            z = _z(moments.mean, expected, se, moments.skewness, moments.n)
            if stats.two_sided_p(z) <= alpha * spent or share == 1 \
                    or _rules_out(moments.mean - expected, se, effect, look):
                break
        resolution = _resolution(_design_resolution(se, moments.n, n, final_alpha), expected,
                                 math.sqrt(moments.variance), "σ")
        return self._z_result(label, moments.mean, expected, se, moments.n, alpha * spent, z,
                              resolution, at, look, min_effect, resolution_reason, n)

    def variance(self, draw: Draw, expected: float, label: str,
                 min_effect: float = stats.DEFAULT_MIN_EFFECT, at: Point | None = None,
                 resolution_reason: str | None = None) -> TestResult:
        """Sequential z-test of Var(X) = expected, with the exact variance of the sample
        variance (the asymptotic (μ₄ − σ⁴)/n vanishes for two-point laws such as ±a, where
        the estimate still fluctuates at order 1/n)."""
        alpha = self._take_alpha()
        expected = _finite(expected)
        if expected is None:
            return self._unevaluated(label, at, alpha)
        pilot = _moments(draw, self.rng, PILOT)
        se = math.sqrt(stats.variance_of_sample_variance(pilot.fourth_central,
                                                         pilot.m2 / pilot.n, pilot.n))
        z = _z(pilot.variance, expected, se, 0.0, pilot.n)
        if stats.two_sided_p(z) <= alpha * PILOT_SHARE:  # a far-off foil stops at the pilot
            return self._z_result(label, pilot.variance, expected, se, pilot.n,
                                  alpha * PILOT_SHARE, z,
                                  _resolution(stats.detectable(se, alpha * PILOT_SHARE),
                                              expected, 1.0, ""), at, -1, min_effect,
                                  resolution_reason)
        sd_of_square = stats.upper_sd_of_square(pilot)
        effect = min_effect * abs(expected) if expected else min_effect * pilot.variance
        final_alpha = alpha * FINAL_SHARE
        n = min(MAX_N, stats.sample_size(sd_of_square, effect, final_alpha, DESIGN_POWER)) \
            if sd_of_square and effect > 0 else 1000
        moments = stats.RunningMoments()
        for look, (share, spent) in enumerate(zip(LOOKS, SPENDING)):
            _extend(moments, draw, self.rng, max(1000, math.ceil(share * n)))
            # the central moments of one kind (both /n), or the two terms stop cancelling
            se = math.sqrt(stats.variance_of_sample_variance(moments.fourth_central,
                                                             moments.m2 / moments.n, moments.n))
            z = _z(moments.variance, expected, se, 0.0, moments.n)
            if stats.two_sided_p(z) <= alpha * spent or share == 1 \
                    or _rules_out(moments.variance - expected, se, effect, look):
                break
        resolution = _resolution(_design_resolution(se, moments.n, n, final_alpha), expected,
                                 1.0, "")
        return self._z_result(label, moments.variance, expected, se, moments.n, alpha * spent, z,
                              resolution, at, look, min_effect, resolution_reason, n)

    def frequencies(self, draw: Callable[[np.random.Generator, int], np.ndarray],
                    probabilities: Any, label: str, min_effect: float = 0.05,
                    at: Point | None = None, resolution_reason: str | None = None) -> TestResult:
        """Sequential chi-square goodness-of-fit of category indices to ``probabilities``.

        ``min_effect`` is Cohen's w = sqrt(Σ (p₁ − p₀)² / p₀), the smallest discrepancy to
        detect with power ``POWER`` at the last look (a claim derives it from the resolution
        it needs in its own parameter, e.g. a 2 % change of the temperature).
        """
        from scipy.special import chdtrc, chdtri, chndtrinc, chndtrix

        alpha = self._take_alpha()
        p0 = np.asarray(_floats(probabilities), dtype=float).ravel()
        if not np.all(np.isfinite(p0)) or p0.size < 2 or np.any(p0 < 0):
            return self._unevaluated(label, at, alpha)
        k = p0.size
        final_alpha = alpha * FINAL_SHARE
        critical = float(chdtri(k - 1, final_alpha))
        noncentrality = float(chndtrinc(critical, k - 1, 1 - DESIGN_POWER))
        n_max = min(MAX_N, max(1000, math.ceil(noncentrality / min_effect**2)))
        counts = np.zeros(k, dtype=np.int64)
        drawn = 0
        for look, (share, spent) in enumerate(zip(LOOKS, SPENDING)):
            target = max(1000, math.ceil(share * n_max))
            for size in _chunks(target - drawn):
                counts += np.bincount(np.asarray(draw(self.rng, size)).ravel(),
                                      minlength=k)[:k]
            drawn = max(drawn, target)
            statistic, p = _chi_square(counts, p0, drawn, chdtrc)
            if p <= alpha * spent or share == 1:
                break
            # accept early when w ≥ min_effect is ruled out: under it the statistic is about
            # χ²(k − 1) with noncentrality n·w², or larger, so a value this small has chance
            # ≤ this look's share of β
            beta = _futility(look)
            if beta and statistic <= float(chndtrix(beta, k - 1, drawn * min_effect**2)):
                break
        observed = counts / drawn
        tv = 0.5 * float(np.abs(observed - p0).sum())
        result = TestResult(
            label, "statistical", p > alpha * spent,
            f"χ²={statistic:.3g}, df={k - 1}, p={p:.2g}, TV distance {tv:.3g} "
            f"(n={_planned(drawn, n_max)})",
            estimate=tv, expected=0.0, n=drawn, p_value=p, alpha=alpha,
            resolution=f"Cohen's w ≥ {min_effect:g}", parameters=as_record(at), looks=look + 1,
            resolution_reason=resolution_reason)
        self.results.append(result)
        return result

    def sign_test_plan(self, win_rate: float) -> tuple[int, int]:
        """(trials, wins needed) for :meth:`sign_test` at this check's α per test: both error
        rates (no effect accepted as one, a ``win_rate`` effect missed) are at most α."""
        return stats.sign_test_plan(self.alpha_per_test, win_rate)

    def sign_test(self, wins: int, trials: int, needed: int, label: str, win_rate: float,
                  at: Point | None = None) -> TestResult:
        """One-sided sign test over independent trials planned with :meth:`sign_test_plan`:
        passes when at least ``needed`` of ``trials`` were won."""
        alpha = self._take_alpha()
        p_value = stats.binomial_tail(trials, wins, 0.5)
        result = TestResult(
            label, "statistical", wins >= needed,
            f"{wins}/{trials} won (needs {needed}; p={p_value:.2g} against no effect)",
            estimate=wins / trials, expected=win_rate, n=trials, p_value=p_value, alpha=alpha,
            resolution=f"errs with probability ≤ α both when there is no effect and when the "
                       f"win rate is ≥ {win_rate:.0%}", parameters=as_record(at))
        self.results.append(result)
        return result

    # -- deterministic tests -------------------------------------------------------------------
    def close(self, actual: Any, expected: Any, tol: Any, label: str,
              inputs: str = "", at: Point | None = None) -> TestResult:
        """|actual − expected| ≤ ``tol`` in every entry; a value that is not a number (a foil
        that does not evaluate) fails.

        ``tol`` is one bound for all entries, or one per entry (an array broadcastable to them,
        as :meth:`close_relative` builds). One bound for all leaves a nonzero entry smaller
        than it unresolved (a value 100 % off passes there); the summary counts such entries,
        which a computation whose rounding is relative to each entry compares with
        :meth:`close_relative` instead."""
        a, e = _array(actual), _array(expected)
        bound = np.asarray(tol, dtype=float)
        note = ""
        if a is None or e is None:
            defect, note = math.inf, " (a value is not a number)"
        elif a.shape != e.shape:
            defect, note = math.inf, f" (shapes {a.shape} vs {e.shape})"
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                diff = np.where(a == e, 0.0, np.abs(a - e))
                diff = np.where(np.isnan(diff), np.inf, diff)
                if bound.ndim:
                    diff = np.where(diff == 0, 0.0, diff / np.broadcast_to(bound, diff.shape))
            defect = float(diff.max()) if diff.size else 0.0
            if not bound.ndim:
                note = _unresolved(e, float(bound))
        on = f" on {inputs}" if inputs else ""
        if bound.ndim:
            passed = bool(defect <= 1)
            shown = (f"max |Δ|/tol {defect:.2g} {'≤' if passed else '>'} 1 (tol by entry, "
                     f"{bound.min():.2g} to {bound.max():.2g})" if bound.size else "no entries")
        else:
            passed = bool(defect <= bound)
            shown = f"max |Δ| {defect:.2g} {'≤' if passed else '>'} tol {float(bound):.2g}"
        result = TestResult(label, "deterministic", passed, f"{shown}{on}{note}",
                            estimate=defect, expected=0.0, parameters=as_record(at))
        self.results.append(result)
        return result

    def close_relative(self, actual: Any, expected: Any, ops: int, label: str,
                       inputs: str = "", at: Point | None = None) -> TestResult:
        """:meth:`close` with each entry's own bound :func:`tolerance` (``ops``, |expected|):
        γ_ops·|expected| plus the underflow floor. For values whose every rounding is relative to
        the value itself (products, quotients, exp of a rounded argument, sums of terms of one
        sign; count ``ops`` as for :func:`tolerance`), so a factor of 10⁻³⁰ is resolved as
        finely as one of 1; a difference of nearly equal terms needs :meth:`close`."""
        e = _array(expected)
        scale = np.abs(e) if e is not None else np.float64(0.0)
        bound = tolerance(ops, np.where(np.isfinite(scale), scale, 0.0))
        return self.close(actual, expected, bound, label, inputs, at)

    def holds(self, condition: Any, label: str, detail: str = "", at: Point | None = None,
              sanity: str | None = None) -> TestResult:
        """A yes/no property observed on the simulated data. A condition that is not a plain
        truth value (an unevaluated relation from a symbolic foil) fails. ``sanity`` marks a
        test that checks the simulation itself and cannot reject a foil (with the reason), so
        the audit does not report it as inert."""
        try:
            ok = bool(np.all(condition)) if isinstance(condition, np.ndarray) else bool(condition)
        except (TypeError, ValueError):
            ok, detail = False, detail or "the condition does not evaluate to true or false"
        result = TestResult(label, "deterministic", ok,
                            detail or ("holds" if ok else "does not hold"),
                            parameters=as_record(at), sanity=sanity)
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

    def _unevaluated(self, label: str, at: Point | None, alpha: float) -> TestResult:
        result = TestResult(label, "statistical", False,
                            "the value under test does not evaluate to a finite number here",
                            alpha=alpha, parameters=as_record(at))
        self.results.append(result)
        return result

    def _z_result(self, label: str, estimate: float, expected: float, se: float, n: int,
                  spent: float, z: float, resolution: str, at: Point | None, look: int,
                  min_effect: float, reason: str | None, planned: int | None = None
                  ) -> TestResult:
        p = stats.two_sided_p(z)
        alpha = self.alpha_per_test
        half = stats.z_quantile(1 - alpha * FINAL_SHARE / 2) * se
        result = TestResult(
            label, "statistical", p > spent,
            f"{_num(estimate)} vs {_num(expected)} (±{_num(half)}, p={p:.2g}, "
            f"n={_planned(n, planned)})",
            estimate=estimate, expected=expected, n=n, ci=(estimate - half, estimate + half),
            p_value=p, alpha=alpha, resolution=resolution, parameters=as_record(at),
            looks=look + 1, resolution_reason=reason if min_effect > stats.DEFAULT_MIN_EFFECT
            else None)
        self.results.append(result)
        return result


def _unresolved(expected: np.ndarray, tol: float) -> str:
    """A note on the nonzero expected entries a single absolute ``tol`` cannot resolve."""
    with np.errstate(invalid="ignore"):
        size = np.abs(expected[np.isfinite(expected)])
    nonzero = int(np.count_nonzero(size))
    below = int(np.count_nonzero((size > 0) & (size <= tol)))
    return f" ({below} of {nonzero} nonzero entries below tol, not resolved)" if below else ""


def _futility(look: int) -> float:
    """The β this look may spend on accepting early (0 for the first and the last look)."""
    return FUTILITY[look] * (1 - POWER) if look < len(FUTILITY) else 0.0


def _rules_out(deviation: float, se: float, effect: float, look: int) -> bool:
    """Whether the estimate, ``deviation`` off the stated value with standard error ``se``,
    rules out a true deviation of ``effect`` or more in either direction at this look's β:
    the one-sided z-tests of +effect and of −effect both reject."""
    beta = _futility(look)
    return bool(beta) and se > 0 and \
        abs(deviation) + stats.z_quantile(1 - beta) * se <= effect


def _design_resolution(se: float, drawn: int, planned: int, final_alpha: float) -> float:
    """The shift the whole design detects with power ≥ POWER: the last look's at the planned
    sample, its standard error scaled from the ``drawn`` ones (the same as the current one
    when the test ran to its end)."""
    return stats.detectable(se * math.sqrt(drawn / planned), final_alpha, DESIGN_POWER)


def _planned(drawn: int, planned: int | None) -> str:
    """``n=…`` of a test, with its planned largest sample when it stopped before it."""
    if planned is None or drawn >= planned:
        return _sci(drawn)
    return f"{_sci(drawn)} of {_sci(planned)}"


def _z(estimate: float, expected: float, se: float, skewness: float, n: int) -> float:
    if se == 0:
        return 0.0 if estimate == expected else math.inf
    return stats.hall_skewness_correction((estimate - expected) / se, skewness, n)


def _chi_square(counts: np.ndarray, p0: np.ndarray, n: int, chdtrc) -> tuple[float, float]:
    with np.errstate(divide="ignore", invalid="ignore"):
        expected_counts = n * p0
        terms = np.where(expected_counts > 0, (counts - expected_counts) ** 2 / expected_counts,
                         np.where(counts > 0, np.inf, 0.0))
    statistic = float(terms.sum())
    p = float(chdtrc(p0.size - 1, statistic)) if math.isfinite(statistic) else 0.0
    return statistic, p


def _finite(x: Any) -> float | None:
    try:
        value = float(x)
    except (TypeError, ValueError):
        from tmath.engine.parameters import evaluate

        value = evaluate(x)
    return value if math.isfinite(value) else None


def _floats(values: Any) -> list[float]:
    from tmath.engine.parameters import evaluate

    try:
        return [float(v) for v in np.asarray(values, dtype=float).ravel()]
    except (TypeError, ValueError):
        flat = values if isinstance(values, (list, tuple)) else [values]
        return [evaluate(v) for v in flat]


def _array(x: Any) -> np.ndarray | None:
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        from tmath.engine.parameters import evaluate

        value = evaluate(x)
        return None if isinstance(value, float) and math.isnan(value) else np.asarray(value, float)


def _chunks(n: int):
    while n > 0:
        size = min(CHUNK, n)
        yield size
        n -= size


def _moments(draw: Draw, rng: np.random.Generator, n: int) -> stats.RunningMoments:
    m = stats.RunningMoments()
    _extend(m, draw, rng, n)
    return m


def _extend(m: stats.RunningMoments, draw: Draw, rng: np.random.Generator, target: int) -> None:
    """Draw until ``m`` holds ``target`` samples."""
    for size in _chunks(target - m.n):
        m.add(draw(rng, size))


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
