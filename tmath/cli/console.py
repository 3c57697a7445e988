"""The two consoles every command writes to: results on stdout, messages on stderr."""

from __future__ import annotations

from rich.console import Console

out = Console()
err = Console(stderr=True, soft_wrap=True)  # paths and messages never broken mid-line
