"""The two consoles every command writes to: results on stdout, messages on stderr.

A closed stdout (``tmath list | head -1``) raises BrokenPipeError up to the CLI boundary, which
ends quietly with exit 141, instead of rich's own ``SystemExit(1)``. The width follows the
terminal (or ``COLUMNS``) at each print, as the stream does.
"""

from __future__ import annotations

import errno

from rich.console import Console


class _Console(Console):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        if "width" not in kwargs:
            self._width = None  # read COLUMNS (or the terminal) at each print, not once at import

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "the reader of the output went away")


out = _Console()
err = _Console(stderr=True, soft_wrap=True)  # paths and messages never broken mid-line
