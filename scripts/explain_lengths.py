"""How long ``tmath explain`` pages are: line counts at a given width over every claim.

    python scripts/explain_lengths.py                  # all claims, 80 columns
    python scripts/explain_lengths.py --columns 100 --show dot-product-variance
    python scripts/explain_lengths.py --tmath /other/venv/bin/tmath   # another version

Each page is produced by its own ``tmath explain ID`` process (so an older tmath that takes
one id at a time can be measured the same way), with ``COLUMNS`` set. Prints the median and
maximum over all claims and over the theorems, the longest pages, and the claims asked for.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys


def claims(tmath: str) -> list[dict]:
    """The registered claims as ``tmath list --format json`` gives them."""
    listing = subprocess.run([tmath, "list", "--format", "json"], capture_output=True,
                             text=True, check=True)
    return json.loads(listing.stdout)


def page_lines(tmath: str, claim_id: str, columns: int) -> int:
    """Lines of ``tmath explain claim_id`` at ``columns`` (standard output only)."""
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "dumb"}
    run = subprocess.run([tmath, "explain", claim_id], capture_output=True, text=True, env=env)
    return len(run.stdout.splitlines())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tmath", default=shutil.which("tmath") or "tmath",
                        help="the tmath executable to measure")
    parser.add_argument("--columns", type=int, default=80)
    parser.add_argument("--show", action="append", default=["dot-product-variance"],
                        help="also print this claim's count (repeatable)")
    parser.add_argument("--json", metavar="FILE", help="write every count to FILE")
    args = parser.parse_args(argv)
    listed = claims(args.tmath)
    counts = {}
    for number, claim in enumerate(listed, 1):
        counts[claim["id"]] = page_lines(args.tmath, claim["id"], args.columns)
        print(f"{number:>4}/{len(listed)} {claim['id']}: {counts[claim['id']]}",
              file=sys.stderr, flush=True)
    theorems = [counts[c["id"]] for c in listed if c.get("kind", "theorem") == "theorem"]
    print(f"{len(counts)} claims at {args.columns} columns: median "
          f"{statistics.median(counts.values())}, max {max(counts.values())}")
    if theorems:
        print(f"{len(theorems)} theorems: median {statistics.median(theorems)}, "
              f"max {max(theorems)}")
    for claim_id, lines in sorted(counts.items(), key=lambda kv: -kv[1])[:5]:
        print(f"  longest: {claim_id} {lines}")
    for claim_id in dict.fromkeys(args.show):
        print(f"  {claim_id}: {counts.get(claim_id, 'not a claim')}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(counts, handle, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
