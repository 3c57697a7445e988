"""Print what each formula a built-in claim records was found to mean.

    python scripts/formula_meanings.py [ID-PREFIX ...] [-v]

With ``-v`` every formula not bound by meaning is listed with the reason.
"""

import collections
import sys

from tmath.engine import registry
from tmath.engine.runner import recorded_meanings, run_proof


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    prefixes = [a for a in argv if not a.startswith("-")]
    claims = registry.load().claims
    count = collections.Counter()
    for spec in (claims.values() if hasattr(claims, "values") else claims):
        if not spec.formulas or (prefixes and not spec.id.startswith(tuple(prefixes))):
            continue
        judged: list = []
        run_proof(spec, spec.statement.value, judged=judged)
        for found in recorded_meanings(spec, judged):
            count[found.meaning] += 1
            if verbose and found.meaning != "equivalent":
                print(f"{spec.id} [{found.meaning}] {found.formula}\n    bound: {found.bound}"
                      f"\n    {found.detail}\n")
    print(dict(count))


if __name__ == "__main__":
    main(sys.argv[1:])
