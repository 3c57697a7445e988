"""How the lecture notes print what the built-in claims vouch for (document data, from
notes.json): a figure's printed text and anchor by its label, a formula as the notes spell it.

``Figure(label, compute=..., **printed(label))`` takes the notes' printed text and anchor; the
claim modules therefore hold no Chinese, and correcting the data is an edit of notes.json.
"""

from __future__ import annotations

import json
from pathlib import Path

_DATA = json.loads((Path(__file__).with_name("notes.json")).read_text(encoding="utf-8"))


def printed(label: str) -> dict[str, str]:
    """``printed=`` and ``near=`` of the figure with this label, as the notes print it."""
    return dict(_DATA["figures"][label])


def formula(name: str) -> str:
    """A display formula as the notes spell it (LaTeX)."""
    return _DATA["formulas"][name]


def said(name: str, meaning: object) -> dict[str, object]:
    """A condition the notes state in words inside a formula (and its English spelling), each
    LaTeX form mapped to ``meaning``: a ``notation=`` of the claim that gives it a meaning."""
    return {spelling: meaning for spelling in _DATA["conditions"][name]}
