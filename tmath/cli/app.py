"""The ``tmath`` application: one typer app, one command module per command.

Each command is a thin function over the engine; :func:`~tmath.cli.boundary.boundary` is the one
place where errors become exit codes. Only light modules are imported here, so ``--help`` and
``list`` never import NumPy or SymPy.
"""

from __future__ import annotations

import typer

from tmath.cli import audit, check, explain, listing, new, report, verify
from tmath.cli.boundary import boundary
from tmath.cli.cache import cache_app

HELP = """Verify the mathematics of technical documents, claim by claim.

Each claim carries a SymPy proof whose every step is checked, a randomized check that simulates the premises and tests the statement statistically, and foils (nearest false statements) that both checks must reject.

[bold]Examples[/bold]

  tmath list -s 1              claims of section 1
  tmath verify all             prove and check every claim
  tmath verify ID --seed 7     one claim, with another seed
  tmath explain ID             its derivation, evidence and foils
  tmath audit all              show that every check can fail
  tmath check notes.md         gate a document: figures, formulas
  tmath new --from notes.md:42  start a claim for the formula at a line

Exit codes: 0 all verified · 1 a claim failed or a check is weak · 2 usage error (an output that would overwrite an input or a read-only file included) · 3 a claims module failed to load (or an internal error) · 4 the system refused (an output could not be written: read-only, permission denied, disk full) · 130 interrupted (Ctrl-C) · 141 stdout was closed · 143 terminated (SIGTERM).

Claim folders are code: --claims DIR runs DIR's modules (like a pytest conftest.py). Documents are only read, never run.
"""

app = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode="rich",
                  context_settings={"help_option_names": ["-h", "--help"]})

app.command("list")(boundary(listing.list_claims))
app.command("verify")(boundary(verify.verify))
app.command("explain")(boundary(explain.explain))
app.command("audit")(boundary(audit.audit))
app.command("check")(boundary(check.check))
app.command("report")(boundary(report.report))
app.command("new")(boundary(new.new))
app.add_typer(cache_app, name="cache")


def main() -> None:
    """Console-script entry point."""
    app(prog_name="tmath")
