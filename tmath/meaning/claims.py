"""What a claim means, and whether each formula it records means it.

A claim's meanings are relations: its statement (``lhs relation value``, one per part), the
equations of its definitions and premises, and the steps its proof's kernel judged (a chain
``e₀ = e₁ ≤ e₂ …`` relates any two of its expressions). :func:`bind` reads a recorded formula
(:mod:`tmath.latex`, the claim's scalar names read as scalars, its ``notation`` substituted)
and compares each relation with them (:mod:`tmath.meaning.compare`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

import sympy as sp

from tmath.engine.results import FormulaMeaning
from tmath.latex import DEFAULT, Notation, read
from tmath.meaning.canonical import canonical, values
from tmath.meaning.compare import Form, compare, differing_point, proportional
from tmath.meaning.forms import canonical_form, form

_ORDER = {"=": 0, "<=": 1, "<": 1, ">=": -1, ">": -1}


@dataclass(frozen=True)
class Meaning:
    """A relation the claim proves or takes as given; ``source`` says which."""

    source: str       # statement, definition, premise
    form: Form
    shown: str


@dataclass(frozen=True)
class Chain:
    """The expressions of one chain of the proof and the relation between neighbours."""

    sides: tuple[tuple, ...]        # values of each expression
    relations: tuple[str, ...]

    def relates(self, mine: Form) -> bool:
        """``mine`` (lhs op rhs) follows from the chain: it is equivalent to ``e_i op e_j``
        for two of its expressions, related as the steps between them compose (the same
        pair, sides swapped, or terms moved across)."""
        for i, a in enumerate(self.sides):
            for j, b in enumerate(self.sides):
                if i == j or not _follows(self.relations, i, j, mine.op):
                    continue
                gap = tuple(None if x is None or y is None else y - x for x, y in zip(a, b))
                if proportional(mine.gap, gap, positive=mine.op != "="):
                    return True
        return False


def _follows(relations: Sequence[str], i: int, j: int, op: str) -> bool:
    """Whether e_i op e_j follows from the steps between positions i and j."""
    steps = relations[min(i, j):max(i, j)]
    directions = {_ORDER[r] for r in steps} - {0}
    if len(directions) > 1:
        return False
    direction = directions.pop() if directions else 0
    strict = any(r in ("<", ">") for r in steps)
    if i > j:
        direction = -direction
    if op == "=":
        return direction == 0
    return direction == 1 and (op == "<=" or strict)


@dataclass(frozen=True)
class ClaimMeanings:
    meanings: tuple[Meaning, ...]
    chains: tuple[Chain, ...]
    scalars: frozenset[str]
    notation: tuple[tuple[sp.Basic, sp.Basic], ...]
    known: tuple[tuple[sp.Symbol, tuple[sp.Basic, str]], ...] = ()
    """What the claim knows an atom to equal, and why (``statement``, ``premise``,
    ``definition``, ``lemma``: a claim it depends on). A formula is also compared after
    putting them in, inside other atoms too (as a document's derivation uses an earlier
    result, or a definition under an argmin)."""


def meanings_of(spec: Any, judged: Sequence[tuple[str, Any, str, Any]] = ()) -> ClaimMeanings:
    """The statement, definitions, premises and judged proof steps of ``spec``."""
    found: list[Meaning] = []
    objects: list[sp.Basic] = []
    facts: list[tuple[sp.Symbol, tuple[sp.Basic, str]]] = []
    statement = spec.statement
    for a, r, b in _parts(statement):
        found += _meaning("statement", a, r, b, objects)
        if r == "=":
            facts += _fact(a, b, "statement")
    for premise in (*getattr(spec, "definitions", ()), *spec.premises):
        source = "definition" if type(premise).__name__ == "Definition" else "premise"
        for a, b in getattr(premise, "equations", ()):
            found += _meaning(source, a, "=", b, objects)
            facts += _fact(a, b, source)
    for _, lemma in getattr(spec, "lemmas", ()):   # proved claims this one builds on
        for a, r, b in _parts(lemma):
            found += _meaning("lemma", a, r, b, objects)
            if r == "=":
                facts += _fact(a, b, "lemma")
    chains = _chains(judged, objects, _instance(statement), dict(facts))
    notation = []
    for printed, obj in getattr(spec, "notation", ()):
        reading = read(printed)
        if reading.parsed and len(reading.expressions) == 1:
            notation.append((reading.expressions[0], sp.sympify(obj, strict=True)))
            objects.append(sp.sympify(obj, strict=True))
    scalars = frozenset(s.name for o in objects if isinstance(o, sp.Basic)
                        for s in o.free_symbols if s.is_commutative)
    return ClaimMeanings(tuple(found), chains, scalars, tuple(notation), tuple(facts))


def _parts(statement: Any) -> list[tuple[Any, str, Any]]:
    """A statement's (lhs, relation, value) parts; none without a symbolic lhs."""
    if statement.lhs is None or statement.value is None:
        return []
    lhs = statement.lhs if isinstance(statement.lhs, tuple) else (statement.lhs,)
    value = statement.value if isinstance(statement.lhs, tuple) else (statement.value,)
    relation = statement.relation if isinstance(statement.relation, tuple) \
        else (statement.relation,) * len(lhs)
    return list(zip(lhs, relation, value))


