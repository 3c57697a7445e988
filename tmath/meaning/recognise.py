"""Recognising, in any document, the relations the claims prove, under the document's names.

A document names things its own way (``d`` for ``d_k``, ``\\mathrm{Attn}`` for Attention,
``lrate`` for ``lr``). A renaming of names is a change of spelling, not of meaning, so:

1. :func:`infer_mapping` looks, for each relation of the document, for a renaming of the
   names it does not share with a claim's relation (at most :data:`MAX_RENAMED`, each to one
   of the relation's own names, kind for kind) that makes the two *equivalent*
   (:mod:`tmath.meaning.compare`). Each such renaming is a witness; the document's mapping
   takes, for each of its names, the target with the most witnesses (a tie maps nothing), and
   never onto a name the document uses itself.
2. :func:`judge` compares each relation, renamed by the document's mapping, with the claims'
   relations: ``recognised`` when it is equivalent to one; ``contradicts`` when it is the
   *near form* of one (it shares a side that is more than a bare name, it uses exactly the
   claim's names, and it is not equivalent to it nor to any other claim relation; a name
   ``b_1`` counts as the member ``b[1]`` of a family the claim numbers); otherwise
   nothing (a document may say many things the claims do not).

Nothing here evaluates document text: the reader (:mod:`tmath.latex`) builds the expressions.
"""

from __future__ import annotations

import itertools
from collections import Counter
import functools
from dataclasses import dataclass, field, replace
import re
from typing import Mapping, Sequence

import sympy as sp

from tmath.meaning.compare import Form, compare, differing_point, sides_match
from tmath.meaning.difference import differing_part

MAX_RENAMED = 3
"""Names of one relation renamed at once when looking for a witness (at most 3! bijections)."""
NAMING = frozenset({"statement", "definition"})


@dataclass(frozen=True)
class Known:
    """A relation a claim proves or defines, as its recorded formula writes it."""

    claim: str
    recorded: str
    source: str                 # statement, definition, premise, step, …
    form: Form
    names: frozenset[str]       # symbols and function names, as read
    functions: frozenset[str]
    lhs: sp.Basic = field(default=None, compare=False)
    rhs: sp.Basic = field(default=None, compare=False)


@dataclass(frozen=True)
class Read:
    """One relation of a document formula, as read (before any renaming)."""

    lhs: sp.Basic
    op: str
    rhs: sp.Basic
    names: frozenset[str]
    functions: frozenset[str]
    text: str
    case: int = -1
    """Which row of a definition by cases it is (:func:`by_cases`), −1 if none or not known."""


@dataclass(frozen=True)
class Verdict:
    """What one document relation was found to be."""

    status: str                 # recognised, contradicts
    known: Known
    shown: str
    detail: str = ""
    where: tuple[str, ...] = ()
    """What differs from the claim: names, and the function above them as ``fn:NAME``
    (:func:`~tmath.meaning.difference.differing_part`), to find its line."""


def vocabulary(*exprs: sp.Basic) -> tuple[frozenset[str], frozenset[str]]:
    """The names of free symbols (an indexed name by its base) and of applied functions."""
    names, functions = set(), set()
    for expr in exprs:
        if not isinstance(expr, sp.Basic):
            continue
        bound = _bound_names(expr)
        for atom in expr.atoms(sp.Symbol, sp.IndexedBase):
            name = atom.name if isinstance(atom, sp.Symbol) else str(atom.label)
            if name not in bound and not name.startswith(("⟦", "_")):
                names.add(name)
        for applied in expr.atoms(sp.Function):
            if isinstance(applied, sp.core.function.AppliedUndef) or \
                    type(applied).__module__.startswith("tmath"):
                functions.add(type(applied).__name__)
    return frozenset(names - functions), frozenset(functions)


def _bound_names(expr: sp.Basic) -> set[str]:
    """Variables a sum or product binds (Σⱼ's j), also of the reader's SumOver(body, j)."""
    found = set()
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.concrete.expr_with_limits.ExprWithLimits):
            found |= {str(limit[0]) for limit in node.limits}
        elif type(node).__name__ == "SumOver" and len(node.args) == 2:
            found.add(str(node.args[1]))
    return found


def rename(expr: sp.Basic, mapping: Mapping[str, str]) -> sp.Basic:
    """``expr`` with each name in ``mapping`` (a symbol, an indexed base or a function)
    spelt as its target; assumptions and the reader's operator classes are kept."""
    if not mapping or not isinstance(expr, sp.Basic):
        return expr
    swaps: dict[sp.Basic, sp.Basic] = {}
    for atom in expr.atoms(sp.Symbol):
        if atom.name in mapping:
            swaps[atom] = sp.Symbol(mapping[atom.name], **atom.assumptions0)
    for base in expr.atoms(sp.IndexedBase):
        if str(base.label) in mapping:
            swaps[base] = sp.IndexedBase(mapping[str(base.label)], **base.assumptions0)
    renamed = expr.xreplace(swaps) if swaps else expr
    for old, new in mapping.items():
        target = _function(new)
        renamed = renamed.replace(lambda e, old=old: isinstance(e, sp.Function)
                                  and type(e).__name__ == old,
                                  lambda e, target=target: target(*e.args))
    return renamed


def _operator(name: str) -> bool:
    """An operator the reader knows (E, Var, softmax…): its name is its meaning, so no
    renaming ever changes it into another; only a document's own function names are renamed."""
    from tmath.latex.notation import DEFAULT

    return name in DEFAULT.operators


def _function(name: str):
    """The reader's class for an operator called ``name`` (Attention, softmax…) or a plain
    undefined function."""
    from tmath.latex.notation import DEFAULT

    return DEFAULT.operators.get(name) or sp.Function(name)


def relations_of(latex: str) -> list[Read]:
    """The relations of a formula as read (none if the reader cannot read it); a definition
    by cases on what an argument is, one relation per case (:func:`by_cases`). Read once per
    text (the gate asks again for the same formula; each Read is immutable)."""
    return list(_relations_of(latex))


