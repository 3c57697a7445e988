"""``tmath explain``: one claim's statement, derivation, evidence, figures and foils."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from tmath.cli.common import load_catalog, parse_seed, result_cache, translator, write_bytes
from tmath.cli.console import err, out
from tmath.cli.options import (ClaimsOption, LangOption, NoCacheOption, SeedOption, TimeoutOption,
                               complete_ids)
from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.engine.results import PASSING
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode


def explain(
    claim_id: Annotated[str, typer.Argument(metavar="ID", help="The claim to explain.",
                                            autocompletion=complete_ids)],
    claims: ClaimsOption = None,
    seed: SeedOption = str(DEFAULT_SEED),
    timeout: TimeoutOption = DEFAULT_TIMEOUT,
    no_cache: NoCacheOption = False,
    lang: LangOption = None,
    latex: Annotated[bool, typer.Option("--latex", help="Print the statement as LaTeX.")] = False,
    plot: Annotated[Optional[Path], typer.Option(
        "--plot", metavar="FILE.png",
        help="Write the claim's figure as a PNG (needs: pip install 'tmath[plot]').")] = None,
) -> None:
    """Explain one claim: statement, premises, derivation steps, evidence, figures, foils.

    Runs the claim's proof and randomized check, then both checks against every foil, and shows each step with its check mark, the notes' printed figures against the true values, and why each foil is rejected.
    """
    run_seed = parse_seed(seed)
    tr = translator(lang)
    registry = load_catalog(claims)
    info = registry.get(claim_id)
    if plot is not None and not info.has_plot:
        with_plots = [i.id for i in registry if i.has_plot]
        raise UsageError(f"claim {info.id} has no figure to plot"
                         + (f"; claims with one: {', '.join(with_plots)}" if with_plots else ""))
    from tmath.engine.session import audit as run_audit
    from tmath.render.explain import explain_page

    [audit] = run_audit(registry, [info], run_seed, 1, timeout, result_cache(no_cache))
    sketch = []
    if info.has_plot:
        from tmath.engine.registry import load_spec
        from tmath.render.plots import render_png, sketch_lines

        cache = result_cache(no_cache)
        key = cache.key("plot", info.id, registry.files_of(info.id), 0)
        picture = cache.get(key)
        if picture is None:
            picture = load_spec(info).implementation.plot()
            cache.put(key, picture)
        sketch = sketch_lines(picture)
        if plot is not None:
            write_bytes(plot, render_png(picture))
            err.print(f"wrote {plot}")
    out.print(explain_page(audit, registry.dependants(info.id), tr, latex, sketch))
    raise typer.Exit(ExitCode.OK if audit.statement.verdict in PASSING else ExitCode.FAILED)
