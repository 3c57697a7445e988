"""``tmath explain``: a page per claim: statement, derivation, evidence, figures and foils."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tmath.cli.common import (check_output, load_catalog, parse_max_memory, parse_seed,
                              parse_timeout, print_tracebacks, result_cache, translator,
                              write_bytes)
from tmath.cli.console import err, out
from tmath.cli.options import (DEFAULT_MAX_MEMORY_MB, ClaimsOption, LangOption, MaxMemoryOption,
                               NoBuiltinOption, NoCacheOption, SeedOption, TimeoutOption,
                               VerboseOption, complete_ids)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode


def explain(
    claim_ids: Annotated[list[str], typer.Argument(
        metavar="ID", help="The claims to explain (one page each); all: every claim.",
        autocompletion=complete_ids)],
    claims: ClaimsOption = None,
    no_builtin: NoBuiltinOption = False,
    seed: SeedOption = str(DEFAULT_SEED),
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    max_memory: MaxMemoryOption = DEFAULT_MAX_MEMORY_MB,
    no_cache: NoCacheOption = False,
    lang: LangOption = None,
    latex: Annotated[bool, typer.Option("--latex", help="Print the statement as LaTeX.")] = False,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", metavar="FILE.png",
        help="Write the claim's figure as a PNG (needs: pip install 'tmath\\[plot]'). An input, "
             "a read-only file, a folder, a device or a FIFO is refused.")] = None,
    verbose: VerboseOption = False,
) -> None:
    """Explain claims, one page each: statement, premises, derivation, evidence, figures, foils.

    Runs each claim's proof and randomized check, then both checks against every foil, and shows each step on one line of mathematics where it fits, the engine's vetted rules apart from the premises, the notes' printed figures against the true values, the claim's own foils in full and its automatic near-misses in one table. The exit code is the worst of the claims'.
    """
    run_seed = parse_seed(seed)
    timeout, memory = parse_timeout(timeout), parse_max_memory(max_memory)
    tr = translator(lang)
    registry = load_catalog(claims, no_builtin)
    inputs = registry.input_files()
    check_output(plot, inputs)
    infos = registry.select(["all"]) if "all" in claim_ids else \
        [registry.get(claim_id) for claim_id in dict.fromkeys(claim_ids)]
    if plot is not None and len(infos) > 1:
        raise UsageError("--plot writes one figure: give one claim id with it")
    if plot is not None and not infos[0].has_plot:
        with_plots = [i.id for i in registry if i.has_plot]
        raise UsageError(f"claim {infos[0].id} has no figure to plot"
                         + (f"; claims with one: {', '.join(with_plots)}" if with_plots else ""))
    from tmath.engine.session import audit as run_audit

    audits = run_audit(registry, infos, run_seed, 1, timeout, result_cache(no_cache), memory)
    codes = [ExitCode.LOAD_ERROR] if registry.errors else []
    for number, audit in enumerate(audits):
        if number:
            out.print()
        codes.append(_page(registry, audit, tr, latex, plot, timeout, memory, no_cache, inputs))
        if verbose:
            print_tracebacks([audit])
    raise typer.Exit(max(codes, default=ExitCode.OK))


def _page(registry, audit, tr, latex: bool, plot: Optional[Path], timeout: float, memory,
          no_cache: bool, inputs) -> ExitCode:
    """Print one claim's page (and write its figure with ``--plot``); its exit code."""
    from tmath.engine.results import PASSING
    from tmath.render.explain import explain_page

    info = audit.info
    sketch = []
    if info.has_plot:
        from tmath.render.plots import render_png, sketch_lines

        picture = _picture(registry, info, timeout, memory, no_cache)
        if picture is not None:
            sketch = sketch_lines(picture, tr=tr, info=info)
            if plot is not None:
                write_bytes(plot, render_png(picture), inputs=inputs)
                err.print(f"wrote {plot}", highlight=False, markup=False)
    out.print(explain_page(audit, registry.dependants(info.id), tr, latex, sketch), crop=False)
    if audit.output:
        out.print(f"[bold]{tr.ui('what the claim printed')}[/]")
        out.print(audit.output.rstrip("\n"), markup=False, highlight=False)
    if plot is not None and not sketch:
        return ExitCode.FAILED
    return ExitCode.OK if audit.statement.verdict in PASSING else ExitCode.FAILED


def _picture(registry, info, timeout: float, memory, no_cache: bool):
    """The claim's Plot: from the cache, or drawn in a worker (isolated like a claim's run)."""
    from tmath.engine.parallel import run_isolated
    from tmath.engine.registry import load_spec

    cache = result_cache(no_cache)
    key = cache.key("plot", info.id, registry.files_of(info.id), 0)
    picture = cache.get(key)
    if picture is None:
        [outcome] = run_isolated([lambda: load_spec(info).implementation.plot()], 1, timeout,
                                 memory)
        if outcome.kind != "ok":
            err.print(f"the figure of {info.id} could not be drawn: {outcome.message}",
                      highlight=False, markup=False)
            return None
        picture = outcome.value
        from tmath.engine.plots import Plot

        if not isinstance(picture, Plot):
            err.print(f"the figure of {info.id} could not be drawn: plot() returned "
                      f"{type(picture).__name__}, not a tmath.plots.Plot", highlight=False,
                      markup=False)
            return None
        cache.put(key, picture)
    return picture
