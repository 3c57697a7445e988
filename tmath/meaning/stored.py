"""Readings of formulas kept on disk, so a warm ``tmath check`` compares formulas by meaning
without reading them again or importing SymPy.

An entry is addressed by the formula's text and the code that reads and evaluates it (the
:func:`~tmath.engine.cache.engine_hash` covers ``latex/`` and ``meaning/``); anything wrong
with an entry reads as a miss (:class:`~tmath.engine.cache.Store`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tmath.engine.cache import Store, make_key
from tmath.meaning.compare import Form

Pair = tuple[float, float]


@dataclass(frozen=True)
class StoredForm:
    op: str
    left: tuple[Pair | None, ...]
    right: tuple[Pair | None, ...]
    gap: tuple[Pair | None, ...]
    lhs_kind: str
    rhs_kind: str
    names: tuple[str, ...]
    words: bool


@dataclass(frozen=True)
class StoredRelation:
    shown: str
    form: StoredForm | None


@dataclass(frozen=True)
class StoredReading:
    """``status`` parsed (with ``relations``) or unparsed (with ``reason``)."""

    status: str
    reason: str
    relations: tuple[StoredRelation, ...]


def _pairs(found: tuple) -> tuple[Pair | None, ...]:
    return tuple(None if z is None else (z.real, z.imag) for z in found)


def _numbers(found: tuple) -> tuple[complex | None, ...]:
    return tuple(None if p is None else complex(*p) for p in found)


def store(status: str, found: Any) -> StoredReading:
    """What :func:`tmath.gate.meaning.forms_of` returns, as a storable record."""
    if status != "parsed":
        return StoredReading(status, str(found), ())
    return StoredReading(status, "", tuple(
        StoredRelation(shown, None if f is None else StoredForm(
            f.op, _pairs(f.left), _pairs(f.right), _pairs(f.gap), f.lhs_kind, f.rhs_kind,
            f.names, f.words)) for shown, f in found))


def restore(record: StoredReading) -> tuple[str, Any]:
    if record.status != "parsed":
        return record.status, record.reason
    return "parsed", tuple(
        (r.shown, None if r.form is None else Form(
            r.form.op, _numbers(r.form.left), _numbers(r.form.right), _numbers(r.form.gap),
            r.form.lhs_kind, r.form.rhs_kind, r.form.names, r.form.words))
        for r in record.relations)


class ReadingStore(Store):
    """The readings of formulas, one entry per formula text."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__("formulas", enabled)

    def key(self, latex: str):
        return make_key("reading", "", (), None, latex)

    def load(self, latex: str) -> tuple[str, Any] | None:
        record = self.get(self.key(latex), StoredReading)
        return restore(record) if record is not None else None

    def save(self, latex: str, reading: tuple[str, Any]) -> None:
        self.put(self.key(latex), store(*reading), StoredReading)
