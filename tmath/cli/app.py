"""The ``tmath`` application: one typer app, one command module per command.

Each command is a thin function over the engine; :func:`~tmath.cli.boundary.boundary` is the one
place where errors become exit codes. Only light modules are imported here, so ``--help`` and
``list`` never import NumPy or SymPy.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Sequence

import typer

from tmath.exitcodes import ExitCode

from tmath.cli.boundary import boundary

HELP = """Verify the mathematics of technical documents, claim by claim.

Each claim carries a SymPy proof whose every step is checked, a randomized check that simulates the premises and tests the statement statistically, and foils (nearest false statements) that both checks must reject.

[bold]Examples[/bold]

  tmath list -s 1              claims of section 1
  tmath verify all             prove and check every claim
  tmath verify ID --seed 7     one claim, with another seed
  tmath explain ID [ID ...]    a page per claim: derivation, evidence, foils
  tmath audit all              show that every check can fail
  tmath check notes.md         gate a document: figures, formulas
  tmath new --from notes.md:42  start a claim for the formula at a line

Exit codes: 0 all verified · 1 a claim failed or a check is weak · 2 usage error (an output that would overwrite an input or a read-only file included) · 3 a claims module failed to load (or an internal error) · 4 the system refused (an output could not be written: read-only, permission denied, disk full) · 130 interrupted (Ctrl-C) · 141 stdout was closed · 143 terminated (SIGTERM).

Claim folders are code: --claims DIR runs DIR's modules (like a pytest conftest.py). Documents are only read, never run.
"""

COMMANDS = {"list": ("listing", "list_claims"), "verify": ("verify", "verify"),
            "explain": ("explain", "explain"), "audit": ("audit", "audit"),
            "check": ("check", "check"), "report": ("report", "report"), "new": ("new", "new")}
"""Command name → (module of :mod:`tmath.cli`, function), in the order ``--help`` lists them;
``cache`` is a group of its own (:mod:`tmath.cli.cache`)."""


def _application(names: Sequence[str]) -> typer.Typer:
    """The typer app with the commands ``names`` (their modules imported here)."""
    application = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode="rich",
                              context_settings={"help_option_names": ["-h", "--help"]})
    if len(names) == 1:  # a group still, not the bare command: `tmath list` keeps its name
        application.callback()(lambda: None)
    for name in names:
        if name == "cache":
            from tmath.cli.cache import cache_app

            application.add_typer(cache_app, name="cache")
            continue
        module, function = COMMANDS[name]
        command = getattr(importlib.import_module(f"tmath.cli.{module}"), function)
        application.command(name)(boundary(command))
    return application


app = _application([*COMMANDS, "cache"])


def main() -> None:
    """Console-script entry point. When the first argument names a command, only that
    command is built: typer turns every option of every command into a click parameter
    before it runs one (about 10 ms for tmath's 68), and ``list`` should cost little more
    than the table it prints. Everything else (``--help``, a misspelt command, shell
    completion) goes to the whole app."""
    from tmath.cli.boundary import STDOUT_CLOSED, stdout_usable

    if not stdout_usable():  # --help and usage errors too: nothing printed is never exit 0
        sys.stderr.write(f"error: {STDOUT_CLOSED}\n")
        raise SystemExit(ExitCode.ENVIRONMENT)
    arguments = sys.argv[1:]
    invoked = arguments[0] if arguments else ""
    if (invoked in COMMANDS or invoked == "cache") and \
            not any(k.startswith("_TMATH_COMPLETE") for k in os.environ):
        _application([invoked])(prog_name="tmath")
    else:
        app(prog_name="tmath")