@functools.lru_cache(maxsize=8192)
def _relations_of(latex: str) -> tuple[Read, ...]:
    from tmath.latex import read as read_latex

    reading = read_latex(latex)
    if not reading.parsed:
        return ()
    found = []
    for relation in reading.relations:
        variables = frozenset(s.name for side in (relation.lhs, relation.rhs)
                              if isinstance(side, sp.Basic) for s in side.free_symbols
                              if len(s.name) == 1)
        lhs, rhs = (_families(side, variables) for side in (relation.lhs, relation.rhs))
        cases = by_cases(lhs, relation.op, rhs)
        rows = _case_rows(rhs, _conditions(latex)) if cases else [-1]
        for (lhs, rhs), row in zip(cases or [(lhs, rhs)], rows):
            names, functions = vocabulary(lhs, rhs)
            found.append(Read(lhs, relation.op, rhs, names, functions,
                              f"{lhs} = {rhs}" if cases else str(relation), row))
    return tuple(found)


def _case_rows(piecewise: sp.Piecewise, printed: Sequence[sp.Basic | None] = ()
               ) -> list[int]:
    """The row of each relation :func:`by_cases` makes: where its condition is ``printed``
    (the conditions of the formula's one ``cases``, row by row), else its case's place while
    no two cases are merged; −1 when not known (SymPy merges cases with one value into
    "δ = 2δ' or δ = 2δ' + 1" and does not keep their rows)."""
    merged = any(isinstance(condition, sp.Or) for _, condition in piecewise.args)
    rows = []
    for k, (_, condition) in enumerate(piecewise.args):
        for alternative in condition.args if isinstance(condition, sp.Or) else (condition,):
            at = [r for r, c in enumerate(printed) if c is not None and
                  (c == alternative or c.reversed == alternative)]
            rows.append(at[0] if len(at) == 1 else -1 if merged else k)
    return rows


_CONDITION_WORDS = re.compile(
    r"^(?:\\(?:text|mathrm|textrm)\{\s*(?:if|for|when)\s*\}|if\b|for\b|when\b)?"
    r"(?:\s|\\[,;:! ]|\\q?quad|~)*")


def _conditions(latex: str) -> list[sp.Basic | None]:
    """The condition of each row of ``latex``'s one ``cases`` (``x = e`` read as an
    equation; None where it is not one)."""
    from tmath.latex import read as read_latex
    from tmath.latex.split import rows, top_level

    opening, closing = latex.find("\\begin{cases}"), latex.find("\\end{cases}")
    if opening < 0 or closing < opening or latex.find("\\begin{cases}", opening + 1) >= 0:
        return []
    body = latex[opening + len("\\begin{cases}"):closing]
    found = []
    for _, row in rows(body):
        amp = top_level(row, "&")
        text = _CONDITION_WORDS.sub("", row[amp[0] + 1:].strip().rstrip(",.").strip()) \
            if amp else ""
        reading = read_latex(text) if text else None
        found.append(sp.Eq(reading.relations[0].lhs, reading.relations[0].rhs, evaluate=False)
                     if reading is not None and reading.parsed and len(reading.relations) == 1
                     and reading.relations[0].op == "=" else None)
    return found


def by_cases(lhs: sp.Basic, op: str, rhs: sp.Basic) -> list[tuple[sp.Basic, sp.Basic]]:
    """``f(i, δ) = {a if δ = 2δ'; b if δ = 2δ' + 1}``, a function defined by cases on what one
    of its arguments is, → the relations ``f(i, 2δ') = a`` and ``f(i, 2δ' + 1) = b`` (the
    argument put in wherever it appears); none unless every case's condition says that of an
    argument of the function (fail closed: an ``otherwise``, an inequality, words)."""
    if op not in ("=", ":=", "equiv") or not isinstance(rhs, sp.Piecewise) or \
            not isinstance(lhs, sp.core.function.AppliedUndef):
        return []
    found = []
    for value, condition in rhs.args:
        # two cases with one value are merged by SymPy: "δ = 2δ' or δ = 2δ' + 1"
        for alternative in condition.args if isinstance(condition, sp.Or) else (condition,):
            swap = _argument_is(alternative, lhs.args)
            if swap is None:
                return []
            found.append((lhs.xreplace(swap), value.xreplace(swap)))
    return found


def _argument_is(condition: sp.Basic, arguments: tuple) -> dict | None:
    """``{x: e}`` when ``condition`` is ``x = e`` (or ``e = x``) for an argument ``x`` that is
    a plain name, ``e`` not involving it; else None."""
    if not isinstance(condition, sp.Eq):
        return None
    for name, value in (condition.args, condition.args[::-1]):
        if isinstance(name, sp.Symbol) and name in arguments and not value.has(name):
            return {name: value}
    return None


@dataclass(frozen=True)
class Chain:
    """A run of equations ``a = b = c = d`` whose links share their members (each link's right
    side is the next one's left side), and the relation of its ends, ``a = d``."""

    first: int                  # the index of its first link among the formula's relations
    last: int                   # … and of its last
    ends: Read


def chains_of(relations: Sequence[Read]) -> list[Chain]:
    """The runs of two or more linked equations in ``relations``: equality is transitive, so
    a derivation that goes from a claim's one side to its other says the claim's relation by
    its ends, whatever its steps are."""
    found, start = [], 0
    for k in range(1, len(relations) + 1):
        if k < len(relations) and linked(relations[k - 1], relations[k]):
            continue
        if k - start >= 2:
            found.append(Chain(start, k - 1, _ends(relations[start], relations[k - 1])))
        start = k
    return found


def linked(before: Read, after: Read) -> bool:
    """``after`` continues ``before``: both equations, and ``after`` starts where ``before``
    ends."""
    return before.op == after.op == "=" and before.rhs == after.lhs


def _ends(first: Read, last: Read) -> Read:
    """``a = d`` from a chain's first link ``a = b`` and its last ``c = d``."""
    names, functions = vocabulary(first.lhs, last.rhs)
    return Read(first.lhs, "=", last.rhs, names, functions, f"{first.lhs} = {last.rhs}")


def _families(expr: sp.Basic, variables: frozenset[str] = frozenset()) -> sp.Basic:
    """``p_{i, 2j}``, an entry of a family with two or more indices, read as the value of a
    function of them, ``p(i, 2j)``: the same thing as ``PE(pos, 2i)`` up to names. And a
    Greek letter subscripted by a letter the relation uses as a variable, ``ω_k`` beside
    ``10000^{2k/d}``, is the family's k-th member ``ω[k]`` (the reader takes ``_k`` for part of
    a name, as in ``d_k``; a Latin name keeps that reading)."""
    if not isinstance(expr, sp.Basic):
        return expr
    swaps = {e: sp.Function(str(e.base.label))(*e.indices) for e in expr.atoms(sp.Indexed)
             if len(e.indices) >= 2 and str(e.base.label)[:1].islower()}
    for symbol in expr.atoms(sp.Symbol):
        base, _, sub = symbol.name.partition("_")
        if sub in variables and base in _GREEK_NAMES:
            swaps[symbol] = sp.IndexedBase(base)[sp.Symbol(sub)]
    return expr.xreplace(swaps) if swaps else expr


