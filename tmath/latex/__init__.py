"""A LaTeX reader: display and inline math → SymPy, against a declared notation.

    >>> from tmath.latex import read
    >>> read(r"\\text{Var}(q^T k) = d_k").relations[0].rhs
    d_k

It never evaluates document text and prefers no reading to a misreading: a :class:`Reading` is
``parsed`` (relations, chains and aligned rows split) or ``unparsed`` with the reason.
Modules: ``tokens`` (tokenizer), ``parser`` (one expression), ``statements`` (a formula →
relations), ``notation`` (what names mean), ``operators`` (named operators), ``result``.
"""

from tmath.latex.notation import BARE, DEFAULT, Notation
from tmath.latex.result import Reading, Relation
from tmath.latex.statements import read

__all__ = ["read", "Reading", "Relation", "Notation", "DEFAULT", "BARE"]
