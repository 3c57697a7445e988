"""A LaTeX reader: display and inline math → SymPy, against a declared notation.

    >>> from tmath.latex import read
    >>> read(r"\\text{Var}(q^T k) = d_k").relations[0].rhs
    d_k

It never evaluates document text and prefers no reading to a misreading: a :class:`Reading` is
``parsed`` (relations, chains and aligned rows split) or ``unparsed`` with the reason.
Modules: ``tokens`` (tokenizer), ``parser`` (one expression), ``statements`` (a formula →
relations), ``notation`` (what names mean), ``operators`` (named operators), ``result``.
"""

import importlib
from typing import Any

_HOMES = {"read": "statements", "Reading": "result", "Relation": "result",
          "Notation": "notation", "DEFAULT": "notation", "BARE": "notation"}
__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    """The reader's names are loaded when first used: importing a light module of the
    package (``tmath.latex.split``) does not load SymPy."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value