_GREEK_NAMES = frozenset({"alpha", "beta", "gamma", "delta", "theta", "lambda", "mu", "nu",
                          "xi", "rho", "sigma", "tau", "phi", "psi", "omega"})


def defined_function(read: Read) -> tuple[str, tuple, sp.Basic] | None:
    """``f(x, y_i) = body`` of a function the reader does not know (the document's own
    definition), or ``ω_k = body`` of a family named by a Greek letter: (name, parameters,
    body); None for any other relation."""
    lhs = read.lhs
    if read.op not in ("=", ":=", "equiv"):
        return None
    if isinstance(lhs, sp.Indexed) and str(lhs.base.label) in _GREEK_NAMES and \
            all(isinstance(i, sp.Symbol) for i in lhs.indices) and \
            len(set(lhs.indices)) == len(lhs.indices) and not read.rhs.has(lhs.base):
        return str(lhs.base.label), tuple(lhs.indices), read.rhs
    if not isinstance(lhs, sp.core.function.AppliedUndef) or \
            not all(isinstance(a, (sp.Symbol, sp.Indexed)) or residue(a) for a in lhs.args) or \
            len(set(lhs.args)) != len(lhs.args) or read.rhs.has(lhs.func):
        return None
    return type(lhs).__name__, tuple(lhs.args), read.rhs


def residue(arg: sp.Basic) -> tuple[sp.Symbol, int, int] | None:
    """``2i`` or ``2i + 1`` as a parameter of a definition by parity (``p(t, 2i) = sin …``,
    ``p(t, 2i+1) = cos …``): (i, 2, 1); None for any other argument. It stands for the
    arguments ``m·x + r`` with x a whole number, and for no other."""
    if len(arg.free_symbols) != 1 or not isinstance(arg, (sp.Add, sp.Mul)) or \
            not all(isinstance(a, (sp.Symbol, sp.Integer, sp.Mul)) for a in arg.args):
        return None
    (symbol,) = arg.free_symbols
    if not isinstance(symbol, sp.Symbol) or not arg.is_polynomial(symbol):
        return None
    poly = sp.Poly(arg, symbol)
    if poly.total_degree() != 1:
        return None
    m, r = poly.coeff_monomial(symbol), poly.coeff_monomial(1)
    if not (m.is_Integer and r.is_Integer and 2 <= m <= 16 and 0 <= r < m):
        return None
    return symbol, int(m), int(r)


def _whole(value: sp.Basic) -> bool:
    """Whether a sum of names with whole coefficients (a whole number wherever they are)."""
    symbols = value.free_symbols
    if not all(isinstance(s, sp.Symbol) for s in symbols) or \
            not value.is_polynomial(*symbols):
        return False
    coefficients = sp.Poly(value, *symbols).coeffs() if symbols else [value]
    return all(c.is_Integer for c in coefficients)


def _bound(parameters: tuple, arguments: tuple) -> dict | None:
    """The values of a definition's parameters at an application's arguments: a plain
    parameter takes its argument; ``m·x + r`` takes x = (argument − r)/m when that is a whole
    number wherever the argument's names are (``2j+1`` against ``2i+1``: i = j; ``2j`` against
    ``2i+1``: no). None where the application is not the definition's."""
    values: dict = {}
    for parameter, argument in zip(parameters, arguments):
        pattern = None if isinstance(parameter, (sp.Symbol, sp.Indexed)) else residue(parameter)
        if pattern is None:
            symbol, value = parameter, argument
        else:
            symbol, m, r = pattern
            value = sp.expand((argument - r) / m)
            if not _whole(value):
                return None
        if values.get(symbol, value) != value:
            return None
        values[symbol] = value
    return values


def put_in(read: Read, name: str, parameters: tuple, body: sp.Basic) -> Read:
    """``read`` with each application of the document's function ``name`` (or each member of
    its family ``name``) replaced by its definition at the arguments (a(q, k_j) → qᵀk_j/√d,
    ω_j → 1/10000^{2j/d})."""
    def arguments(x: sp.Basic) -> tuple | None:
        if isinstance(x, sp.core.function.AppliedUndef) and type(x).__name__ == name:
            found = x.args
        elif isinstance(x, sp.Indexed) and str(x.base.label) == name:
            found = x.indices
        else:
            return None
        return tuple(found) if len(found) == len(parameters) else None

    def expand(e: sp.Basic) -> sp.Basic:
        return e.replace(
            lambda x: arguments(x) is not None and _bound(parameters, arguments(x)) is not None,
            lambda x: body.xreplace(_bound(parameters, arguments(x))))

    if _defined_name(read.lhs) == name:   # its own definition: left as it is
        return read
    lhs, rhs = expand(read.lhs), expand(read.rhs)
    names, functions = vocabulary(lhs, rhs)
    return Read(lhs, read.op, rhs, names, functions, read.text, read.case)


def _defined_name(lhs: sp.Basic) -> str:
    return str(lhs.base.label) if isinstance(lhs, sp.Indexed) else type(lhs).__name__


def form_of(read: Read, mapping: Mapping[str, str], member: sp.Basic | None = None
            ) -> Form | None:
    """The canonical form of ``read`` with ``mapping``'s names put in; ``member``: a claim's
    family member that the left side may leave indices of implicit (:func:`completed`)."""
    from tmath.meaning.forms import form

    used = _used(read, mapping)
    lhs, rhs = rename(read.lhs, used), rename(read.rhs, used)
    return form(completed(lhs, rhs, member), read.op, rhs)


def _leaves_implicit(read: Read, mapping: Mapping[str, str], known: Known) -> bool:
    """Whether ``read``'s left side, in ``mapping``'s names, is ``known``'s family member with
    some of its indices left implicit (:func:`completed`)."""
    used = _used(read, mapping)
    lhs = rename(read.lhs, used)
    return completed(lhs, rename(read.rhs, used), known.lhs) is not lhs


