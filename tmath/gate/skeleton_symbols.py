"""The symbols a ``tmath new`` skeleton declares for its formula, and what kind each is.

Names come from the skeleton's tokenizer (:func:`tmath.gate.skeleton.symbol_names`), in the
order the formula prints them. When tmath's reader parses the formula, its reading says more,
and the declarations follow it: ``x_i`` read as the entry ``x[i]`` declares the
``IndexedBase`` x and the index i; an index, or the variable or a bound of a sum or product,
is a whole number (``integer=True``); ``σ(x)`` applied as a function declares a
``sp.Function``; a name the reading does not have (the ``d`` of ``dx``, a ``\\bar``'s letter
where the reader names ``xbar``) is not declared, and one it has that the tokenizer missed is.
Nothing is evaluated: the reading is a SymPy tree, and only its names and shape are used.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import sympy as sp
from sympy.core.function import AppliedUndef

IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
MAX_SYMBOLS = 40


@dataclass(frozen=True)
class Declaration:
    """One name of the formula: ``printed`` is the SymPy name, ``kind`` is ``symbol``,
    ``indexed`` (an IndexedBase) or ``function``; ``integer`` for an index or a bound."""

    printed: str
    kind: str = "symbol"
    integer: bool = False


def declarations(names: Sequence[str], trees: Iterable[Any] | None) -> list[Declaration]:
    """What to declare for the tokenizer's ``names``; ``trees`` are the SymPy sides of the
    reader's relations, or None when the formula was not read (then every name is a plain
    symbol)."""
    plain = [_unkeyword(n) for n in names]
    if trees is None:
        return [Declaration(n) for n in plain]
    shape = _Shape(list(trees))
    ordered: dict[str, None] = {}
    for name in plain:
        base, _, sub = name.partition("_")
        if name in shape.names:
            ordered[name] = None
        elif base in shape.bases:
            ordered[base] = None
            ordered.update(dict.fromkeys(c for c in sub if c in shape.names))
    ordered.update(dict.fromkeys(sorted(shape.names)))
    return [Declaration(n, shape.kind(n), n in shape.integers)
            for n in list(ordered)[:MAX_SYMBOLS]]


class _Shape:
    """The names a reading uses, and which are bases, functions and whole numbers."""

    def __init__(self, trees: list[Any]) -> None:
        atoms = set().union(*(t.atoms(sp.Symbol, sp.IndexedBase, AppliedUndef, sp.Indexed)
                              for t in trees if isinstance(t, sp.Basic)))
        self.bases = {str(a.label) for a in atoms if isinstance(a, sp.IndexedBase)}
        self.functions = {type(a).__name__ for a in atoms if isinstance(a, AppliedUndef)}
        symbols = {str(a) for a in atoms if isinstance(a, sp.Symbol)}
        self.integers = {str(s) for t in trees if isinstance(t, sp.Basic)
                         for s in _whole_numbers(t)}
        self.names = {n for n in symbols | self.bases | self.functions if IDENTIFIER.fullmatch(n)}

    def kind(self, name: str) -> str:
        if name in self.functions:
            return "function"
        return "indexed" if name in self.bases else "symbol"


def _whole_numbers(tree: sp.Basic) -> set:
    """Symbols that index an entry, or run over or bound a sum or product."""
    found: set = set()
    for node in sp.preorder_traversal(tree):
        if isinstance(node, sp.Indexed):
            found |= set().union(*(sp.sympify(i).free_symbols for i in node.indices))
        elif isinstance(node, (sp.Sum, sp.Product)):
            for limit in node.limits:
                found |= set().union(*(sp.sympify(part).free_symbols for part in limit))
    return found


def _unkeyword(name: str) -> str:
    """The tokenizer's ``lambda_`` is the formula's ``lambda``."""
    return name[:-1] if name.endswith("_") and keyword.iskeyword(name[:-1]) else name


def declaration_lines(declared: Sequence[Declaration], variables: Sequence[str]) -> list[str]:
    """Python lines declaring each name as its variable (``variables``, one per declaration,
    free names of the skeleton): plain symbols together, then whole numbers, bases and
    functions."""
    groups: dict[tuple[str, bool], list[tuple[str, str]]] = {}
    for d, variable in zip(declared, variables):
        groups.setdefault((d.kind, d.integer and d.kind == "symbol"), []).append(
            (variable, d.printed))
    lines = []
    for (kind, integer), pairs in sorted(groups.items(), key=lambda g: _ORDER[g[0]]):
        lines += _declare(kind, integer, pairs)
    return lines


_ORDER = {("symbol", False): 0, ("symbol", True): 1, ("indexed", False): 2,
          ("indexed", True): 2, ("function", False): 3, ("function", True): 3}


def _declare(kind: str, integer: bool, pairs: list[tuple[str, str]]) -> list[str]:
    if kind == "indexed":
        return [f"{v} = sp.IndexedBase({p!r})" for v, p in pairs]
    if kind == "function":
        return [f"{v} = sp.Function({p!r})" for v, p in pairs]
    assumptions = ", integer=True" if integer else ""
    if len(pairs) == 1:
        (v, p), = pairs
        return [f"{v} = sp.Symbol({p!r}{assumptions})"]
    variables, printed = zip(*pairs)
    return [f"{', '.join(variables)} = sp.symbols({' '.join(printed)!r}{assumptions})"]
