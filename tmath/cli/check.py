"""``tmath check``: the documentation gate as a command.

Only light modules are imported here; the engine (NumPy, SymPy, the runner) is imported when
the command runs, so ``tmath --help`` stays fast.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from tmath.cli.common import (check_output, collect, jobs_or_cores, load_catalog,
                              parse_max_memory, parse_seed, parse_timeout, print_details,
                              translator, write_text)
from tmath.cli.console import err, out
from tmath.cli.options import (DEFAULT_MAX_MEMORY_MB, ClaimsOption, JobsOption, LangOption,
                               MaxMemoryOption, NoBuiltinOption, NoCacheOption, SeedOption,
                               TimeoutOption, VerboseOption)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode


class CheckFormat(str, enum.Enum):
    table = "table"
    json = "json"
    junit = "junit"
    github = "github"


PathsArgument = Annotated[list[Path], typer.Argument(
    metavar="DOCUMENT", show_default=False,
    help="UTF-8 plain-text or Markdown documents (at most 5 MB each), each checked on its "
         "own; one report, and the gate fails when any of them fails.")]
BuiltinOption = Annotated[bool, typer.Option(
    "--builtin", hidden=True,
    help="Deprecated: the built-in claims are always used unless --no-builtin.")]
FormatOption = Annotated[CheckFormat, typer.Option(
    "--format", "-f", help="table (grouped by section), json, junit (XML for CI test "
                           "reporters) or github (annotations on the document's lines).")]
OutputOption = Annotated[Optional[Path], typer.Option(
    "--output", "-o", metavar="FILE",
    help="Write the report (with --fix: the diff) to FILE as well, atomically; never over a "
         "document or claims file.")]
MinCoverageOption = Annotated[float, typer.Option(
    "--min-coverage", min=0.0, max=100.0, metavar="PCT",
    help="Fail when less than PCT % of the display formulas, figures and prose statements "
         "are covered (in each document).")]
FixOption = Annotated[bool, typer.Option(
    "--fix", help="Print a unified diff that restates each inaccurate figure with its true "
                  "value, at the precision and in the style printed (1/9770 → 1/9647).")]
OnlyProblemsOption = Annotated[bool, typer.Option(
    "--only-problems",
    help="The table shows only failing findings and warnings (and the sections that have "
         "them), says how many passing findings it left out, and keeps the whole summary. "
         "It hides nothing that fails and never changes the exit code; json, junit and "
         "github are unchanged (github shows only problems anyway).")]
CheckLangOption = Annotated[Optional[str], typer.Option(
    "--lang", metavar="en|zh",
    help="Language of the table: headers, statuses, kinds, the claims' labels and the "
         "summary (default: $TMATH_LANG or en). What the readers quote from the document "
         "stays as printed; json, junit and github stay English for the tools that read "
         "them.")]
WriteOption = Annotated[bool, typer.Option(
    "--write", help="With --fix: apply the diff to the documents (atomically), then check "
                    "them again and report.")]


def check(
    paths: PathsArgument,
    claims: ClaimsOption = None,
    no_builtin: NoBuiltinOption = False,
    format: FormatOption = CheckFormat.table,
    output: OutputOption = None,
    min_coverage: MinCoverageOption = 0.0,
    only_problems: OnlyProblemsOption = False,
    lang: CheckLangOption = None,
    fix: FixOption = False,
    write: WriteOption = False,
    seed: SeedOption = str(DEFAULT_SEED),
    jobs: JobsOption = None,
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    max_memory: MaxMemoryOption = DEFAULT_MAX_MEMORY_MB,
    no_cache: NoCacheOption = False,
    verbose: VerboseOption = False,
    builtin: BuiltinOption = False,
) -> None:
    """Check documents against the claims that vouch for them: wrong figures, contradicted, changed or unverified formulas, line by line.

    [bold]Which claims.[/bold] The built-in claims and those of each --claims DIR (--no-builtin: only those). A claim set holds a document when the document contains enough of the formulas (or technical terms) the set records; a claim the document pins with [bold]<!-- tmath: claim-id -->[/bold] is always held to it. With no --claims, a document no claim set vouches for is [bold]recognised[/bold] instead: every formula it prints (display and inline) is compared by meaning with what the built-in claims prove or define, under the document's own names (d for d_k, Attn for Attention: the mapping is reported). A formula that means a claim's is recognised; the near form of a claim's formula with another meaning contradicts it (an error, with the claim's form in the document's names); a relation between numbers only (\\sqrt{64} = 8, 512/8 = 64, 2π·10000 ≈ 62832), or between names the document gives values to (d_{model}/h = 64 with h = 8 stated), is checked as arithmetic at its printed precision; a few shapes of sentence are read too (zero mean and a variance of $d$; 8, the square root of 64; with d_k = 64 the scores are divided by 8; wavelengths from 2π to 10000·2π), and a recognised claim's own figures are checked where the document prints them; the rest is not a finding. Nothing recognised: exit 0 with a one-line note. With --claims, a document no claim set vouches for is a usage error (exit 2), said in one line.

    [bold]Figures.[/bold] Each figure a claim records is anchored like an annotation: the printed quote, the text before it (near=) and after it (after=), its section as the position hint. Math and numbers around it count more than prose, so rewording a sentence does not lose it; a number inside a display formula is never read for a figure in running text. It is compared with the true value at the precision printed (8, ≈ 22.6, 61,400, 26万, 1/100, 1.6×10⁴, 16k, [0.49, 0.30, 0.22]): accurate, inaccurate (printed vs true), unreadable, unverified (its claim did not verify) or missing (reported on the line of the closest number).

    [bold]Statements and citations.[/bold] A prose claim's passage is located by the terms it uses within its section (anchored, or missing at the closest paragraph). Reference entries and author-year mentions are checked against the works the claims record: wrong, misspelt or misordered authors, a wrong year or title, a result credited to a work that does not contain it.

    [bold]Formulas.[/bold] Each $$…$$ display formula is read and compared with the claims' recorded formulas by meaning: covered when each of its relations means what a relation of a verified claim means (sides swapped, other index letters, terms moved across), contradicts (an error, with a point where the two differ) when one is the near form of a claim's relation with another meaning. A formula the reader cannot read (unparsed) or that no claim's relation means (not-compared) is matched by spelling: covered when a verified claim records it (a row, or a link of a chain a = b = c), unverified (its claim did not verify), changed (a near match of a recorded formula; both are shown) or uncovered (a warning). A recorded formula found neither way is missing; -f json gives each formula's "meaning".

    [bold]Examples[/bold]

    tmath check docs/companion.md                      the built-in claims

    tmath check docs/companion.md --only-problems      only what fails or warns, and the summary

    tmath check notes.md --claims my_claims/ --min-coverage 80

    tmath check notes.md -f github                     annotations for a pull request

    tmath check notes.md --fix                         a diff that corrects wrong figures

    Exit codes: 0 every figure accurate, nothing changed, missing or unverified, no citation wrong, coverage ≥ --min-coverage · 1 otherwise · 2 usage error (missing file, folder, not UTF-8 text, over 5 MB, an empty document, with --claims: no claim set vouches for the document, a bad option) · 3 a claims module failed to load · 4 an output could not be written · 5 with --fix --write, a document changed after it was checked (nothing written) · 130/143 interrupted.
    """
    from tmath.gate.document import read_document

    if write and not fix:
        raise UsageError("--write applies the corrections of --fix: use --fix --write")
    from tmath.gate.meaning import use_cache

    use_cache(not no_cache)   # formulas read before are read from the cache, unless --no-cache
    if builtin:
        err.print("note: --builtin is no longer needed (the built-in claims are used unless "
                  "--no-builtin)", highlight=False)
    documents = [read_document(p) for p in paths]
    read_as = _identities(documents) if write else {}  # --write replaces only these files
    run_seed = parse_seed(seed)
    timeout, workers, memory = parse_timeout(timeout), jobs_or_cores(jobs), \
        parse_max_memory(max_memory)
    tr = translator(lang)
    catalog = load_catalog(claims, no_builtin)
    inputs = [*map(str, paths), *catalog.input_files()]
    check_output(output, inputs)

    from tmath.gate.binding import held_to

    sets = claim_sets(catalog, claims or [], no_builtin)
    held, bindings = held_to(documents, sets)
    held = {c: p for c, p in held.items() if c in catalog.claims}
    unbound = _unbound(documents, bindings, held)
    recognising: list[str] = []
    if not claims and not no_builtin:   # no claims of its own: recognise what ours prove
        empty = {d.path for d in documents if not d.text.strip()}
        recognising = [path for path, _ in unbound if path not in empty]
        unbound = [u for u in unbound if u[0] not in recognising]
    if unbound and len(unbound) == len(documents):
        raise UsageError(unbound[0][1] if len(documents) == 1 else
                         "no claim set vouches for any of the documents: " + "; ".join(
                             why for _, why in unbound))
    relevant = [info for info in catalog if info.id in held]

    from tmath import gate
    from tmath.engine.cache import ResultCache
    from tmath.engine.session import verify

    selected = catalog.with_dependencies(list(catalog) if recognising else relevant)
    results, interrupted = collect(
        verify(catalog, selected, run_seed, workers, timeout, ResultCache(enabled=not no_cache),
               memory), len(selected), progress=format is CheckFormat.table)
    if verbose:
        print_details(results, catalog)
    if interrupted:
        err.print(f"[bold red]{interrupted.what}[/] before every claim was verified")
        if format is CheckFormat.json:  # a CI job reading stdout still gets a report
            from tmath.render.gate import interrupted_json
            from tmath.render.jsonout import dumps

            sys.stdout.write(dumps(interrupted_json(
                [str(p) for p in paths], run_seed, len(results),
                len(selected) - len(results))) + "\n")
        raise typer.Exit(interrupted.exit_code)
    by_id = {r.info.id: r for r in results}
    known = []
    if recognising:
        from tmath.gate.recognition import library

        known = library(list(catalog), by_id, list(catalog.registry()))

    def gate_report(docs):
        return gate.check(docs, relevant, by_id, min_coverage, known_ids=catalog.claims,
                          held=held, unbound=unbound, recognising=recognising, library=known,
                          every=list(catalog))

    report = gate_report(documents)
    if fix:
        documents, report = _fix(documents, report, write, output, inputs, gate_report, read_as)
        if not write:
            raise typer.Exit(ExitCode.LOAD_ERROR if catalog.errors else
                             ExitCode.OK if report.passed else ExitCode.FAILED)
    text = _render(report, format, run_seed, catalog.errors, output, tr, only_problems,
                   catalog.claims)
    write_text(output, text, inputs=inputs)
    if catalog.errors:
        raise typer.Exit(ExitCode.LOAD_ERROR)
    raise typer.Exit(ExitCode.OK if report.passed else ExitCode.FAILED)


def claim_sets(catalog, folders: list[Path], no_builtin: bool):
    """The claim sets of the catalog: the built-in claims and one per --claims folder (a
    claim belongs to the innermost folder that holds it)."""
    from tmath.engine.registry import builtin_claims_dir
    from tmath.gate.binding import ClaimSet

    roots = [(f.resolve(), str(f), True) for f in folders]
    if not no_builtin:
        roots.append((builtin_claims_dir().resolve(), "the built-in claims", False))
    members: dict[str, list] = {name: [] for _, name, _ in roots}
    for info in catalog:
        where = Path(info.path).resolve()
        inside = [(len(root.parts), name) for root, name, _ in roots
                  if root == where.parent or root in where.parents]
        if inside:
            members[max(inside)[1]].append(info)
    return [ClaimSet(name, tuple(members[name]), explicit) for _, name, explicit in roots]


def _unbound(documents, bindings, held) -> list[tuple[str, str]]:
    """(path, one-line reason) of each document no claim set vouches for and no claim pins."""
    unbound = []
    for document in documents:
        if any(document.path in paths for paths in held.values()):
            continue
        if not document.text.strip():
            unbound.append((document.path, f"{document.path} is empty" + (
                " (only blank lines)" if document.text else "") + ": there is nothing in it "
                "to check"))
            continue
        evidence = "; ".join(b.evidence for b in bindings if b.document == document.path)
        unbound.append((document.path, (
            f"no claim set vouches for {document.path} ({evidence or 'no claims loaded'} are "
            "in it); pass the claims written for it with --claims DIR, or pin one with "
            "<!-- tmath: claim-id -->")))
    return unbound


def _identities(documents) -> dict:
    """What each document's path and file were when it was read (see :mod:`tmath.cli.replace`)."""
    from tmath.cli.replace import seen

    return {d.path: seen(d.path) for d in documents}


