"""Process exit codes of the ``tmath`` command, defined once and mapped in ``cli.py``."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """What a ``tmath`` process tells its caller."""

    OK = 0
    """Every selected claim verified (``verify``), every foil rejected (``audit``)."""
    FAILED = 1
    """A claim failed or errored, or ``audit`` found a check that accepts a foil."""
    USAGE = 2
    """The command line was wrong: unknown claim id, bad option value, missing path."""
    LOAD_ERROR = 3
    """A claims module could not be loaded (the others still ran), or tmath itself broke."""
    INTERRUPTED = 130
    """The run was interrupted (Ctrl-C)."""