def completed(lhs: sp.Basic, rhs: sp.Basic, member: sp.Basic | None) -> sp.Basic:
    """``lhs`` as the claim's ``member`` when it names the same family with some of its
    indices left implicit, each left-out index a free name of ``rhs``: ``M_k = [cos(ω_i k) …]``
    is the claim's ``M_{k,i}`` (i is free in the body); ``lhs`` itself otherwise."""
    if not isinstance(member, sp.Indexed):
        return lhs
    if isinstance(lhs, sp.Symbol):   # M_k read as one name: the family M, indexed by k
        base, _, index = lhs.name.partition("_")
        if base != str(member.base.label) or not index:
            return lhs
        written = [next((i for i in member.indices if str(i) == index), None)]
    elif isinstance(lhs, sp.Indexed) and lhs.base.label == member.base.label:
        written = list(lhs.indices)
    else:
        return lhs
    full = list(member.indices)
    if len(written) >= len(full) or any(i not in full for i in written):
        return lhs
    left_out = [i for i in full if i not in written]
    free = rhs.free_symbols if isinstance(rhs, sp.Basic) else set()
    if all(isinstance(i, sp.Symbol) and i in free for i in left_out):
        return member
    return lhs


def _used(read: Read, mapping: Mapping[str, str]) -> dict[str, str]:
    """The part of ``mapping`` that renames ``read``'s names."""
    return {k: v for k, v in mapping.items() if k in read.names | read.functions}


def _bijections(mine: Read, known: Known, local: bool = True) -> list[dict[str, str]]:
    """Renamings of ``mine``'s own names onto ``known``'s, kind for kind, that could make
    the two use the same names; ``local``: also those that rename shared names, which hold
    for this formula alone (:func:`_permutations`)."""
    own = (mine.names | mine.functions) - (known.names | known.functions)
    theirs = (known.names | known.functions) - (mine.names | mine.functions)
    if not own or len(own) != len(theirs) or len(own) > MAX_RENAMED or \
            not (mine.names | mine.functions) & (known.names | known.functions):
        # nothing in common: only a renaming of every name, for this formula alone
        return _permutations(mine, known) if local else []
    own_list, found = sorted(own), []
    mine_families, their_families = _indexed(mine.lhs, mine.rhs), _indexed(known.lhs, known.rhs)
    for targets in itertools.permutations(sorted(theirs)):
        pairs = dict(zip(own_list, targets))
        if all((a in mine.functions) == (b in known.functions) and not _operator(a)
               and (a in mine_families) == (b in their_families) for a, b in pairs.items()):
            found.append(pairs)
    if not local:
        return found
    return found + [p for p in _permutations(mine, known) if p not in found]


def _permutations(mine: Read, known: Known) -> list[dict[str, str]]:
    """Renamings of all of ``mine``'s names onto all of ``known``'s, shared ones included
    (``p(i, 2j)`` is ``PE(pos, 2i)`` with i → pos and j → i), when both have the same few."""
    if len(mine.names) != len(known.names) or len(mine.names) > MAX_RENAMED + 1 or \
            len(mine.functions - known.functions) > 1 or \
            len(mine.functions) != len(known.functions):
        return []
    functions = dict(zip(sorted(mine.functions - known.functions),
                         sorted(known.functions - mine.functions)))
    if any(map(_operator, functions)):
        return []   # E is never Var: an operator the reader knows keeps its meaning
    found, names = [], sorted(mine.names)
    mine_families, their_families = _indexed(mine.lhs, mine.rhs), _indexed(known.lhs, known.rhs)
    for targets in itertools.permutations(sorted(known.names)):
        if any((a in mine_families) != (b in their_families) for a, b in zip(names, targets)):
            continue   # a family (ω_k) is renamed onto a family, a plain name onto a name
        pairs = {a: b for a, b in zip(names, targets) if a != b}
        found.append({**pairs, **functions})
    return [p for p in found if p]


def _indexed(*exprs: sp.Basic) -> frozenset[str]:
    """The names used as families (``ω_k``, read as the indexed ``ω[k]``)."""
    return frozenset(str(b.label) for e in exprs if isinstance(e, sp.Basic)
                     for b in e.atoms(sp.IndexedBase))


def witnesses(read: Read, library: Sequence[Known]) -> list[tuple[str, str]]:
    """The renamings (name → claim name) that make ``read`` equivalent to a claim relation it
    is not equivalent to as written; none if it already is."""
    plain = form_of(read, {})
    if plain is not None and any(compare(plain, k.form) == "equivalent" for k in library):
        return []
    found = []
    for known in library:
        for pairs in _bijections(read, known, local=False):
            renamed = form_of(read, pairs)
            if renamed is not None and compare(renamed, known.form) == "equivalent":
                found += pairs.items()
    return found


def choose_mapping(votes: Sequence[tuple[str, str]], used: set[str],
                   library: Sequence[Known]) -> dict[str, str]:
    """The document's mapping from its witnessed renamings: for each name the target with
    the most witnesses (a tie maps nothing), never a name the document uses itself; a name
    only spelt differently (:func:`_abbreviations`) where nothing is witnessed."""
    counts: Counter[tuple[str, str]] = Counter(v for v in votes if v[1] not in used)
    for name, target in _abbreviations(used, library).items():
        counts.setdefault((name, target), 0)
    by_name: dict[str, list[tuple[int, str]]] = {}
    for (name, target), count in counts.items():
        by_name.setdefault(name, []).append((count, target))
    mapping: dict[str, str] = {}
    taken: set[str] = set()
    for name, options in sorted(by_name.items(), key=lambda kv: (-max(kv[1])[0], kv[0])):
        options.sort(reverse=True)
        best, target = options[0]
        if len(options) > 1 and options[1][0] == best or target in taken:
            continue   # two targets as well witnessed, or already another name's: not mapped
        mapping[name] = target
        taken.add(target)
    return mapping


def infer_mapping(relations: Sequence[Read], library: Sequence[Known]) -> dict[str, str]:
    """The document's names → the claims' names, by the renamings that make its relations
    equivalent to the claims' (:func:`witnesses`, :func:`choose_mapping`)."""
    used = set().union(*(r.names | r.functions for r in relations)) if relations else set()
    votes = [v for read in relations for v in witnesses(read, library)]
    return choose_mapping(votes, used, library)