def _fix(documents, report, write: bool, output, inputs, gate_report, read_as=None):
    """Print the diff of --fix (and with --write apply it and check again). A document is
    replaced only if it is still the file and the text that was checked."""
    from tmath.cli.replace import refuse_unwritable, replace_checked, still_as_checked
    from tmath.gate.document import read_document
    from tmath.gate.fix import apply, plan, unified_diff

    fixes, left = plan(report, documents)
    diff, changed = [], []
    for document in documents:
        mine = [f for f in fixes if f.document == document.path]
        if not mine:
            continue
        fixed = apply(document, mine)
        diff.append(unified_diff(document, fixed))
        changed.append((document, fixed, len(mine)))
    text = "".join(diff)
    for finding in left:
        what = (f"{finding.label}: cannot restate {finding.printed!r} at its printed precision"
                if finding.kind == "figure" else
                f"cannot restate the formula by claim {finding.claim}'s form")
        err.print(f"{finding.document}:{finding.line}: {what}; fix it by hand",
                  highlight=False, markup=False)
    if not write:
        sys.stdout.write(text)
        write_text(output, text, inputs=inputs)
        count = len(fixes)
        err.print(f"{count} figure(s) or formula(s) would be fixed" + ("; apply with --fix --write"
                                                        if count else ""), highlight=False)
        if count:
            raise typer.Exit(ExitCode.FAILED)
        return documents, report
    def encoded(document, text: str) -> bytes:
        return text.encode("utf-8-sig" if document.bom else "utf-8")

    for document, _, _ in changed:  # refuse before writing anything
        refuse_unwritable(document.path)
        still_as_checked(document.path, encoded(document, document.raw), read_as[document.path])
    for document, fixed, count in changed:
        replace_checked(document.path, encoded(document, document.raw), read_as[document.path],
                        encoded(document, fixed))
        err.print(f"fixed {count} figure(s) or formula(s) in {document.path}", highlight=False)
    documents = [read_document(d.path) for d in documents]
    return documents, gate_report(documents)


