"""Whole-process wall time and peak memory of tmath commands, next to the import floors.

Run from the repository root with tmath installed (``pip install .``):

    python benchmarks/bench.py              # median of 5 runs each
    python benchmarks/bench.py --repeat 7

It prints one table of medians and peak RSS, the ratios the performance targets are stated
in (all measured in this one run, so a busy machine slows both sides), the document gate on
4 MB of adversarial input in every output format (``--gate``: only those rows), and the ten
slowest claims with their proof and randomized-check times. Nothing here is a test: targets
are read off, not asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DOC = ROOT / "tests" / "docs" / "scaling.md"
NOTES = ROOT.parent / "shared" / "notes" / "000_998e9f834dc347ba.txt"


def run(argv: list[str], env: dict) -> tuple[float, float, int, str]:
    """Wall seconds, peak RSS (MB, largest process of the tree) and exit code of one run."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, env=env)
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in (0, 1):
            errors.seek(0)
            print(f"{' '.join(argv[1:])}: exit {code}: {errors.read().decode()[-500:]}",
                  file=sys.stderr)
    return seconds, usage.ru_maxrss / 1024, code, out.decode("utf-8", "replace")


def measure(name: str, argv: list[str], env: dict, repeat: int, setup=None) -> dict:
    times, peaks, codes = [], [], set()
    for _ in range(repeat):
        if setup:
            setup()
        seconds, peak, code, _ = run(argv, env)
        times.append(seconds)
        peaks.append(peak)
        codes.add(code)
    return {"name": name, "median": statistics.median(times), "min": min(times),
            "peak_mb": max(peaks), "codes": sorted(codes)}


# -- the document gate on hostile input (rows owned by the gate) --------------------------------

GATE_BASE = ROOT / "docs" / "companion.md"
GATE_BUDGET = (5.0, 300.0)
"""The gate's bound on 4 MB of adversarial input: seconds and peak MB, in every format."""
ADVERSARIAL_MB = 4


