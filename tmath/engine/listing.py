"""The rows ``tmath list`` prints, stored beside the metadata index.

A table of the claims needs a few short fields of each: id, section, title, tags, kind and
whether it has a proof. The index keeps much more for the other commands (each statement in
four typesettings, sources, passages, figures: 450 kB for the built-in claims), and reading
it was most of what ``tmath list`` added to its framework. So the rows of a set of folders
are stored on their own, under a key over those folders' index keys (their files by content,
the engine, the libraries): one small entry to read. A missing or mismatched entry is a miss
like any other; the rows then come from the catalog (read, or rebuilt) and are stored again.
Load errors are part of a listing, so a broken claims module is reported alike either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from tmath.engine import cache, folders
from tmath.errors import LoadError


@dataclass(frozen=True)
class Row:
    """One claim as ``list`` shows it (the fields of :class:`~tmath.engine.info.ClaimInfo`
    that the table reads, under the same names)."""

    id: str
    section: str
    title: str
    tags: tuple[str, ...]
    kind: str
    no_proof: str | None
    path: str

    @property
    def top_section(self) -> str:
        return self.section.split(".")[0]


@dataclass(frozen=True)
class Listing:
    """The rows of a set of claims folders, in registry order, and their load errors."""

    rows: tuple[Row, ...]
    errors: tuple[tuple[str, int | None, str], ...]
    """(path, line, message) of each load error."""

    @property
    def load_errors(self) -> list[LoadError]:
        return [LoadError(path, line, message) for path, line, message in self.errors]


def listing(extra_dirs: Sequence[Path] = (), builtin: bool = True) -> Listing:
    """The rows of the built-in claims (unless ``builtin`` is False) and of ``extra_dirs``."""
    key = _key(extra_dirs, builtin)
    store = cache.Store("listing")
    stored = store.get(key, Listing)
    if stored is not None:
        return stored
    from tmath.engine.registry import catalog

    claims = catalog(extra_dirs, builtin=builtin)
    made = Listing(tuple(Row(c.id, c.section, c.title, c.tags, c.kind, c.no_proof, c.path)
                         for c in claims),
                   tuple((e.path, e.line, e.message) for e in claims.errors))
    if _key(extra_dirs, builtin) == key:  # no file changed while the catalog was read
        store.put(key, made, Listing)
    return made


def _key(extra_dirs: Sequence[Path], builtin: bool) -> cache.Key:
    keys = [folders.index_key(folder) for folder in folders.claim_folders(extra_dirs, builtin)]
    return cache.make_key("listing", "listing", [path for k in keys for path, _ in k.files],
                          None, [k.digest for k in keys])