def _abbreviations(names: set[str], library: Sequence[Known]) -> dict[str, str]:
    """A document's name that is a shortening of exactly one claim name, or the claim name a
    shortening of it, of the same kind, neither used by the other side (``Attn`` and
    ``Attention``, ``lrate`` and ``lr``): the same thing, spelt differently."""
    functions = set().union(*(k.functions for k in library)) if library else set()
    symbols = set().union(*(k.names for k in library)) if library else set()
    found = {}
    for name in names - functions - symbols:
        if "_" in name:
            continue   # a subscript qualifies a name (p_o), it does not abbreviate one
        pool = functions if name[:1].isupper() else symbols
        targets = [t for t in pool - names if _shortens(name, t) or _shortens(t, name)]
        if len(targets) == 1:
            found[name] = targets[0]
    return found


def _shortens(short: str, long: str) -> bool:
    """``short`` keeps ``long``'s first letter and some of its letters, in order (≥ 2)."""
    a, b = short.replace("_", "").lower(), long.replace("_", "").lower()
    if len(a) < 2 or len(a) >= len(b) or a[0] != b[0]:
        return False
    rest = iter(b[1:])
    return all(char in rest for char in a[1:])


def judge(read: Read, library: Sequence[Known], mapping: Mapping[str, str],
          called: frozenset[str] = frozenset(), apart: frozenset = frozenset()
          ) -> Verdict | None:
    """``recognised``, ``contradicts`` or None (see the module's docstring). ``called``: the
    functions the document's words call this formula (``softmax``), whose definitions it is
    held to when it writes one out without naming it (:func:`_written_out`).

    A formula that contradicts a claim as printed but is the claim in the other convention
    (rows for columns: every product of matrices and vectors in the reverse order, as
    transposing both sides and naming each transpose gives, ``xW_1`` for ``W_1 x``) is
    recognised: an identity holds exactly when its transpose does.

    ``apart``: pairs of names (frozensets) the document keeps apart (it relates them, as in
    ``d_k = d_{model}/h``); renaming one onto the other in this formula alone is no reading
    of it, and a formula that is a claim's only so is that claim's near form."""
    verdict = _judge(read, library, mapping, called, apart)
    if verdict is None or verdict.status != "contradicts":
        entries = _by_entries(read, library, mapping, called, apart) if verdict is None \
            else None
        return entries or verdict
    entries = _by_entries(read, library, mapping, called, apart)
    if entries is not None and entries.status == "recognised":
        return entries
    flipped = _transposed(read)
    if flipped is not None:
        other = _judge(flipped, library, mapping, called, apart)
        if other is not None and other.status == "recognised":
            return Verdict("recognised", other.known, read.text)
    return verdict


def _by_entries(read: Read, library: Sequence[Known], mapping: Mapping[str, str],
                called: frozenset[str], apart: frozenset = frozenset()) -> Verdict | None:
    """A relation of two matrices of one shape (``[\\sin(sω), \\cos(sω)]ᵀ = [PE(s, 2i),
    PE(s, 2i+1)]ᵀ``) judged entry by entry, when every entry is judged: recognised when
    every entry is a claim's relation, else the first entry's contradiction; else None."""
    lhs, rhs = read.lhs, read.rhs
    if not (isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase)) or \
            lhs.shape != rhs.shape or len(lhs) < 2 or len(lhs) > 16:
        return None
    verdicts = []
    for a, b in zip(lhs, rhs):
        names, functions = vocabulary(a, b)
        verdicts.append(_judge(Read(a, read.op, b, names, functions, f"{a} = {b}"),
                               library, mapping, called, apart))
    if any(v is None for v in verdicts):
        return None
    wrong = [v for v in verdicts if v.status != "recognised"]
    if not wrong:
        return Verdict("recognised", verdicts[0].known, read.text)
    return replace(wrong[0], shown=read.text)


def _transposed(read: Read) -> Read | None:
    """``read`` with every product of non-commuting factors reversed; None when it has none."""
    from dataclasses import replace

    def flip(expr):
        if isinstance(expr, sp.Mul):
            numbers, matrices = expr.args_cnc()
            return sp.Mul(*map(flip, numbers), *map(flip, reversed(matrices)))
        if isinstance(expr, sp.Basic) and expr.args and not isinstance(expr, (sp.Indexed,
                                                                           sp.Symbol)):
            try:
                return expr.func(*map(flip, expr.args))
            except (TypeError, ValueError):
                return expr
        return expr

    if not any(isinstance(m, sp.Mul) and len(m.args_cnc()[1]) > 1
               for side in (read.lhs, read.rhs) if isinstance(side, sp.Basic)
               for m in sp.preorder_traversal(side)):
        return None
    return replace(read, lhs=flip(read.lhs), rhs=flip(read.rhs))


