"""Other languages' words for a passage's terms, so a claim written in English finds its
statement in a document written in another language.

A glossary is a JSON object from an English term (as a :class:`~tmath.engine.model.Passage`
writes it, ``*`` for a prefix) to its renderings in one language::

    {"gradient": ["梯度"], "extrapolat*": ["外推"]}

tmath ships ``tmath/locale/<lang>/glossary.json`` for the vocabulary of its subject; a claims
folder adds its own in ``<folder>/locale/<lang>/glossary.json``. Every glossary found is used:
the gate does not guess a document's language.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from tmath.errors import UsageError

PACKAGE_LOCALE = Path(__file__).resolve().parent.parent / "locale"


class GlossaryError(UsageError):
    """A glossary file that is not an object of term → list of strings."""


def _read(path: Path) -> dict[str, tuple[str, ...]]:
    try:
        return _read_version(path, path.stat().st_mtime_ns)
    except OSError as exc:
        raise GlossaryError(f"{path}: cannot read the glossary ({exc.strerror})") from None


@lru_cache(maxsize=64)
def _read_version(path: Path, _mtime: int) -> dict[str, tuple[str, ...]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GlossaryError(f"{path}: not a readable JSON glossary ({exc}); fix or delete it")
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(w, str) for w in v)
            for k, v in data.items()):
        raise GlossaryError(f'{path}: a glossary maps each term to a list of strings, '
                            f'e.g. {{"gradient": ["梯度"]}}')
    return {k.casefold(): tuple(v) for k, v in data.items()}


def _glossaries(folder: Path | None) -> tuple[dict[str, tuple[str, ...]], ...]:
    """Every glossary of tmath and of the claims folder, read again when a file changes."""
    roots = [PACKAGE_LOCALE] + ([folder / "locale"] if folder is not None else [])
    return tuple(_read(path) for root in roots if root.is_dir()
                 for path in sorted(root.glob("*/glossary.json")))


def expand(alternatives: tuple[str, ...], folder: Path | None = None) -> tuple[str, ...]:
    """``alternatives`` followed by every glossary's renderings of them (no duplicates)."""
    out = list(alternatives)
    for glossary in _glossaries(folder):
        for term in alternatives:
            out.extend(glossary.get(term.casefold(), ()))
    return tuple(dict.fromkeys(out))