def _fact(lhs: Any, rhs: Any, why: str) -> list[tuple[sp.Symbol, tuple[sp.Basic, str]]]:
    """``lhs = rhs`` as a known atom (only a compound lhs: never a bare name)."""
    try:
        a, b = canonical(sp.sympify(lhs, strict=True)), canonical(sp.sympify(rhs, strict=True))
    except Exception:
        return []
    if isinstance(a, sp.Symbol) and a.name.startswith("⟪") and not b.has(a):
        return [(a, (b, why))]
    return []


def _meaning(source: str, lhs: Any, relation: str, rhs: Any, objects: list) -> list[Meaning]:
    try:
        a, b = sp.sympify(lhs, strict=True), sp.sympify(rhs, strict=True)
    except (sp.SympifyError, TypeError):
        return []
    objects += [a, b]
    made = form(a, relation, b)
    return [Meaning(source, made, f"{sp.sstr(a)} {relation} {sp.sstr(b)}")] if made else []


def _instance(statement: Any) -> dict:
    """A statement ``c = value`` about a bare symbol: its chains hold for every c, so also at
    c = value (``Var(c·qᵀk) − 1`` at c = 1/√d_k is a formula about the scaled score)."""
    lhs, value = statement.lhs, statement.value
    if isinstance(lhs, sp.Symbol) and statement.relation == "=" and isinstance(value, sp.Expr) \
            and lhs not in value.free_symbols:
        return {lhs: value}
    return {}


def _chains(judged, objects: list, instance: dict, facts: dict) -> tuple[Chain, ...]:
    by_chain: dict[str, list] = {}
    for label, lhs, relation, rhs in judged:
        steps = by_chain.setdefault(label, [])
        if steps and steps[-1][2] is not lhs and steps[-1][2] != lhs:
            steps.append(None)   # a chain that restarted: keep its pieces apart
        steps.append((lhs, relation, rhs))
    chains = []
    for steps in by_chain.values():
        pieces, current = [], []
        for step in steps:
            if step is None:
                pieces.append(current)
                current = []
            else:
                current.append(step)
        pieces.append(current)
        for piece in pieces:
            if not piece:
                continue
            exprs = [piece[0][0], *(s[2] for s in piece)]
            if not all(isinstance(e, sp.Expr) for e in exprs):
                continue
            objects += exprs
            try:
                sides = tuple(values(canonical(e)) for e in exprs)
            except (TypeError, ValueError, RecursionError):
                continue
            relations = tuple(s[1] for s in piece)
            chains.append(Chain(sides, relations))
            variants = [[canonical(e.xreplace(instance)) for e in exprs]] if instance else []
            if facts:
                variants += [[canonical(e, facts) for e in exprs]]
            for variant in variants:
                chains.append(Chain(tuple(values(e) for e in variant), relations))
    return tuple(chains)


