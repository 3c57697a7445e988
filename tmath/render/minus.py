"""The minus sign in text: SymPy-free, so a page rendered from cached results never imports
SymPy (the expressions were typeset by :mod:`tmath.render.linear` when they were computed)."""

from __future__ import annotations

import re

MINUS = "−"
"""U+2212, the minus sign (the ASCII hyphen is never printed as a minus)."""
_MINUS_IN_TEXT = re.compile(r"(?<![A-Za-z0-9_)\]}'-])-(?=[0-9.∞(A-Za-zα-ωΑ-Ω√])|(?<= )-(?= )")


def minus_signs_in_text(text: str) -> str:
    """A message that quotes numbers and formulas (``numerically -0.5 ≠ 1 at x=-2``) with each
    hyphen used as a minus sign turned into −: after a space, ``=``, ``(`` or ``,`` and before a
    number or a name, or alone between spaces. Hyphenated words (one-hot), exponents of
    scientific notation (1e-06) and options (--seed) are left alone."""
    return _MINUS_IN_TEXT.sub(MINUS, text)
