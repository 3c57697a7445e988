"""Measure how often true claims are rejected by chance: the randomized checks over many seeds.

    python scripts/false_alarms.py              # 200 seeds, 2 workers
    python scripts/false_alarms.py --seeds 500 --jobs 2

A proof does not depend on the seed, so only the randomized checks are run. For every seed
each claim's check runs on its own stream; a run "rejects a true claim" when any check fails
or errors. The script prints the observed family-wise rejection rate, an exact one-sided 95 %
upper bound for it (Clopper–Pearson), and the bound tmath promises (the sum of the claims'
α under Bonferroni). With N seeds and no rejection the upper bound is about 3/N, so a few
hundred seeds can show that rejections are rare, not that the rate is below 10⁻³: the
guarantee below that comes from the union bound, this script checks it is not violated.
"""

from __future__ import annotations

import argparse
import collections
import functools
import sys
import time

from tmath.defaults import ALPHA_PER_CLAIM
from tmath.engine.parallel import run_isolated
from tmath.engine.registry import load
from tmath.engine.runner import run_check


def checks_for_seed(specs, seed: int) -> list[tuple[str, str, str]]:
    """(claim, status, headline) of every check that did not pass at this seed."""
    bad = []
    for spec in specs:
        result = run_check(spec, spec.statement.value, seed)
        if result.status != "passed":
            bad.append((spec.id, result.status, result.headline))
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    registry = load()
    specs = [s for s in registry if s.info.has_check]  # prose claims have nothing to run
    statistical = [s for s in specs if s.statistical_tests > 0]
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    start = time.perf_counter()
    tasks = [functools.partial(checks_for_seed, specs, seed) for seed in seeds]
    per_claim = collections.Counter()
    rejecting_seeds = []
    for seed, outcome in zip(seeds, run_isolated(tasks, args.jobs, timeout=None)):
        if outcome.kind != "ok":
            print(f"seed {seed}: worker {outcome.kind}: {outcome.message}", file=sys.stderr)
            rejecting_seeds.append(seed)
            continue
        for claim_id, status, headline in outcome.value:
            per_claim[claim_id] += 1
            print(f"seed {seed}: {claim_id} {status}: {headline}")
        if outcome.value:
            rejecting_seeds.append(seed)
    n = len(seeds)
    k = len(rejecting_seeds)
    upper = _clopper_pearson_upper(k, n, 0.05)
    bound = ALPHA_PER_CLAIM * len(statistical)
    print(f"\nclaims with a check: {len(specs)} ({len(statistical)} with statistical tests, "
          f"{len(specs) - len(statistical)} deterministic)")
    print(f"seeds: {n} ({args.first_seed}..{args.first_seed + n - 1}), "
          f"{n * len(specs)} claim checks in {time.perf_counter() - start:.0f} s")
    print(f"runs rejecting a true claim: {k}/{n} = {k / n:.4g} "
          f"(95 % upper bound {upper:.3g})")
    print(f"promised bound (Bonferroni, α = {ALPHA_PER_CLAIM:g} per claim): {bound:.3g}")
    if per_claim:
        print("rejections per claim: " + ", ".join(f"{c}: {m}" for c, m in per_claim.most_common()))
    sys.exit(1 if k else 0)


def _clopper_pearson_upper(k: int, n: int, alpha: float) -> float:
    from scipy.special import betaincinv

    return 1.0 if k >= n else float(betaincinv(k + 1, n - k, 1 - alpha))


if __name__ == "__main__":
    main()
