"""arXiv identifiers: reading them in text, and their form.

Two forms exist (arXiv's own "Understanding the arXiv identifier"):

* new style, since April 2007: ``YYMM.NNNN`` (up to 2014) or ``YYMM.NNNNN`` (from 2015),
  a valid month, an optional version ``vN``: ``1706.03762``, ``2406.09405v2``;
* old style, 1991 to March 2007: ``archive/YYMMNNN`` or ``archive.XX/YYMMNNN``:
  ``hep-th/9901001``, ``math.GT/0309136``.

Anything else written where an id belongs (``arXiv:1713.03762``, ``arXiv:1706.3762``) is
malformed. The reading pattern is bounded everywhere, so it runs in time linear in the text.
"""

from __future__ import annotations

import re

ID_CHARS = 40
"""Characters of an id read at most."""

IN_TEXT = re.compile(r"arXiv(:[ \t]{0,2}|[ \t]{1,2}|\.org/(?:abs|pdf)/)([A-Za-z0-9][\w.\-/]{0,%d})"
                     % (ID_CHARS - 1), re.IGNORECASE)
"""``arXiv:ID``, ``arXiv ID`` or ``arxiv.org/abs/ID``: group 1 the separator, group 2 what
stands where the id belongs."""

_NEW = re.compile(r"(\d\d)(\d\d)\.(\d{4,5})(?:v[1-9]\d{0,3})?")
_OLD = re.compile(r"[a-z]{1,12}(?:-[a-z]{1,12})?(?:\.[A-Z]{2})?/(\d\d)(\d\d)(\d{3})"
                  r"(?:v[1-9]\d{0,3})?")


def written(separator: str, token: str) -> str | None:
    """The id a match of :data:`IN_TEXT` stands for (trailing punctuation dropped), or None
    when the words after "arXiv" are no attempt at an id (``arXiv preprint``, ``arXiv 2017``)."""
    token = token.rstrip(".-/")
    if not any(c.isdigit() for c in token):
        return None
    if separator.strip() or "." in token or "/" in token:
        return token
    return None


def problem(ident: str) -> str | None:
    """Why ``ident`` is not a well-formed arXiv id, or None when it is."""
    new = _NEW.fullmatch(ident)
    if new:
        yy, mm, number = int(new.group(1)), int(new.group(2)), new.group(3)
        if not 1 <= mm <= 12:
            return f"month {new.group(2)} does not exist"
        if (yy, mm) < (7, 4):
            return "new-style ids begin in April 2007 (0704.NNNN)"
        digits = 4 if yy <= 14 else 5
        if len(number) != digits:
            return (f"an id of 20{yy:02d} has {digits} digits after the dot "
                    f"({new.group(1)}{new.group(2)}.{'N' * digits})")
        return None
    old = _OLD.fullmatch(ident)
    if old:
        yy, mm = int(old.group(1)), int(old.group(2))
        if not 1 <= mm <= 12:
            return f"month {old.group(2)} does not exist"
        if not (yy >= 91 or (yy, mm) <= (7, 3)):
            return "old-style ids (archive/YYMMNNN) run from 1991 to March 2007"
        return None
    return "it is neither YYMM.NNNNN (with an optional vN) nor archive/YYMMNNN"


def key(ident: str | None) -> str | None:
    """The id without its version, for comparing (``1706.03762v5`` → ``1706.03762``)."""
    return re.sub(r"v\d+$", "", ident.split()[0]) if ident and ident.split() else None
