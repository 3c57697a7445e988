"""``tmath explain``: one claim's statement, derivation, evidence, figures and foils."""

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
    claim_id: Annotated[str, typer.Argument(metavar="ID", help="The claim to explain.",
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
    """Explain one claim: statement, premises, derivation steps, evidence, figures, foils.

    Runs the claim's proof and randomized check, then both checks against every foil, and shows each step with its check mark, the notes' printed figures against the true values, why each foil is rejected, and anything the claim printed.
    """
    run_seed = parse_seed(seed)
    timeout, memory = parse_timeout(timeout), parse_max_memory(max_memory)
    tr = translator(lang)
    registry = load_catalog(claims, no_builtin)
    inputs = registry.input_files()
    check_output(plot, inputs)
    info = registry.get(claim_id)
    if plot is not None and not info.has_plot:
        with_plots = [i.id for i in registry if i.has_plot]
        raise UsageError(f"claim {info.id} has no figure to plot"
                         + (f"; claims with one: {', '.join(with_plots)}" if with_plots else ""))
    from tmath.engine.session import audit as run_audit
    from tmath.render.explain import explain_page

    [audit] = run_audit(registry, [info], run_seed, 1, timeout, result_cache(no_cache), memory)
    sketch = []
    if info.has_plot:
        from tmath.render.plots import render_png, sketch_lines

        picture = _picture(registry, info, timeout, memory, no_cache)
        if picture is not None:
            sketch = sketch_lines(picture)
            if plot is not None:
                write_bytes(plot, render_png(picture), inputs=inputs)
                err.print(f"wrote {plot}", highlight=False, markup=False)
    out.print(explain_page(audit, registry.dependants(info.id), tr, latex, sketch), crop=False)
    if audit.output:
        out.print("[bold]what the claim printed[/]")
        out.print(audit.output.rstrip("\n"), markup=False, highlight=False)
    if verbose:
        print_tracebacks([audit])
    if registry.errors:
        raise typer.Exit(ExitCode.LOAD_ERROR)
    if plot is not None and not sketch:
        raise typer.Exit(ExitCode.FAILED)
    from tmath.engine.results import PASSING

    raise typer.Exit(ExitCode.OK if audit.statement.verdict in PASSING else ExitCode.FAILED)


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