def _judge(read: Read, library: Sequence[Known], mapping: Mapping[str, str],
           called: frozenset[str], apart: frozenset = frozenset()) -> Verdict | None:
    plain = mine = form_of(read, mapping)
    if mine is None or mine.identity:
        return None
    near = None
    original, original_plain = read, plain
    for known in library:
        read = _as_members(original, known)
        plain = original_plain if read is original else form_of(read, mapping)
        renamed = frozenset(mapping.get(n, n) for n in read.names | read.functions)
        implicit = _leaves_implicit(read, mapping, known)
        mine = form_of(read, mapping, known.lhs) if implicit else plain
        if mine is None:
            continue
        if compare(mine, known.form) == "equivalent":
            return Verdict("recognised", known, read.text)
        equivalent, merged = _renamed_equivalent(read, known, apart)
        if equivalent:
            return Verdict("recognised", known, read.text)
        if near is not None:
            continue
        if merged is not None:   # the claim only if two of the document's names were one
            candidate = form_of(read, merged, known.lhs)
            if candidate is not None and compare(candidate, known.form, named=True) == \
                    "contradicts":
                near = (known, candidate, known.form, _used(read, merged),
                        (known.lhs, known.rhs))
                continue
        if implicit and known.source in NAMING and _distinctive(read) and \
                compare(mine, known.form, named=True) == "contradicts":
            # the claim's family member with an index left implicit, said to be another thing
            near = (known, mine, known.form, {}, (known.lhs, known.rhs))
            continue
        spelt = _spelling_pairs(renamed, known, _claim_names(library).get(known.claim))
        if spelt is not None:
            renaming = {**mapping, **spelt}
            candidate = form_of(read, renaming, known.lhs) if spelt else mine
            if candidate is not None and compare(
                    candidate, known.form, named=_named(read, known)) == "contradicts":
                near = (known, candidate, known.form, _used(read, renaming),
                        (known.lhs, known.rhs))
                continue
        family = _same_family(read.lhs, known.lhs) and known.source in NAMING and \
            _distinctive(read)
        evidence = (_structured(read.lhs) and _distinctive(read)) or family or \
            type(read.lhs).__name__ in known.functions
        for pairs in _permutations(read, known) if evidence else ():
            candidate = form_of(read, pairs, known.lhs)   # the claim's form in these names
            if family and candidate is not None and \
                    sides_match(candidate.right, known.form.right):
                break   # the claim's body, its family indexed otherwise: M_i(p) is M_{k,i}
            if candidate is not None and compare(candidate, known.form, named=family) == \
                    "contradicts" and ("atom" in (candidate.lhs_kind, candidate.rhs_kind)
                                       or family):
                near = (known, candidate, known.form, _used(read, pairs),
                        (known.lhs, known.rhs))
                break
    read, plain = original, original_plain
    mine = plain
    for known, instance, same_names, sides in _instances(read, library, mapping):
        if compare(mine, instance) == "equivalent":
            return Verdict("recognised", known, read.text)
        if near is None and same_names and compare(mine, instance, named=True) == "contradicts":
            # the definition at its argument, other names: the document may define them
            near = (known, mine, instance, _used(read, mapping), sides)
    unnamed = itertools.chain(
        ((k, mine, instance, same, sides, None)
         for k, instance, same, sides in _written_out(read, library, mapping)),
        _defined_expression(read, library, mapping))
    for known, candidate, against, same_names, sides, written in unnamed:
        if compare(candidate, against) == "equivalent":
            return Verdict("recognised", known, read.text)
        if near is None and same_names and type(known.lhs).__name__ in called and \
                compare(candidate, against, named=True) == "contradicts":
            near = (known, candidate, against, _used(read, mapping), sides, written)
    if near is None:
        return None
    known, candidate, against, renaming, sides, *written = near
    mine_sides = written[0] if written and written[0] is not None else \
        (rename(read.lhs, renaming), rename(read.rhs, renaming))
    where = differing_part(mine_sides, sides, {v: k for k, v in renaming.items()})
    return Verdict("contradicts", known, read.text, differing_point(candidate, against), where)


_NUMBERED = re.compile(r"([A-Za-z]+)_\{?(\d+)\}?")


def _as_members(read: Read, known: Known) -> Read:
    """``read`` with each name ``b_1`` made the member ``b[1]`` of a family ``b`` that
    ``known`` numbers (and does not use ``b_1`` as a name): the reader reads ``b_1`` as a name
    where ``b`` multiplies a matrix, so a misplaced bias keeps the claim's names."""
    numbered = _numbered_names(read)
    if not numbered:
        return read
    families = _families_of(known)
    swaps = {symbol: sp.IndexedBase(base)[index] for symbol, base, index in numbered
             if base in families and symbol.name not in known.names}
    if not swaps:
        return read
    lhs, rhs = read.lhs.xreplace(swaps), read.rhs.xreplace(swaps)
    names, functions = vocabulary(lhs, rhs)
    return replace(read, lhs=lhs, rhs=rhs, names=names, functions=functions | read.functions)


@functools.lru_cache(maxsize=4096)
def _numbered_names(read: Read) -> tuple:
    """Each name ``b_1`` of ``read``: (the symbol, ``b``, 1)."""
    if not (isinstance(read.lhs, sp.Basic) and isinstance(read.rhs, sp.Basic)):
        return ()
    return tuple((s, m.group(1), int(m.group(2)))
                 for s in read.lhs.atoms(sp.Symbol) | read.rhs.atoms(sp.Symbol)
                 for m in [_NUMBERED.fullmatch(s.name)] if m)


@functools.lru_cache(maxsize=4096)
def _families_of(known: Known) -> frozenset[str]:
    """The families (indexed bases) a claim relation numbers."""
    return frozenset(str(b.label) for side in (known.lhs, known.rhs)
                     if isinstance(side, sp.Basic) for b in side.atoms(sp.IndexedBase))


def _instances(read: Read, library: Sequence[Known], mapping: Mapping[str, str]):
    """A claim's definition ``F(z_i) = …`` at the document's argument: ``F(E_j)`` is
    ``…`` with each ``z_t`` replaced by ``E`` at index t, for each index ``E`` may run over
    (softmax(q_i k_jᵀ/√d) = exp(q_i k_jᵀ/√d)/Σ_r exp(q_i k_rᵀ/√d)). Yields (claim relation,
    the form of ``read``'s lhs = that instance, whether ``read``'s right side uses the
    instance's names and no other)."""
    from tmath.meaning.forms import form

    lhs = rename(read.lhs, {k: v for k, v in mapping.items() if k in read.names | read.functions})
    if read.op != "=" or not isinstance(lhs, sp.Function) or len(lhs.args) != 1:
        return
    argument = lhs.args[0]
    if isinstance(argument, (sp.Symbol, sp.Indexed)):
        return   # F(z_i) itself: compared as it is written
    written = rename(read.rhs, mapping)
    for known in definitions_of_one(library, type(lhs).__name__):
        for rhs in _at(known, argument, written):
            made = form(lhs, "=", rhs)
            if made is not None:
                yield known, made, vocabulary(lhs, rhs) == vocabulary(lhs, written), (lhs, rhs)


