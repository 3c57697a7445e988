"""SymPy formulas compiled to NumPy functions once per process.

A check evaluates the value under test at every parameter point it draws, and the audit does
it again for each foil; ``sympy.lambdify`` prints and compiles the formula every time (2 to
100 ms, growing with the formula). The compiled function depends only on the argument list,
the expression and the namespace, so it is remembered by them.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import sympy as sp


def lambdified(arguments: Sequence[Any], expr: Any,
               extra: tuple[tuple[str, Callable], ...] = ()) -> Callable:
    """``sympy.lambdify(arguments, expr, [dict(extra), "numpy"])``, compiled once per
    distinct (arguments, expression, extra). Unhashable input is compiled every time."""
    try:
        return _compiled(tuple(arguments), expr, extra)
    except TypeError:  # an unhashable argument or expression (a mutable matrix)
        return _compile(tuple(arguments), expr, extra)


@functools.lru_cache(maxsize=1024)
def _compiled(arguments: tuple, expr: Any, extra: tuple) -> Callable:
    return _compile(arguments, expr, extra)


def _compile(arguments: tuple, expr: Any, extra: tuple) -> Callable:
    modules = [dict(extra), "numpy"] if extra else "numpy"
    return sp.lambdify(list(arguments), expr, modules)