def adversarial_documents(folder: Path) -> list[tuple[str, Path]]:
    """The companion document with 4 MB of hostile text inside its first section with
    figures (so anchoring has to search through it): lines of ``$``, runs of ``$a$``, glued
    ``$$a$$``, unbalanced braces in display math, one very long line, a sea of numbers, a
    sea of author-year citations with titles, lines of comma-separated names."""
    base = GATE_BASE.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(base) if line.startswith("### 1.1")) + 1
    size = ADVERSARIAL_MB * 1024 * 1024
    junk = {
        "lines of $": ("$" * 9_999 + "\n") * (size // 10_000),
        "inline $a$ runs": ("$a$ " * 2_499 + "\n") * (size // 10_000),
        "glued $$a$$": ("$$a$$" * 1_999 + "\n") * (size // 10_000),
        "braces in $$": ("$$" + "{" * 9_000 + "$$\n" + "}" * 990 + "\n") * (size // 10_000),
        "one long line": "9 " * (size // 2) + "\n",
        "numbers": ("9 " * 4_999 + "\n") * (size // 10_000),
        "citations": ("Ab et al. (2001) “Attention Is All You Need” " * 200 + "\n")
                     * (size // 10_000),
        "name lists": ("Aa, " * 2_499 + "\n") * (size // 10_000),
    }
    made = []
    for name, text in junk.items():
        path = folder / (name.replace(" ", "_").replace("$", "d") + ".md")
        path.write_text("\n".join(base[:at]) + "\n" + text + "\n".join(base[at:]),
                        encoding="utf-8")
        made.append((name, path))
    return made


def gate_rows(tmath: str, env: dict, repeat: int) -> list[dict]:
    """tmath check on each adversarial document in every output format."""
    folder = Path(tempfile.mkdtemp(prefix="tmath-bench-gate-"))
    rows = []
    try:
        documents = adversarial_documents(folder)
        run([tmath, "check", str(GATE_BASE)], env)  # verify what the document needs once
        for name, path in documents:
            for fmt in ("table", "json", "junit", "github"):
                row = measure(f"check, 4 MB {name}, -f {fmt}",
                              [tmath, "check", str(path), "-f", fmt], env, repeat)
                rows.append(row)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def print_gate(rows: list[dict]) -> None:
    seconds, megabytes = GATE_BUDGET
    print(f"\n{'document gate on hostile input':45} {'median s':>9} {'peak MB':>8}  "
          f"within {seconds:g} s, {megabytes:g} MB")
    for r in rows:
        ok = r["median"] <= seconds and r["peak_mb"] <= megabytes
        print(f"{r['name']:45} {r['median']:9.3f} {r['peak_mb']:8.1f}  "
              f"{'yes' if ok else 'NO'}  (exit {','.join(map(str, r['codes']))})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--gate", action="store_true",
                        help="only the document gate's rows (hostile input, every format)")
    args = parser.parse_args()
    repeat = max(5, args.repeat)
    tmath = shutil.which("tmath") or sys.exit("install tmath first: pip install .")
    cache = tempfile.mkdtemp(prefix="tmath-bench-cache-")
    env = {**os.environ, "XDG_CACHE_HOME": cache, "NO_COLOR": "1", "COLUMNS": "120"}
    py = sys.executable
    if args.gate:
        print_gate(gate_rows(tmath, env, repeat))
        shutil.rmtree(cache, ignore_errors=True)
        return

    def cold_cache():
        shutil.rmtree(Path(cache) / "tmath" / "results", ignore_errors=True)

    run([tmath, "list"], env)  # build the metadata index once, as any first use does
    rows = [
        measure("python -c pass", [py, "-c", "pass"], env, repeat),
        measure("import typer, rich.table", [py, "-c", "import typer, rich.table"], env, repeat),
        measure("import numpy, sympy, typer, rich.table",
                [py, "-c", "import numpy, sympy, typer, rich.table"], env, repeat),
        measure("tmath --help", [tmath, "--help"], env, repeat),
        measure("tmath list", [tmath, "list"], env, repeat),
    ]
    run([tmath, "explain", "softmax-temperature"], env)  # first explain fills the cache
    rows.append(measure("tmath explain softmax-temperature",
                        [tmath, "explain", "softmax-temperature"], env, repeat))
    rows.append(measure("tmath verify all --no-cache -j 1",
                        [tmath, "verify", "all", "--no-cache", "-j", "1"], env, repeat))
    rows.append(measure("tmath verify all --no-cache -j 2",
                        [tmath, "verify", "all", "--no-cache", "-j", "2"], env, repeat))
    run([tmath, "verify", "all"], env)  # fill the cache
    rows.append(measure("tmath verify all (warm)", [tmath, "verify", "all"], env, repeat))
    for document in (SAMPLE_DOC, GATE_BASE, NOTES):
        if document.exists():
            run([tmath, "check", str(document)], env)  # verify what the document needs once
            rows.append(measure(f"tmath check {document.name} (warm)",
                                [tmath, "check", str(document)], env, repeat))
    by = {r["name"]: r for r in rows}

    print(f"{'command':45} {'median s':>9} {'min s':>7} {'peak MB':>8}  exit")
    for r in rows:
        print(f"{r['name']:45} {r['median']:9.3f} {r['min']:7.3f} {r['peak_mb']:8.1f}  "
              f"{','.join(map(str, r['codes']))}")

    floor_ui = by["import typer, rich.table"]["median"]
    floor_all = by["import numpy, sympy, typer, rich.table"]["median"]
    j1 = by["tmath verify all --no-cache -j 1"]["median"]
    j2 = by["tmath verify all --no-cache -j 2"]["median"]
    targets = [
        ("tmath --help / typer+rich floor", by["tmath --help"]["median"] / floor_ui, 2.0),
        ("tmath list / typer+rich floor", by["tmath list"]["median"] / floor_ui, 2.0),
        ("explain / numpy+sympy+typer+rich floor",
         by["tmath explain softmax-temperature"]["median"] / floor_all, 2.0),
        ("verify all warm / full floor", by["tmath verify all (warm)"]["median"] / floor_all, 1.5),
        ("verify -j 2 / verify -j 1 (no cache)", j2 / j1, 0.65),
        ("verify -j 2 (no cache) / full floor", j2 / floor_all, 15.0),
    ]
    print()
    print(f"{'ratio':45} {'value':>9} {'target':>7}  met")
    for name, value, target in targets:
        print(f"{name:45} {value:9.2f} {target:7.2f}  {'yes' if value <= target else 'NO'}")
    peak = max(by[n]["peak_mb"] for n in by if n.startswith("tmath verify"))
    print(f"{'peak RSS of verify all (MB)':45} {peak:9.1f} {400:7d}  {'yes' if peak <= 400 else 'NO'}")
    if GATE_BASE.exists():
        print_gate(gate_rows(tmath, env, repeat))

    _, _, code, out = run([tmath, "verify", "all", "--no-cache", "-j", "1", "-f", "json"], env)
    try:
        claims = json.loads(out)["claims"]
    except ValueError:
        sys.exit(f"verify --format json gave no JSON (exit {code}): {out[:200]!r}")
    slow = sorted(claims, key=lambda c: c["seconds"], reverse=True)[:10]
    print("\nten slowest claims (one run, -j 1):")
    print(f"{'claim':36} {'total s':>8} {'proof s':>8} {'check s':>8}")
    for c in slow:
        print(f"{c['id']:36} {c['seconds']:8.2f} {c['proof']['seconds']:8.2f} "
              f"{c['empirical']['seconds']:8.2f}")
    shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()
