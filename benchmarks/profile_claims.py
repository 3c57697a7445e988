"""Where a cold ``verify all`` spends its time: each claim's proof and randomized check run
in this process under cProfile (as a worker runs them), then the totals by function.

    python benchmarks/profile_claims.py               # the 15 hottest functions, by own time
    python benchmarks/profile_claims.py --top 30 --sort cumulative
    python benchmarks/profile_claims.py --claim entropy-temperature

Claims run in registry order, each once (a SymPy cache warmed by one claim helps the next,
as in a worker that runs several claims). Nothing here is a test.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from tmath.defaults import DEFAULT_SEED
from tmath.engine.registry import load
from tmath.engine.runner import run_check, run_proof


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--sort", default="tottime", choices=("tottime", "cumulative"))
    parser.add_argument("--claim", action="append", default=[], help="only this claim (repeat)")
    args = parser.parse_args()
    registry = load()
    specs = [s for s in registry if not args.claim or s.id in args.claim]
    profiler = cProfile.Profile()
    rows = []
    for spec in specs:
        start = time.perf_counter()
        profiler.enable()
        run_proof(spec, spec.statement.value)
        middle = time.perf_counter()
        run_check(spec, spec.statement.value, DEFAULT_SEED)
        profiler.disable()
        rows.append((spec.id, middle - start, time.perf_counter() - middle))
    proof = sum(r[1] for r in rows)
    check = sum(r[2] for r in rows)
    print(f"{len(rows)} claims: proofs {proof:.2f} s, randomized checks {check:.2f} s "
          f"(under the profiler)\n")
    print(f"{'slowest claims':38} {'proof s':>8} {'check s':>8}")
    for claim_id, p, c in sorted(rows, key=lambda r: -(r[1] + r[2]))[:10]:
        print(f"{claim_id:38} {p:8.2f} {c:8.2f}")
    print()
    pstats.Stats(profiler).strip_dirs().sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