def _written_out(read: Read, library: Sequence[Known], mapping: Mapping[str, str]):
    """A claim's definition ``F(z_i) = …`` written out without ``F``: a right side that is a
    product with the definition's outer function of some ``E_i`` as a factor (its numerator
    ``exp(score(s, h_i))``) is set beside the definition at that argument, over the
    document's printed range (its Σ_{i'}).
    Yields (claim relation, the form of ``read``'s lhs = that instance, whether ``read``'s
    right side uses the instance's names and no other, the sides)."""
    from tmath.meaning.forms import form

    if read.op != "=" or not isinstance(read.rhs, sp.Basic) or \
            isinstance(read.rhs, sp.Function) and _operator(type(read.rhs).__name__):
        return
    lhs, written = rename(read.lhs, mapping), rename(read.rhs, mapping)
    for known in definitions_of_one(library):
        if type(lhs).__name__ == type(known.lhs).__name__:
            continue   # softmax(x) = exp(y)/Σ…: it is held to the definition at x (_instances)
        pattern = known.lhs.args[0]
        outer = [e.func for e in known.rhs.atoms(sp.Function)
                 if e.has(pattern) and not isinstance(e, sp.core.function.AppliedUndef)
                 and type(e).__name__ != "SumOver" and e.args == (pattern,)]
        if len(outer) != 1:
            continue   # only a definition that applies one function to z_i itself
        arguments = {e.args[0] for e in sp.Mul.make_args(written)
                     if isinstance(e, outer[0]) and len(e.args) == 1}
        for argument in sorted(arguments, key=sp.default_sort_key)[:MAX_WRITTEN]:
            for rhs in _at(known, argument, written):
                made = form(lhs, "=", rhs)
                if made is not None:
                    yield known, made, vocabulary(rhs) == vocabulary(written), (lhs, rhs)


def _defined_expression(read: Read, library: Sequence[Known], mapping: Mapping[str, str]):
    """A claim's defining expression ``F(Q, K, V) = body`` written as the document's own:
    the element of a membership (``softmax(QKᵀ/√d)V ∈ ℝ^{n×v}``) or the right side of an
    equation whose left side applies no claim's function (``Z = …``), with the body's names
    once renamed by the document's mapping and, in this expression alone, at most two more
    (``d`` for ``d_k``). Yields (claim relation, the form of ``F(Q, K, V)`` = that expression,
    the definition's form, True, the definition's sides, the document's as ``F = …``):
    equivalent to the definition when the expression is its body."""
    from tmath.meaning.forms import form

    if read.op in ("in", "∈"):
        side = read.lhs
    elif read.op == "=" and not (isinstance(read.lhs, sp.Function) and not
                                 isinstance(read.lhs, sp.core.function.AppliedUndef)):
        side = read.rhs
    else:
        return
    if not isinstance(side, sp.Basic) or isinstance(side, (sp.Symbol, sp.Indexed, sp.Number)):
        return
    written = rename(side, mapping)
    names, functions = vocabulary(written)
    for known in definitions_of_names(library):
        theirs, their_functions = vocabulary(known.rhs)
        own, missing = sorted(names - theirs), sorted(theirs - names)
        if their_functions != functions or len(own) != len(missing) or len(own) > 2:
            continue
        for targets in itertools.permutations(missing):   # d for d_k: this formula's names
            local = rename(written, dict(zip(own, targets)))
            made = form(known.lhs, "=", local)
            if made is not None:
                yield known, made, known.form, True, (known.lhs, known.rhs), \
                    (known.lhs, local)


def definitions_of_names(library: Sequence[Known]):
    """The claims' definitions ``F(Q, K, V) = …`` of an operator the reader knows, applied
    to plain names."""
    for known in library:
        pattern = known.lhs
        if known.source in NAMING and isinstance(pattern, sp.Function) and \
                not isinstance(pattern, sp.core.function.AppliedUndef) and \
                known.rhs is not None and pattern.args and \
                all(isinstance(a, sp.Symbol) for a in pattern.args):
            yield known


def written_out_names(library: Sequence[Known]) -> tuple[str, ...]:
    """The functions whose definitions a document may write out without their name
    (``softmax``, ``Attention``): a formula its words call so is held to the definition.
    Only names of three letters or more: ``H`` is a letter in words too, not a name."""
    return tuple(sorted({type(k.lhs).__name__ for k in itertools.chain(
        definitions_of_one(library), definitions_of_names(library))
        if len(type(k.lhs).__name__) >= 3}))


MAX_WRITTEN = 4
"""Arguments of a written-out definition tried in one relation."""


def definitions_of_one(library: Sequence[Known], name: str | None = None):
    """The claims' definitions ``F(z_i) = …`` of a function of one indexed argument (of
    ``name``, if given)."""
    for known in library:
        pattern = known.lhs
        if known.source in NAMING and isinstance(pattern, sp.Function) and \
                (name is None or type(pattern).__name__ == name) and len(pattern.args) == 1 \
                and isinstance(pattern.args[0], sp.Indexed) and known.rhs is not None \
                and len(pattern.args[0].indices) == 1:
            yield known


def _at(known: Known, argument: sp.Basic, written: sp.Basic):
    """``known``'s right side with ``z_i`` put as ``argument`` and each ``z_t`` as it at
    index t, for each index ``argument`` may run over (a name among its indices, or among
    a family's arguments: ``e_{ij}``, read as ``e(i, j)``), its sums over ``written``'s
    printed ranges."""
    indices = {i for e in argument.atoms(sp.Indexed) for i in e.indices
               if isinstance(i, sp.Symbol)}
    indices |= {a for f in argument.atoms(sp.core.function.AppliedUndef) for a in f.args
                if isinstance(a, sp.Symbol)}
    base, own = known.lhs.args[0].base, known.lhs.args[0].indices
    for index in sorted(indices, key=str):
        if {str(x) for x in argument.free_symbols - {index}} & _bound_names(known.rhs):
            continue   # a bound variable of the definition would capture a name
        rhs = known.rhs.replace(
            lambda e: isinstance(e, sp.Indexed) and e.base == base and len(e.indices) == 1,
            lambda e, index=index: argument if e.indices == own
            else argument.xreplace({index: e.indices[0]}))
        yield _over_printed_ranges(rhs, written)


def _over_printed_ranges(expr: sp.Basic, written: sp.Basic) -> sp.Basic:
    """``expr`` with each sum over an unprinted range (the claim's Σ_j: over all j) taken over
    the range the document prints for the same sum (Σ_{r=i−s}^{i−1}: the window it means):
    the document's sum of the same terms, else its one sum when each side has one (it stands
    where the claim's sum does, whatever it adds); other sums are left as they are."""
    if not isinstance(written, sp.Basic):
        return expr
    printed = [s for s in written.atoms(sp.Sum) if len(s.limits) == 1]

    unprinted = [e for e in expr.atoms(sp.Function) if type(e).__name__ == "SumOver"]

    def ranged(node: sp.Basic) -> sp.Basic:
        body, variable = node.args
        for candidate in printed:
            r = candidate.limits[0][0]
            if body.xreplace({variable: r}) == candidate.function:
                return candidate
        if len(printed) == 1 and len(unprinted) == 1:   # the one sum in its place, other terms
            r, low, high = printed[0].limits[0]
            return sp.Sum(body.xreplace({variable: r}), (r, low, high))
        return node

    return expr.replace(lambda e: type(e).__name__ == "SumOver" and len(e.args) == 2
                        and isinstance(e.args[1], sp.Symbol), ranged)


