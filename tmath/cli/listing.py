"""``tmath list``: the registered claims."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from tmath.cli.common import load_catalog, load_listing, translator
from tmath.cli.console import err, out
from tmath.cli.options import ClaimsOption, Format, FormatOption, LangOption, NoBuiltinOption
from tmath.exitcodes import ExitCode


def list_claims(
    section: Annotated[Optional[str], typer.Option(
        "--section", "-s", help="Only this section ('3' includes 3.1, 3.2, ...).")] = None,
    tag: Annotated[Optional[str], typer.Option("--tag", "-t", help="Only claims with this tag.")] = None,
    format: FormatOption = Format.table,
    claims: ClaimsOption = None,
    no_builtin: NoBuiltinOption = False,
    lang: LangOption = None,
) -> None:
    """List the registered claims: id, section, title, tags, kind of proof."""
    from tmath.render.tables import claims_table

    tr = translator(lang)
    if format is Format.table and tr.lang == "en":  # the stored rows are all the table needs
        found = load_listing(claims, no_builtin)
        listed, errors = found.rows, found.load_errors
    else:  # JSON gives each claim's statement and sources; a translation reads its catalog
        catalog = load_catalog(claims, no_builtin)
        listed, errors = catalog, catalog.errors
    specs = [s for s in listed
             if (section is None or s.section == section or s.top_section == section)
             and (tag is None or tag in s.tags)]
    if format is Format.json:
        from tmath.render.jsonout import claim_listing, dumps

        sys.stdout.write(dumps(claim_listing(specs)) + "\n")
    elif not specs:
        err.print("no claims match" + (f" section {section}" if section else "")
                  + (f" tag {tag}" if tag else "") + "; `tmath list` shows them all")
    else:
        out.print(claims_table(specs, tr, out.width))
    raise typer.Exit(ExitCode.LOAD_ERROR if errors else ExitCode.OK)
