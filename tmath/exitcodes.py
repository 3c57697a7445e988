"""Process exit codes of the ``tmath`` command, defined once and mapped in
:mod:`tmath.cli.boundary`."""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """What a ``tmath`` process tells its caller."""

    OK = 0
    """Every selected claim verified (``verify``), every foil rejected (``audit``)."""
    FAILED = 1
    """A claim failed or errored, or ``audit`` found a check that accepts a foil."""
    USAGE = 2
    """The command line was wrong: unknown claim id, bad option value, missing path, an
    output path that would destroy an input or is not a regular writable file."""
    LOAD_ERROR = 3
    """A claims module could not be loaded (the others still ran), or tmath itself broke."""
    ENVIRONMENT = 4
    """The system refused: an output could not be written (read-only folder or file system,
    permission denied, disk full), or the machine ran out of memory."""
    CHANGED = 5
    """``check --fix --write``: a document changed (edited, replaced, moved, turned into a
    symbolic link) between the check and the write, or another process held its lock; nothing
    was written. Check it again."""
    INTERRUPTED = 130
    """The run was interrupted (Ctrl-C, SIGINT); the results so far were shown."""
    BROKEN_PIPE = 141
    """The reader of stdout went away (``tmath verify -f json | head -1``), as a shell
    reports a process ended by SIGPIPE; nothing more was printed."""
    TERMINATED = 143
    """The run was stopped by SIGTERM; the results so far were shown."""
