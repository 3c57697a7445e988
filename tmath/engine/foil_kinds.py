"""What each automatic near-miss changes, SymPy-free: a page rendered from cached results
reads a near-miss's kind without importing what made it (:mod:`tmath.engine.foils`)."""

from __future__ import annotations

from tmath.i18n.markers import N_

KINDS = (N_("5 % too large"), N_("twice the value"), N_("half the value"), N_("sign flipped"),
         N_("one more"), N_("one less"), N_("1 instead of 0"), N_("its square root"),
         N_("squared"), N_("exponent one higher"), N_("exponent one lower"),
         N_("an index shifted by one"), N_("two arguments swapped"), N_("transposed"),
         N_("two rows swapped"))
"""What each near-miss changes; its text ends with ", <kind>" (see :func:`statement_and_kind`)."""


def statement_and_kind(text: str) -> tuple[str, str]:
    """A near-miss's text split into the changed statement and its kind ("" when unknown)."""
    for kind in sorted(KINDS, key=len, reverse=True):
        if text.endswith(f", {kind}"):
            return text[:-len(kind) - 2], kind
    return text, ""