def _renamed_equivalent(read: Read, known: Known, apart: frozenset = frozenset()
                        ) -> tuple[bool, dict[str, str] | None]:
    """Whether ``read`` is equivalent to ``known`` once its free names are renamed in this
    formula alone (a formula's free variables are its own: p(i, 2j) = sin(i/10000^{2j/d})
    is the claim's PE(pos, 2i) = … with i, j, d renamed); and, when it is so only by a
    renaming of a name onto one the document keeps ``apart`` from it (√d_model onto the
    claim's √d_k, where the document says d_k = d_model/h), that renaming without those
    pairs: the claim's form in the document's names, which is its near form."""
    distinctive = _distinctive(read)
    shared = (read.names | read.functions) & (known.names | known.functions)
    if not shared and not distinctive:
        return False, None   # every name renamed: y = Wx "is" Q = XW_Q, no evidence
    # nor is a shared name moved onto another: S = QK "is" Q = XW_Q with Q → X, K → W_Q
    merged = None
    for pairs in _bijections(read, known, local=distinctive):
        renamed = form_of(read, pairs, known.lhs)
        if renamed is None or compare(renamed, known.form) != "equivalent":
            continue
        kept = {a: b for a, b in pairs.items() if frozenset((a, b)) not in apart
                or b in read.names | read.functions}   # b renamed too: a permutation
        if len(kept) == len(pairs):
            return True, None
        merged = kept if merged is None else merged
    return False, merged


def _structured(side: sp.Basic) -> bool:
    """More than a name or a function of names: renaming every name makes any f(x) the
    claim's P(i), but PE(pos, 2i)'s 2i must be there already (or the function is the
    claim's own, Attention(Q, K, V), and only its arguments are renamed)."""
    if isinstance(side, (sp.Symbol, sp.Indexed)):
        return False
    if isinstance(side, sp.Function):
        return any(not isinstance(a, (sp.Symbol, sp.Indexed)) for a in side.args)
    return True


def _distinctive(read: Read) -> bool:
    """Something in the relation besides names and their products and sums: a number other
    than 0, ±1 or 2 (``10000``), or a function applied (sin, softmax). Renaming every name of
    ``A W = W Σ`` makes it share a side with any ``Q = X W_Q``; that is no evidence that it
    means the claim's relation, and a near form needs evidence."""
    for side in (read.lhs, read.rhs):
        if not isinstance(side, sp.Basic):
            continue
        if any(abs(n) not in (0, 1, 2) for n in side.atoms(sp.Number)) or any(
                not isinstance(f, sp.core.function.AppliedUndef)
                for f in side.atoms(sp.Function)):
            return True   # a family read as a function, g_{t, t-1}, is still a name
    return False


def _named(read: Read, known: Known) -> bool:
    """Whether a bare name the relation shares with a claim's statement or definition counts
    as a shared side. In the notes a name is the notes' own; in another document ``M_{ij}``
    or ``v_t`` may be anything (a symmetric matrix, a momentum), so there it counts only
    with more evidence: a name qualified by a word (``y_{smooth}``, ``d_{model}``) or a
    relation with a number or function of its own (:func:`_distinctive`)."""
    if known.source not in NAMING:
        return False
    worded = any(len(name.partition("_")[2]) >= 3 and name.partition("_")[2].isalpha()
                 for name in read.names)
    return worded or _distinctive(read)


def _same_family(mine: sp.Basic, theirs: sp.Basic) -> bool:
    """Both sides are members of one named family, ``ω_k`` and ``ω_i``: the same quantity
    with its index named otherwise."""
    return isinstance(mine, sp.Indexed) and isinstance(theirs, sp.Indexed) and \
        mine.base.label == theirs.base.label


STRUCTURE = frozenset({"Transpose", "SumOver", "Inner"})
"""Operations the reader builds, not names: a formula without one of the claim's (``QK``
for ``QK^T``) still uses the claim's names, and is compared with its relation."""


_CLAIM_NAMES: dict[int, tuple[Sequence[Known], dict[str, frozenset[str]]]] = {}


def _claim_names(library: Sequence[Known]) -> dict[str, frozenset[str]]:
    """Every name each claim's relations use, by claim (kept for the last few libraries)."""
    kept = _CLAIM_NAMES.get(id(library))
    if kept is not None and kept[0] is library:
        return kept[1]
    names: dict[str, set[str]] = {}
    for known in library:
        names.setdefault(known.claim, set()).update(known.names)
    if len(_CLAIM_NAMES) >= 4:
        _CLAIM_NAMES.clear()
    _CLAIM_NAMES[id(library)] = (library, {c: frozenset(n) for c, n in names.items()})
    return _CLAIM_NAMES[id(library)][1]


def _spelling_pairs(names: frozenset[str], known: Known,
                    claimed: frozenset[str] | None = None) -> dict[str, str] | None:
    """The renaming that makes ``names`` the claim relation's names when each name differs
    only in spelling (one shortens the other: ``Attn``/``Attention``); None if there is none.
    A formula that uses only the claim's names but leaves out one of its functions (the FFN
    without its activation, a softmax without its exp) needs no renaming: ``{}``; so does one
    that adds only names the claim's other relations use (E[qᵀk] = d_k, where the claim has
    E[qᵀk] = 0 and Var(qᵀk) = d_k: ``claimed``)."""
    theirs_all = known.names | known.functions
    own, theirs = names - theirs_all, theirs_all - names - STRUCTURE
    if own and claimed and own <= claimed and not theirs:
        return {}
    if not own and theirs and theirs <= known.functions:
        return {}
    if len(own) != len(theirs):
        return None
    pairs = {}
    for name in own:
        options = [t for t in theirs if _shortens(name, t) or _shortens(t, name)]
        if len(options) != 1 or options[0] in pairs.values():
            return None
        pairs[name] = options[0]
    return pairs