def bind(formula: str, claim: ClaimMeanings, notation: Notation = DEFAULT) -> FormulaMeaning:
    """Read ``formula`` and compare each of its relations with what the claim means."""
    reading = read(formula, _scalars_read_as_scalars(notation, claim.scalars))
    if not reading.parsed:
        return FormulaMeaning(formula, "unparsed", detail=reading.reason)
    if not reading.relations:
        return FormulaMeaning(formula, "not-compared", detail="no relation in it (an expression)")
    bound, problems = [], []
    for relation in reading.relations:
        lhs, rhs = (_substitute(side, claim.notation) for side in (relation.lhs, relation.rhs))
        mine = form(lhs, relation.op, rhs)
        if mine is None:
            bound.append("")
            problems.append(f"{relation}: a relation ({relation.op}) not compared")
            continue
        source, against = _bound(mine, claim)
        if source in ("", "contradicts") and claim.known:   # known equalities may show it is
            used: set[str] = set()                           # the same after all
            under = form(lhs, relation.op, rhs, dict(claim.known), used)
            found = _bound(under, claim) if under is not None and used else ("", None)
            if found[0] not in ("", "contradicts"):
                source, against = found
                if source == "arithmetic":   # an identity once they are in: say which
                    source = "+".join(sorted(used))
        if source == "contradicts":
            detail = (f"{relation} contradicts the claim's {against.source} "
                      f"{against.shown} ({differing_point(mine, against.form)})")
            return FormulaMeaning(formula, "contradicts", tuple(bound) + ("",), detail)
        bound.append(source)
        if not source:
            problems.append(f"{relation}: no statement, definition, premise or step means it")
    meaning = "equivalent" if all(bound) else "not-compared"
    return FormulaMeaning(formula, meaning, tuple(bound), "; ".join(problems))


def _bound(mine: Form, claim: ClaimMeanings) -> tuple[str, Any]:
    """What ``mine`` is equivalent to; or ("contradicts", the meaning); or ("", None)."""
    if mine.identity:
        return "arithmetic", None
    near = None
    for meaning in claim.meanings:
        verdict = compare(mine, meaning.form, named=meaning.source in ("statement", "definition"))
        if verdict == "equivalent":
            return meaning.source, meaning
        if verdict == "contradicts" and near is None:
            near = meaning
    if any(chain.relates(mine) for chain in claim.chains):
        return "step", None
    if near is not None:
        return "contradicts", near
    return "", None


def _scalars_read_as_scalars(notation: Notation, scalars: frozenset[str]) -> Notation:
    """Names the claim uses as scalars are not matrices in its formulas (K, a count)."""
    matrices = notation.matrices - scalars
    return notation if matrices == notation.matrices else replace(notation, matrices=matrices)


def _substitute(side: sp.Basic, pairs: Sequence[tuple[sp.Basic, sp.Basic]]) -> sp.Basic:
    """The claim's objects put for the LaTeX its notation names, all at once (an object put
    in is never rewritten by another entry); an entry found only inside a product then by
    SymPy's ``subs``. A substitution SymPy refuses leaves the side as read."""
    # a key read alone may differ from the formula in which names are matrices: the key
    # takes the formula's own symbols of each name (as read, before anything is put in)
    names = {a.name: a for a in side.atoms(sp.Symbol)}
    keys = [(printed.xreplace({a: names[a.name] for a in printed.atoms(sp.Symbol)
                               if a.name in names}), obj) for printed, obj in pairs]
    try:
        replaced = side.xreplace(dict(keys))
    except Exception:
        return side
    for printed, obj in keys:
        if not side.has(printed) and side.has(*printed.free_symbols) \
                and replaced.has(*printed.free_symbols):
            try:
                replaced = replaced.subs(printed, obj)
            except Exception:
                pass
    return replaced
