"""Where a claim is defined, as a path its reader can open.

A claims folder of the user's, or tmath's own ``claims/`` in a checkout (an editable install
runs it in place), is shown as it is: relative to the working directory when inside it, else
in full. The built-in claims of a regular install run from a copy inside the installed package
(``…/site-packages/tmath/_builtin_claims``); that copy is not the file to edit, so the claim is
shown at its place in tmath's source (``claims/s01_scaled_dot_product.py:42``), and the copy
that runs is named after it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tmath.i18n.markers import N_

if TYPE_CHECKING:
    from tmath.i18n import Translator

INSTALLED = "_builtin_claims"
"""The folder the wheel puts the built-in claims in (see pyproject.toml's force-include)."""
SOURCE_FOLDER = "claims"
"""Where they are in tmath's source."""
PHRASES = (N_("in tmath's source"), N_("installed copy"))


def shown_path(path: str | os.PathLike) -> str:
    """``path`` relative to the working directory when it is inside it, else absolute."""
    absolute = Path(os.path.abspath(path))
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)


def installed_copy(path: str | os.PathLike) -> bool:
    """Whether ``path`` is a built-in claims module in an installed package's copy."""
    from tmath.engine.folders import builtin_claims_dir

    try:
        builtin = builtin_claims_dir()
    except Exception:  # noqa: BLE001 -- no built-in claims: nothing is a copy of them
        return False
    return builtin.name == INSTALLED and Path(path).resolve().parent == builtin.resolve()


def source_location(info: Any, tr: Translator | None = None) -> str:
    """``path:line`` of a claim (a ClaimInfo), as a user can open it (see the module)."""
    line = f":{info.line}" if getattr(info, "line", None) else ""
    if not installed_copy(info.path):
        return f"{shown_path(info.path)}{line}"
    ui = tr.ui if tr is not None else (lambda text: text)
    name = Path(info.path).name
    return (f"{SOURCE_FOLDER}/{name}{line} {ui(PHRASES[0])} "
            f"({ui(PHRASES[1])}: {os.path.abspath(info.path)})")
