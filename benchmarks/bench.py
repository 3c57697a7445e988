"""Whole-process wall time and peak memory of tmath commands, next to the import floors.

Run from the repository root with tmath installed (``pip install .``):

    python benchmarks/bench.py              # median of 5 runs each
    python benchmarks/bench.py --repeat 7
    python benchmarks/bench.py --tests      # and the README's test command, timed once
    python benchmarks/bench.py --report     # only tmath report's rows and the import floor

It prints one table of medians and peak RSS, the ratios the performance targets are stated
in (all measured in this one run, so a busy machine slows both sides; the cold verify and
``list`` are also timed in alternation with their floors, whose medians move the most
between runs), the document gate on 4 MB of adversarial input in every output format (``--gate``:
only those rows), and the ten slowest claims with their proof and randomized-check times.
Nothing here is a test: targets are read off, not asserted.
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
from typing import Callable

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


def paired_ratio(numerator: list[str], denominator: list[str], env: dict, repeat: int,
                 setup=None) -> float:
    """The median of ``repeat`` ratios, each of one run of ``numerator`` over the run of
    ``denominator`` just before it: a machine that speeds up or slows down between the rows
    of the table moves both sides of each pair alike. ``setup`` runs before each numerator."""
    ratios = []
    for _ in range(repeat):
        below = run(denominator, env)[0]
        if setup:
            setup()
        ratios.append(run(numerator, env)[0] / below)
    return statistics.median(ratios)


def snapshot(cache: str) -> Callable[[], None]:
    """A function that puts the tmath cache of ``cache`` back as it is now (each run of a
    "first run" row starts from the same cache)."""
    folder = Path(cache) / "tmath"
    kept = Path(tempfile.mkdtemp(prefix="tmath-bench-snapshot-")) / "tmath"
    shutil.copytree(folder, kept, symlinks=True)

    def restore() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(kept, folder, symlinks=True)

    return restore


def report_rows(tmath: str, env: dict, cache: str, repeat: int) -> tuple[list[dict], float]:
    """``tmath report`` the first time after ``tmath verify all`` (nothing else cached: no
    figures drawn, no audit), in HTML (figures drawn) and Markdown; and the HTML row's ratio
    to the import floor, paired run by run. Leaves the cache as verify left it."""
    run([tmath, "verify", "all"], env)  # verify's results cached, nothing else
    restore = snapshot(cache)
    out = Path(cache) / "first-report"
    rows = [measure("tmath report (first run, warm verify)",
                    [tmath, "report", "-o", f"{out}.html"], env, repeat, setup=restore),
            measure("tmath report -f markdown (first run, warm verify)",
                    [tmath, "report", "-f", "markdown", "-o", f"{out}.md"], env, repeat,
                    setup=restore)]
    paired = paired_ratio([tmath, "report", "-o", f"{out}.html"],
                          [sys.executable, "-c", "import numpy, sympy, typer, rich.table"], env,
                          repeat, setup=restore)
    restore()
    return rows, paired


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
    sea of author-year citations with titles, lines of comma-separated names, lines of
    ``arXiv``, formulas of commas, the document's own paragraphs (and pins) over and over."""
    base = GATE_BASE.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(base) if line.startswith("### 1.1")) + 1
    size = ADVERSARIAL_MB * 1024 * 1024
    paragraphs = "\n\n".join(p for p in "\n".join(base).split("\n\n")
                             if p.strip() and "$" not in p and not p.lstrip().startswith("#"))
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
        "name lists up to &": ("Aa, " * 2_497 + " & Bb\n") * (size // 10_000),
        "arXiv lines": ("arXiv" * 1_999 + "\n") * (size // 10_000),
        "trailing commas in $$": ("$$a" + "," * 3_990 + "b$$\n") * (size // 4_000),
        "pinned paragraphs": paragraphs * (size // max(1, len(paragraphs))),
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


MINIMAL_APP = """\
import sys

import typer
from rich.console import Console
from rich.table import Table

app = typer.Typer(add_completion=False)


@app.command("list")
def list_rows(rows: int = typer.Option(..., help="how many rows")) -> None:
    \"\"\"Print a table of ROWS rows.\"\"\"
    table = Table("claim", "§", "title", "tags", "kind")
    for i in range(rows):  # cells about as long as tmath's, so rows wrap as they do there
        table.add_row(f"claim-number-{i}", f"{i % 15 + 1}.1",
                      f"the title of claim {i}, as long as the titles of tmath's claims",
                      "variance, attention", "theorem")
    Console().print(table)


@app.command()
def other() -> None:
    \"\"\"A second command, so that the app has subcommands as tmath has.\"\"\"


if __name__ == "__main__":
    app()
"""
"""The floor for ``tmath list`` and ``--help``: a typer app printing a rich table of as many
rows, with nothing of tmath in it."""


def readme_test_command() -> str:
    """The README's second command (the one that installs the test extra and runs the tests),
    from its pytest invocation on."""
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:12]:
        if "pytest" in line and "[test]" in line:
            return line[line.index("python -m pytest"):]
    sys.exit("README.md has no test command in its first lines")


READER_FORMULAS = [  # the kinds of formula the notes print (the reader reads each afresh)
    r"\text{Attention}(Q, K, V) = \text{softmax}\left(\frac{QK^T}{\sqrt{d_k}}\right) V",
    r"\text{Var}(q_i k_i) = E[q_i^2 k_i^2] - (E[q_i k_i])^2 = E[q_i^2] \cdot E[k_i^2] = 1",
    r"PE(pos, 2i) = \sin\left(\frac{pos}{10000^{2i/d_{model}}}\right)",
    r"D_{KL}(p \| q) = \sum_{x} p(x) \log \frac{p(x)}{q(x)} = H(p, q) - H(p)",
    r"M_{ij} = \begin{cases} 0 & \text{if } i \geq j \\ -\infty & \text{if } i < j \end{cases}",
]


def print_reader() -> None:
    """reader: 1,000 formulas (tmath.latex.read, in this process), in seconds."""
    from tmath.latex import read
    start = time.perf_counter()
    for k in range(1000):
        read(READER_FORMULAS[k % len(READER_FORMULAS)] + " " * (k // len(READER_FORMULAS)))
    print(f"{'reader: 1,000 formulas':45} {time.perf_counter() - start:9.3f} s")


def bytecode_note() -> str:
    """A line when every run compiles tmath's sources (an editable install where Python may
    not write bytecode): about 0.3 s a run that an installed copy does not pay."""
    import importlib.util

    import tmath

    compiled = Path(importlib.util.cache_from_source(tmath.__file__)).exists()
    if compiled or not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return ""
    return ("note: PYTHONDONTWRITEBYTECODE is set and tmath has no bytecode, so every run "
            "compiles it; `pip install .` compiles it once, as users run it")


RECOGNITION_BUDGET = 10.0
"""Seconds a warm ``tmath check`` may take to read and recognise a 5,000-line document with
1,000 formulas (issue 26)."""
RECOGNITION_TEMPLATES = [
    r"\mathrm{{Var}}(\mathbf{{q}}_{{{a}}}\cdot\mathbf{{k}}_{{{a}}}) = d",
    r"\mathrm{{Attn}}(Q_{{{a}}}, K_{{{a}}}, V_{{{a}}}) = \mathrm{{softmax}}\left(\frac{{Q_{{{a}}} K_{{{a}}}^\top}}{{\sqrt{{d}}}}\right) V_{{{a}}}",
    r"\mathrm{{softmax}}(z)_i = \frac{{e^{{z_i/{b}}}}}{{\sum_j e^{{z_j/{b}}}}}",
    r"PE_{{(pos,2i)}} = \sin\left(pos/{b}0000^{{2i/d_{{\text{{model}}}}}}\right)",
    r"\sqrt{{{c}}} \approx {r}",
    r"{c}/{b} = {q}",
    r"y_{{{a}}} = {b} x_{{{a}}} + \beta_{{{a}}}",
    r"\mathbb{{E}}[x_{{{a}}}^2] = \sigma_{{{a}}}^2 + \mu_{{{a}}}^2",
]


def recognition_document(path: Path) -> None:
    """5,000 lines of prose and 1,000 display formulas, each different (templates of
    formulas the claims mean, near forms and unrelated ones, with varied numbers)."""
    lines = ["# A long document", ""]
    for k in range(1000):
        a, b, c = k, k % 7 + 2, (k % 30 + 2) ** 2
        template = RECOGNITION_TEMPLATES[k % len(RECOGNITION_TEMPLATES)]
        formula = template.format(a=a, b=b, c=c, r=round(c ** 0.5, 1), q=c / b)
        lines += [f"Step {k} is explained in a sentence.", "", f"$$ {formula} $$", "",
                  "A second sentence follows it."]
    lines += ["Filler prose."] * (5000 - len(lines))
    path.write_text("\n".join(lines), encoding="utf-8")


def recognition_rows(tmath: str, env: dict, repeat: int) -> list[dict]:
    """tmath check on a document no claim set is bound to: the first run fills the caches,
    the measured runs are warm."""
    folder = Path(tempfile.mkdtemp(prefix="tmath-bench-recognition-"))
    try:
        path = folder / "long.md"
        recognition_document(path)
        run([tmath, "check", str(path), "-f", "json"], env)
        return [measure("check, 5,000 lines, 1,000 formulas, recognised (warm)",
                        [tmath, "check", str(path), "-f", "json"], env, repeat)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def markdown_document(formulas: int = 1000, lines: int = 5000) -> str:
    """A Markdown document of ``lines`` lines with ``formulas`` display formulas, headings,
    code spans, a fence every fiftieth formula and prose with figures between them."""
    parts = []
    for k in range(formulas):
        if k % 50 == 0:
            parts.append(f"## Part {k // 50 + 1}\n\n```\nx = {k}.5\n```\n")
        parts.append(f"A figure {k}.25, a span `{k}.75` and $x_{{{k}}}$ inline.\n\n"
                     f"$$\\operatorname{{Var}}(q \\cdot k) = {k} d_k$$\n\n")
    text = "".join(parts)
    return text + "Prose line with 2.5 in it.\n" * max(0, lines - text.count("\n"))


def latex_document(equations: int = 100) -> str:
    """A paper-sized LaTeX source: sections, prose with figures and citations, equations."""
    parts = ["\\documentclass{article}\n\\begin{document}\n"]
    for k in range(equations):
        if k % 10 == 0:
            parts.append(f"\\section{{Part {k // 10 + 1}}}\n")
        parts.append(f"A figure {k}.25 and $x_{{{k}}}$ inline, as in \\cite{{key{k}}}.\n"
                     f"\\begin{{equation}}\n\\operatorname{{Var}}(q \\cdot k) = {k} d_k "
                     f"\\label{{eq{k}}}\n\\end{{equation}}\n"
                     + "Prose that explains the equation above in a few more words.\n" * 6)
    return "".join(parts) + "\\end{document}\n"


def print_document_readers() -> None:
    """readers: a 5,000-line document with 1,000 display formulas, read as Markdown (with the
    first import of markdown-it and its plugins) and as plain text, in seconds."""
    from tmath.gate.document import parse_as

    text = markdown_document()
    for name, suffix in (("markdown, first (imports)", ".md"), ("markdown", ".md"),
                         ("plain text", ".txt")):
        start = time.perf_counter()
        document = parse_as(suffix, text, "bench" + suffix)
        label = f"read 5,000 lines, {len(document.formulas)} formulas: {name}"
        print(f"{label:62} {time.perf_counter() - start:7.3f} s")
    text = latex_document()
    start = time.perf_counter()
    document = parse_as(".tex", text, "bench.tex")
    label = (f"read LaTeX, {len(text) // 1000} KB, {text.count(chr(10))} lines, "
             f"{len(document.formulas)} equations")
    print(f"{label:62} {time.perf_counter() - start:7.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--gate", action="store_true",
                        help="only the document gate's rows (hostile input, every format)")
    parser.add_argument("--no-gate", action="store_true",
                        help="leave out the document gate's rows (they take a few minutes)")
    parser.add_argument("--report", action="store_true",
                        help="only the import floor and tmath report's rows (first run after "
                             "a warm verify, HTML and Markdown)")
    parser.add_argument("--recognition", action="store_true",
                        help="only the recognition row: a 5,000-line document with 1,000 "
                             "formulas, read and recognised warm")
    parser.add_argument("--tests", action="store_true",
                        help="also time the README's test command once (about 4 minutes)")
    args = parser.parse_args()
    repeat = max(5, args.repeat)
    beside = Path(sys.executable).with_name("tmath")  # the venv's, even when not activated
    tmath = str(beside) if beside.exists() else shutil.which("tmath") or \
        sys.exit("install tmath first: pip install .")
    cache = tempfile.mkdtemp(prefix="tmath-bench-cache-")
    env = {**os.environ, "XDG_CACHE_HOME": cache, "NO_COLOR": "1", "COLUMNS": "120"}
    py = sys.executable
    print_reader()
    print_document_readers()
    if note := bytecode_note():
        print(note)
    if args.recognition:
        for r in recognition_rows(tmath, env, repeat):
            print(f"{r['name']:55} {r['median']:9.3f} s (min {r['min']:.3f})  within "
                  f"{RECOGNITION_BUDGET:g} s: {'yes' if r['median'] <= RECOGNITION_BUDGET else 'NO'}"
                  f"  exit {','.join(map(str, r['codes']))}")
        shutil.rmtree(cache, ignore_errors=True)
        return
    if args.gate:
        print_gate(gate_rows(tmath, env, repeat))
        shutil.rmtree(cache, ignore_errors=True)
        return

    if args.report:
        floor = measure("import numpy, sympy, typer, rich.table",
                        [py, "-c", "import numpy, sympy, typer, rich.table"], env, repeat)
        rows, paired = report_rows(tmath, env, cache, repeat)
        print(f"{'command':50} {'median s':>9} {'min s':>7} {'peak MB':>8}  exit")
        for r in [floor, *rows]:
            print(f"{r['name']:50} {r['median']:9.3f} {r['min']:7.3f} {r['peak_mb']:8.1f}  "
                  f"{','.join(map(str, r['codes']))}")
        print(f"\n{'report, first run after verify / import floor':50} "
              f"{rows[0]['median'] / floor['median']:9.2f}  target 10.00")
        print(f"{'  the same, runs paired with the floor':50} {paired:9.2f}  target 10.00")
        shutil.rmtree(cache, ignore_errors=True)
        return

    run([tmath, "list"], env)  # build the metadata index once, as any first use does
    listed = run([tmath, "list", "-f", "json"], env)[3]
    try:
        count = len(json.loads(listed))
    except (ValueError, TypeError):
        sys.exit(f"tmath list -f json gave no claim list: {listed[:200]!r}")
    app = Path(cache) / "minimal_app.py"
    app.write_text(MINIMAL_APP, encoding="utf-8")
    report = Path(cache) / "report.html"
    rows = [
        measure("python -c pass", [py, "-c", "pass"], env, repeat),
        measure("import numpy, sympy, typer, rich.table",
                [py, "-c", "import numpy, sympy, typer, rich.table"], env, repeat),
        measure("minimal typer app --help", [py, str(app), "--help"], env, repeat),
        measure(f"minimal typer app list ({count} rows)",
                [py, str(app), "list", "--rows", str(count)], env, repeat),
        measure("tmath --help", [tmath, "--help"], env, repeat),
        measure("tmath list", [tmath, "list"], env, repeat),
    ]
    paired_list = paired_ratio([tmath, "list"], [py, str(app), "list", "--rows", str(count)],
                               env, repeat)
    run([tmath, "explain", "softmax-temperature"], env)  # first explain fills the cache
    rows.append(measure("tmath explain softmax-temperature",
                        [tmath, "explain", "softmax-temperature"], env, repeat))
    rows.append(measure("tmath verify all --no-cache -j 1",
                        [tmath, "verify", "all", "--no-cache", "-j", "1"], env, repeat))
    rows.append(measure("tmath verify all --no-cache -j 2",
                        [tmath, "verify", "all", "--no-cache", "-j", "2"], env, repeat))
    paired_cold = paired_ratio([tmath, "verify", "all", "--no-cache", "-j", "2"],
                               [py, "-c", "import numpy, sympy, typer, rich.table"], env, repeat)
    run([tmath, "verify", "all"], env)  # fill the cache
    rows.append(measure("tmath verify all (warm)", [tmath, "verify", "all"], env, repeat))
    first_report, paired_report = report_rows(tmath, env, cache, repeat)
    rows += first_report
    run([tmath, "audit", "all"], env)  # fill the audit cache
    run([tmath, "report", "--audit", "-o", str(report)], env)  # and the figures' cache
    rows.append(measure("tmath report --audit (warm verify and audit)",
                        [tmath, "report", "--audit", "-o", str(report)], env, repeat))
    for document in (SAMPLE_DOC, GATE_BASE, NOTES):
        if document.exists():
            run([tmath, "check", str(document)], env)  # verify what the document needs once
            rows.append(measure(f"tmath check {document.name} (warm)",
                                [tmath, "check", str(document)], env, repeat))
    by = {r["name"]: r for r in rows}

    print(f"{'command':50} {'median s':>9} {'min s':>7} {'peak MB':>8}  exit")
    for r in rows:
        print(f"{r['name']:50} {r['median']:9.3f} {r['min']:7.3f} {r['peak_mb']:8.1f}  "
              f"{','.join(map(str, r['codes']))}")

    floor = by["import numpy, sympy, typer, rich.table"]["median"]
    j1 = by["tmath verify all --no-cache -j 1"]["median"]
    j2 = by["tmath verify all --no-cache -j 2"]["median"]
    app_list = by[f"minimal typer app list ({count} rows)"]["median"]
    targets = [
        ("verify -j 2 (no cache) / import floor", j2 / floor, 15.0),
        ("  the same, runs paired with the floor", paired_cold, 15.0),
        ("verify -j 2 / verify -j 1 (no cache)", j2 / j1, 0.6),
        ("verify all warm / import floor", by["tmath verify all (warm)"]["median"] / floor, 1.0),
        ("explain / import floor", by["tmath explain softmax-temperature"]["median"] / floor, 1.0),
        ("report, first run after verify / import floor",
         by["tmath report (first run, warm verify)"]["median"] / floor, 10.0),
        ("  the same, runs paired with the floor", paired_report, 10.0),
        ("report --audit (warm) / import floor",
         by["tmath report --audit (warm verify and audit)"]["median"] / floor, 10.0),
        ("tmath list / minimal app list", by["tmath list"]["median"] / app_list, 1.15),
        ("  the same, runs paired with the app", paired_list, 1.15),
        ("tmath --help / minimal app --help (no target)",
         by["tmath --help"]["median"] / by["minimal typer app --help"]["median"], None),
    ]
    print()
    print(f"{'ratio':45} {'value':>9} {'target':>7}  met")
    for name, value, target in targets:
        verdict = "-" if target is None else "yes" if value <= target else "NO"
        shown = "-" if target is None else f"{target:.2f}"
        print(f"{name:45} {value:9.2f} {shown:>7}  {verdict}")
    peak = max(by[n]["peak_mb"] for n in by if n.startswith("tmath verify"))
    print(f"{'peak RSS of verify all (MB)':45} {peak:9.1f} {400:7d}  {'yes' if peak <= 400 else 'NO'}")
    if GATE_BASE.exists() and not args.no_gate:
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
    if args.tests:
        command = readme_test_command()
        argv = [sys.executable, *command.split()[1:]]  # this interpreter's pytest, not PATH's
        start = time.perf_counter()
        code = subprocess.run(argv, cwd=ROOT, env={**os.environ}).returncode
        minutes = (time.perf_counter() - start) / 60
        print(f"\nREADME test command ({command}): {minutes:.1f} min, exit {code}; "
              f"target 4 min: {'yes' if minutes <= 4 and code == 0 else 'NO'}")


if __name__ == "__main__":
    main()