def _render(report, format: CheckFormat, seed: int, load_errors, to_file, tr=None,
            only_problems: bool = False, infos=None) -> str:
    """Print the report once on stdout and return its text; with an output file (``to_file``),
    print only its one-line summary. ``tr`` and ``only_problems`` shape the table only."""
    from tmath.render.gate import (report_github, report_json, report_junit,
                                   report_renderables)
    from tmath.render.jsonout import dumps

    if format is CheckFormat.table:
        renderables = report_renderables(report, tr, None if to_file else out.width,
                                         only_problems, infos)
        if not to_file:
            for r in renderables:
                out.print(r, crop=False)
            return ""
        from tmath.cli.common import plain_text

        text = plain_text(renderables)  # rendered once, into the file
        summary = plain_text(renderables[-1:]).strip().splitlines()
        out.print(f"wrote {to_file}" + (f": {summary[-1]}" if summary else ""), markup=False,
                  highlight=False, soft_wrap=True)
        return text
    if format is CheckFormat.json:
        text = dumps(report_json(report, seed, load_errors)) + "\n"
    elif format is CheckFormat.junit:
        text = report_junit(report)
    else:
        text = report_github(report)
    if not to_file:
        sys.stdout.write(text)
    else:
        out.print(f"wrote {to_file}: the document {'passes' if report.passed else 'fails'} the "
                  "gate", markup=False, highlight=False, soft_wrap=True)
    return text
