"""The trusted core of tmath's proofs: judgements ``A R B`` that only this module makes.

As in an LCF prover (HOL Light's ``thm``, Lean's kernel), a :class:`Judgement` is sealed: the
functions of this module are the only inferences, and everything else (chains, rules, Moments,
induction, cases, ``root``, ``conclude``) builds on them. A judgement says ``lhs R rhs`` for
every value of its free symbols that their assumptions allow, R one of ``= ≤ < ≥ >``.

The inferences, and what each trusts:

* :func:`reflexivity`, :func:`symmetry`, :func:`transitivity` (the relation algebra:
  = then < is <; ≤ then ≤ is ≤; ≤ then ≥ gives nothing).
* :func:`rewrite`: SymPy reduces the difference to zero (:mod:`~tmath.engine.equality`) or
  decides its sign (:mod:`~tmath.engine.decide`), and random points of the symbols' domains
  agree (:mod:`~tmath.engine.numeric`).
* :func:`evaluation`: an unevaluated operator (sum, integral, derivative, limit) is replaced
  by the value SymPy computes for it *where it stands*; checked at random points.
* :func:`congruence` and :func:`under`: equals put for equals inside a term, and a relation
  carried under a derivative, limit, sum or integral (never capturing a bound variable,
  never leaving the domain the relation holds on).
* :func:`rule_instance`, :func:`rule_bound`: a vetted rule with its side conditions checked on
  the instance; a claim-local rule is an assumption the result rests on.
* :func:`premise`: an equation of a declared premise, itself checked (see there).
* :func:`lemma_instance`: a claim this one builds on, instantiated only where the instance
  satisfies the assumptions of the lemma's symbols.
* :func:`root`, :func:`minimizer`, :func:`hypothesis`, :func:`induction`.
* :func:`conclude` makes a :class:`Theorem`, and :func:`level` is the only place a proof is
  called ``proved``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import sympy as sp
from sympy.core.function import AppliedUndef

from tmath.engine import decide, numeric
from tmath.engine.equality import SIMPLIFIERS, SYMPY_FAILURES, same, term
from tmath.engine.equality import decide as decide_equal

RELATIONS = ("=", "<=", "<", ">=", ">")
SHOWN = {"=": "=", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}
_MINTING = contextvars.ContextVar("tmath_kernel_minting", default=False)
_VETTED = object()  # held by the engine's rule library (tmath.engine.rules.library_rule)
_VETTING = contextvars.ContextVar("tmath_kernel_vetting", default=False)
_HYPOTHESES = itertools.count()
OPERATORS = (sp.Sum, sp.Product, sp.Integral, sp.Derivative, sp.Limit)
HYPOTHESES = ("integer", "real", "positive", "negative", "nonnegative", "nonpositive",
              "nonzero", "even", "odd", "finite")
"""The assumptions of a lemma's symbols that an instance must be shown to satisfy."""


class Rejected(Exception):
    """An inference whose conditions do not hold: the step fails, with this reason."""


@dataclass(frozen=True)
class Rule:
    """A named rewrite. Made by a claim it is *claim-local*: usable only when the claim declares
    its name as a premise, and the result rests on it. Made by the engine's library
    (:func:`tmath.engine.rules.library_rule`) it is *vetted*: ``apply`` checks its side
    conditions, ``validate`` compares before and after on random instances, and ``bounds``
    (for an inequality rule) says what is wrong with a claimed relation."""

    name: str
    apply: Callable[[Any], Any]
    validate: Callable[[Any, Any], str | None] | None = field(default=None, compare=False)
    token: object = field(default=None, compare=False, repr=False)
    bounds: Callable[[Any, str], str | None] | None = field(default=None, compare=False)
    premise: str | None = field(default=None, compare=False)
    """What a vetted rule assumes of the claim's random variables (independence, a law): the
    text of the declared premise that says so, or the result rests on it."""

    def __post_init__(self) -> None:
        if self.token is _VETTED and not _VETTING.get():  # dataclasses.replace copies it
            raise TypeError("a vetted Rule is made only by tmath.engine.kernel.vetted_rule "
                            "(through the engine's rule library)")

    @property
    def vetted(self) -> bool:
        return self.token is _VETTED


def vetted_rule(name: str, apply: Callable[[Any], Any], validate: Any = None,
                bounds: Any = None, premise: str | None = None) -> Rule:
    """A rule of the engine's library (:func:`tmath.engine.rules.library_rule`), the only
    way to make one: a vetted rule cannot be copied with another ``apply``."""
    token = _VETTING.set(True)
    try:
        return Rule(name, apply, validate, _VETTED, bounds, premise)
    finally:
        _VETTING.reset(token)


@dataclass(frozen=True)
class Judgement:
    """``lhs relation rhs``, made only by this module's inferences."""

    lhs: Any
    relation: str
    rhs: Any
    inference: str
    """Which inference made the last step (``rewrite``, ``evaluation``, ``rule``, …)."""
    detail: str = ""
    rests_on: frozenset[str] = frozenset()
    """Assumptions: claim-local rules, undecided premises, hypotheses not yet discharged."""
    cases: frozenset[str] = frozenset()
    """Instances it is proved for only (a premise pinned a free symbol of the statement)."""
    points: int = 0
    """Random points at which the last step was also checked numerically (0: SymPy only)."""
    particular: frozenset = frozenset()
    """Symbols it is about a particular value of (a premise defining or pinning a bare
    symbol, an induction hypothesis): never put where a binder captures one of them."""
    constraints: frozenset = frozenset()
    """The premise equations between plain symbols it used (``n = z``, ``z = 3``): together
    they may pin a symbol of the statement, which :func:`conclude` looks at."""

    def __post_init__(self) -> None:
        _sealed("a Judgement is made only by the inferences of tmath.engine.kernel")


def _sealed(message: str) -> None:
    """Refuse a construction outside :func:`_minted` (a call, ``dataclasses.replace``, …)."""
    if not _MINTING.get():
        raise TypeError(message)


@contextlib.contextmanager
def _minted():
    token = _MINTING.set(True)
    try:
        yield
    finally:
        _MINTING.reset(token)


def _make(lhs: Any, relation: str, rhs: Any, inference: str, *sources: Judgement,
          **fields: Any) -> Judgement:
    fields.setdefault("rests_on", frozenset().union(*(s.rests_on for s in sources)))
    fields.setdefault("cases", frozenset().union(*(s.cases for s in sources)))
    fields.setdefault("particular", frozenset().union(*(s.particular for s in sources)))
    fields.setdefault("constraints", frozenset().union(*(s.constraints for s in sources)))
    with _minted():
        return Judgement(term(lhs), relation, term(rhs), inference, **fields)


# -- the relation algebra ---------------------------------------------------------------------

def compose(first: str, second: str) -> str | None:
    """The relation of ``x first y second z`` between x and z, or None (≤ then ≥)."""
    if first == "=" or second == "=":
        return second if first == "=" else first
    if first[0] != second[0]:
        return None
    return first[0] + ("=" if first.endswith("=") and second.endswith("=") else "")


def implies(derived: str, stated: str) -> bool:
    """Does ``x derived y`` give ``x stated y``? (< gives ≤; = gives ≤ and ≥, never <.)"""
    return derived == stated or (stated in ("<=", ">=") and derived in ("=", stated[0]))


def reflexivity(expr: Any) -> Judgement:
    return _make(expr, "=", expr, "reflexivity")


def symmetry(j: Judgement) -> Judgement:
    flipped = {"=": "=", "<=": ">=", ">=": "<=", "<": ">", ">": "<"}[j.relation]
    return _make(j.rhs, flipped, j.lhs, j.inference, j, detail=j.detail, points=j.points)


def transitivity(first: Judgement, second: Judgement) -> Judgement:
    if not same(first.rhs, second.lhs):
        raise Rejected("the steps do not meet: one ends where the next does not start")
    relation = compose(first.relation, second.relation)
    if relation is None:
        raise Rejected(f"{SHOWN[first.relation]} then {SHOWN[second.relation]} gives no relation")
    return _make(first.lhs, relation, second.rhs, second.inference, first, second,
                 detail=second.detail, points=second.points)


# -- SymPy-checked steps ----------------------------------------------------------------------

def rewrite(a: Any, b: Any, relation: str = "=", method: str = "simplify",
            seed: int = 0) -> Judgement:
    """``a R b``: SymPy reduces ``a − b`` to zero (R is =) or decides its sign, and random
    points agree."""
    if relation not in RELATIONS:
        raise Rejected(f"unknown relation {relation!r}")
    if relation == "=":
        ok, detail, used, points = decide_equal(a, b, method, seed)
        if not ok:
            raise Rejected(detail)
        return _make(a, "=", b, "rewrite", detail=f"SymPy {used}", points=points)
    a, b = term(a), term(b)
    try:
        ok, detail, points = decide.sign_decision(a, b, relation)
    except SYMPY_FAILURES as exc:
        ok, detail, points = False, f"SymPy could not decide the sign ({type(exc).__name__})", 0
    if not ok:
        raise Rejected(detail)
    return _make(a, relation, b, "rewrite", detail="SymPy sign", points=points)


def evaluation(expr: Any, method: str = "simplify", seed: int = 0) -> Judgement:
    """``expr`` = its unevaluated operators replaced by the values SymPy computes for them
    where they stand (a top-level limit by :mod:`tmath.engine.limits`), then simplified by
    ``method`` (an equivalence SymPy trusts, as for a rewrite; ``none`` leaves the result as
    ``doit`` gives it); checked at random points."""
    from tmath.engine import limits

    expr = term(expr)
    kink = _kink(expr)
    if kink:
        raise Rejected(kink)
    try:
        if isinstance(expr, sp.Limit):
            body, variable, point, direction = expr.args
            result, how = limits.limit(body, variable, point, str(direction))
            problem, points = limits.cross_check(body, variable, point, str(direction), result)
        else:
            result = SIMPLIFIERS[method](expr.doit())
            how = "SymPy doit" if method == "none" else f"SymPy doit + {method}"
            problem, points = numeric.disagreement(expr, result, seed=seed)
    except SYMPY_FAILURES as exc:
        raise Rejected(f"SymPy could not evaluate ({type(exc).__name__}: {exc})") from None
    except limits.LimitUnknown as exc:
        raise Rejected(str(exc)) from None
    if problem:
        raise Rejected(f"SymPy's evaluation is wrong: {problem}")
    if same(result, expr) or isinstance(expr, sp.Limit) and result.has(sp.Limit):
        raise Rejected("SymPy could not evaluate it")
    inference = "evaluation" if expr.has(*OPERATORS) else "rewrite"
    return _make(expr, "=", result, inference, detail=how, points=points)


def _kink(expr: sp.Basic) -> str | None:
    """Why a derivative in ``expr`` may not exist everywhere, or None: its function holds a
    kink or jump (|x|, max, a piecewise definition, …) in the variable, where SymPy's
    formula (sign x, Heaviside x) gives a value to a derivative that has none."""
    for derivative in expr.atoms(sp.Derivative):
        variables = {v for v, _ in derivative.variable_count}
        for node in sp.preorder_traversal(derivative.expr):
            if isinstance(node, decide.NOT_SMOOTH) and node.free_symbols & variables:
                return (f"{node} is not differentiable everywhere in "
                        f"{', '.join(map(str, variables))}: the derivative is not shown to exist")
    return None


# -- equals for equals ------------------------------------------------------------------------

def _bound_symbols(node: sp.Basic) -> set:
    if isinstance(node, (sp.Sum, sp.Product, sp.Integral)):
        return {limit[0] for limit in node.limits}
    if isinstance(node, sp.Derivative):
        return {v for v, _ in node.variable_count}
    if isinstance(node, sp.Limit):
        return {node.args[1]}
    if isinstance(node, (sp.Lambda, sp.Subs)):
        return set(node.variables)
    return set()


def _replace(expr: sp.Basic, pairs: list[Judgement]) -> sp.Basic:
    """``expr`` with each judgement's lhs put for its rhs (all at once) wherever it occurs:
    never where a binder captures one of a judgement's symbols, unless the judgement is
    general and the binder's range lies in the symbol's domain."""
    for j in pairs:
        if same(expr, j.lhs):
            return j.rhs
    if not expr.args:
        return expr
    for j in pairs:
        captured = _bound_symbols(expr) & (j.lhs.free_symbols | j.rhs.free_symbols)
        if not captured or not expr.has(j.lhs):
            continue
        if captured & j.particular:
            raise Rejected(f"{', '.join(map(str, captured))} is bound here, and the equation "
                           f"{j.lhs} = {j.rhs} is about a particular value of it")
        for limit in getattr(expr, "limits", ()):
            if limit[0] in captured and not _range_within(*limit):
                raise Rejected(f"the range of {limit[0]} leaves the domain the equation holds on")
        if isinstance(expr, sp.Subs) and any(v in captured and not _satisfies(at, v)
                                             for v, at in zip(expr.variables, expr.point)):
            raise Rejected("the point substituted leaves the domain the equation holds on")
    args = [_replace(a, pairs) if isinstance(a, sp.Basic) else a for a in expr.args]
    return expr.func(*args) if any(x is not y for x, y in zip(args, expr.args)) else expr


def _range_within(symbol: sp.Symbol, *ends: Any) -> bool:
    """Does every value a binder gives ``symbol`` lie in its declared domain? A sum from a to
    b takes a..b, or b+1..a−1 when reversed (Karr's convention): for a domain bounded below,
    a and b+1 must lie in it (bounded above: b and a−1)."""
    if len(ends) != 2:
        return not (symbol.is_positive or symbol.is_nonnegative or symbol.is_negative
                    or symbol.is_nonpositive or symbol.is_integer)
    low, high = map(term, ends)
    upward = not (symbol.is_negative or symbol.is_nonpositive)
    edges = (low, high + 1) if upward else (high, low - 1)
    return all(_satisfies(edge, symbol) for edge in edges)


def congruence(equations: Judgement | Iterable[Judgement], context: Any) -> Judgement:
    """``context = context[lhs := rhs]`` from equations ``lhs = rhs`` (put in all at once)."""
    pairs = [equations] if isinstance(equations, Judgement) else list(equations)
    if not pairs or any(j.relation != "=" for j in pairs):
        raise Rejected("only equations can be substituted inside a term")
    context = term(context)
    result = _replace(context, pairs)
    if result == context:
        raise Rejected(f"{', '.join(str(j.lhs) for j in pairs)} does not occur here")
    last = pairs[-1]
    return _make(context, "=", result, last.inference, *pairs, detail=last.detail,
                 points=min(j.points for j in pairs))


def assumption(text: str, lhs: Any, rhs: Any, why: str = "") -> Judgement:
    """``lhs = rhs`` taken on trust from ``text`` (a premise without equations, an undeclared
    one, a claim whose statement is not known here): the result rests on it."""
    lhs = term(lhs)
    return _make(lhs, "=", rhs, "assumption", detail=why or text, rests_on=frozenset({text}),
                 particular=frozenset({lhs} if isinstance(lhs, sp.Symbol) else ()))


def under(j: Judgement, operator: str, *args: Any) -> Judgement:
    """Carry ``a R b`` under an operator: ``Op(a) R' Op(b)``. A derivative, sum or integral
    needs an equation; a limit also keeps ≤ and ≥ (a strict bound becomes non-strict)."""
    if args and args[0] in j.particular:
        raise Rejected(f"the equation is about a particular value of {args[0]}")
    if operator == "limit":
        variable, point, direction = args
        problem = _approach_outside(variable, term(point), str(direction))
        if problem:
            raise Rejected(problem)
        wrap = lambda e: sp.Limit(e, variable, point, direction)  # noqa: E731
        relation = j.relation if j.relation == "=" else j.relation[0] + "="
        if relation != "=":  # a bound passes to the limit only where the left side has one
            _limit_exists(j.lhs, variable, point, direction)
    elif j.relation != "=":
        raise Rejected(f"a {operator} of both sides keeps only an equation")
    elif operator == "diff":
        variable, times = args
        if variable.is_integer:
            raise Rejected(f"{variable} is a whole number: there is no derivative in it")
        wrap, relation = (lambda e: sp.Derivative(e, (variable, times))), "="  # noqa: E731
    elif operator in ("sum", "integral"):
        kind = sp.Sum if operator == "sum" else sp.Integral
        for limit in args:  # the equation holds on its symbols' domains, the range must too
            inside = _range_within(*limit) if operator == "sum" else all(
                _end_within(end, limit[0]) for end in limit[1:])
            if not inside:
                raise Rejected(f"the range of {limit[0]} leaves the domain the equation holds on")
        wrap, relation = (lambda e: kind(e, *args)), "="  # noqa: E731
    else:
        raise Rejected(f"unknown operator {operator!r}")
    return _make(wrap(j.lhs), relation, wrap(j.rhs), "congruence", j)


def _approach_outside(variable: sp.Symbol, point: sp.Basic, direction: str) -> str | None:
    """Why ``variable → point`` (from ``direction``) leaves the domain the equation holds on,
    or None: the point must lie in the domain's closure, be reached from inside it (0 only
    from above for a positive variable), and a whole-number variable has limits at ±∞ only."""
    if variable.is_integer and point not in (sp.oo, -sp.oo):
        return f"{variable} is a whole number: it tends to ±∞ only"
    below = variable.is_positive or variable.is_nonnegative
    above = variable.is_negative or variable.is_nonpositive
    if not _end_within(point, variable) or point == 0 and (
            below and direction != "+" or above and direction != "-"):
        return (f"{variable} → {point} ({direction}) leaves the domain of {variable}, where "
                "the equation holds")
    return None


def _end_within(end: Any, symbol: sp.Symbol) -> bool:
    """An end of an integral over ``symbol``: inside its domain's closure (or ±∞ there)."""
    end = term(end)
    if symbol.is_positive or symbol.is_nonnegative:
        return end == sp.oo or end.is_nonnegative is True
    if symbol.is_negative or symbol.is_nonpositive:
        return end == -sp.oo or end.is_nonpositive is True
    return not symbol.is_real or end in (sp.oo, -sp.oo) or end.is_real is True


def _limit_exists(expr: Any, variable: sp.Symbol, point: Any, direction: str) -> None:
    from tmath.engine import limits

    try:
        found, _ = limits.limit(expr, variable, point, direction)
    except (limits.LimitUnknown, *SYMPY_FAILURES) as exc:
        raise Rejected(f"the limit of {expr} is not shown to exist ({exc})") from None
    if not found.is_finite and found not in (sp.oo, -sp.oo):
        raise Rejected(f"the limit of {expr} is not shown to exist")


# -- rules, premises, lemmas ------------------------------------------------------------------

def rule_instance(rule: Rule, expr: Any, declared: bool = False,
                  premises: Iterable[str] = ()) -> Judgement:
    """``expr = rule(expr)``: a vetted rule checks its side conditions (and, with ``validate``,
    random instances), and rests on what it assumes of the random variables unless that is
    one of the claim's declared ``premises``; a claim-local rule must be ``declared`` and is
    assumed."""
    if not rule.vetted and not declared:
        raise Rejected(f"rule {rule.name!r} is neither vetted nor a declared premise")
    expr = term(expr)
    result = rule.apply(expr)  # raises when a side condition fails
    if same(result, expr):
        raise Rejected("the rule changes nothing here")
    problem = rule.validate(expr, result) if rule.validate is not None else None
    if problem:
        raise Rejected(problem)
    rests = frozenset() if rule.vetted else frozenset({f"rule: {rule.name}"})
    if rule.premise is not None and rule.premise not in set(premises):
        rests |= {f"premise: {rule.premise} (not a declared premise of the claim)"}
    return _make(expr, "=", result, "rule", detail=rule.name, rests_on=rests)


def rule_bound(rule: Rule, expr: Any, target: Any, relation: str) -> Judgement:
    """``expr R target`` by an inequality rule (log t ≤ t − 1), checked where it stands."""
    if rule.bounds is None or relation not in ("<=", ">="):
        raise Rejected(f"rule {rule.name!r} does not give {SHOWN.get(relation, relation)}")
    j = rule_instance(rule, expr, declared=True)
    if not (same(j.rhs, target) or decide_equal(j.rhs, target)[0]):
        raise Rejected(f"the rule gives {j.rhs}, not {target}")
    problem = rule.bounds(term(expr), relation)
    if problem:
        raise Rejected(problem)
    return _make(expr, relation, target, "rule", j, detail=rule.name)


def _opaque(expr: sp.Basic) -> bool:
    """Does ``expr`` hold what SymPy cannot compute: entries, matrices, undefined functions
    or functions defined outside SymPy (E, Var)?"""
    return bool(expr.atoms(AppliedUndef, sp.Indexed, sp.MatrixSymbol, sp.IndexedBase)) or any(
        not (type(f).__module__ or "").startswith("sympy.") for f in expr.atoms(sp.Function))


def premise(text: str, equations: Iterable[tuple[Any, Any]], lhs: Any, rhs: Any,
            statement: Iterable[tuple[Any, Any]] = ()) -> Judgement:
    """``lhs = rhs``, an equation of the declared premise ``text``. Checked: it must be one of
    the premise's equations; one SymPy can compute (an operator, or no free symbols) must be
    true, and rests on the premise while SymPy cannot show it; one that restates a part of
    the ``statement`` rests on the premise; one that pins a free symbol of the statement to
    a constant proves only that case."""
    lhs, rhs = term(lhs), term(rhs)
    if not any(same(k, lhs) and (same(v, rhs) or decide_equal(v, rhs)[0])
               for k, v in map(lambda e: (term(e[0]), term(e[1])), equations)):
        raise Rejected(f"premise {text!r} does not say {lhs} = {rhs}")
    rests, cases = set(), set()
    statement = [(term(a), term(b)) for a, b in statement]
    if any(same(a, lhs) and decide_equal(b, rhs)[0] or same(a, rhs) and decide_equal(b, lhs)[0]
           for a, b in statement):
        rests.add(f"premise: {text} (it restates the statement)")
    symbols = set().union(*(a.free_symbols | b.free_symbols for a, b in statement))
    for name, value in ((lhs, rhs), (rhs, lhs)):
        if isinstance(name, sp.Symbol) and name in symbols and not value.free_symbols:
            cases.add(f"{name} = {value}")
    computable = not (_opaque(lhs) or _opaque(rhs)) and (
        lhs.has(*OPERATORS) or rhs.has(*OPERATORS) or not (lhs.free_symbols | rhs.free_symbols))
    if computable and not cases:
        ok, detail, _, _ = decide_equal(lhs, rhs)
        if not ok and not detail.startswith("SymPy"):
            raise Rejected(f"premise {text!r} is false: {lhs} = {rhs} ({detail})")
        if not ok:
            rests.add(f"premise: {text} (SymPy cannot show {lhs} = {rhs})")
    plain = not (_opaque(lhs) or _opaque(rhs) or lhs.has(*OPERATORS) or rhs.has(*OPERATORS)
                 or isinstance(lhs, (sp.Tuple, sp.MatrixBase)))
    constraint = frozenset({(lhs, rhs)}) if plain and (lhs.free_symbols | rhs.free_symbols) \
        and not any(isinstance(e, (sp.core.relational.Relational, sp.logic.boolalg.BooleanAtom))
                    for e in (lhs, rhs)) else frozenset()
    return _make(lhs, "=", rhs, "premise", detail=text, rests_on=frozenset(rests),
                 cases=frozenset(cases), constraints=constraint,
                 particular=frozenset({lhs} if isinstance(lhs, sp.Symbol) else ()))


def _satisfies(image: Any, symbol: Any) -> bool:
    """Does ``image`` provably have every assumption of ``symbol`` (a symbol, an indexed
    base or entry) that an instance needs?"""
    image = term(image)
    return all(getattr(image, f"is_{name}", None) is True
               for name in HYPOTHESES if getattr(symbol, f"is_{name}", None) is True)


def lemma_instance(claim_id: str, lhs: Any, relation: str, value: Any,
                   instance: dict, rests_on: Iterable[str] = ()) -> Judgement:
    """``lhs σ R value σ`` from a claim this one builds on (``lhs R value``, for every value of
    its symbols their assumptions allow). Each σ(s) must satisfy s's assumptions; a lemma
    is about its left side, which is never put for something else."""
    lhs, value = term(lhs), term(value)
    sigma = {term(k): term(v) for k, v in instance.items() if not same(k, v)}
    if isinstance(lhs, sp.Symbol) and sigma:
        raise Rejected(f"claim {claim_id} is about the symbol {lhs}, whose meaning may depend "
                       "on the others: it has no instances")
    for key, image in sigma.items():
        if same(key, lhs):
            raise Rejected(f"claim {claim_id} is about {key}; it cannot be put for something else")
        if not _satisfies(image, key):
            wanted = [n for n in HYPOTHESES if getattr(key, f"is_{n}", None)]
            raise Rejected(f"claim {claim_id} holds for {key} {', '.join(wanted)}; "
                           f"{image} is not shown to be")
        problem = _not_an_instance(key, image, (lhs, value))
        if problem:
            raise Rejected(f"claim {claim_id}: {problem}")
    return _make(lhs.xreplace(sigma), relation, value.xreplace(sigma), "lemma",
                 detail=f"claim {claim_id}", rests_on=frozenset(rests_on))


def _not_an_instance(key: Any, image: Any, terms: tuple) -> str | None:
    """Why putting ``image`` for ``key`` in ``terms`` is not an instance, or None: a bound
    variable is no parameter; an image may not bring in a variable a binder of the terms would
    capture (x ↦ i in Σ_i x), unless the key holds it too (x[i] ↦ g[i]² in Σ_i x[i]); and an
    entry x[i] stands for its whole base only where x occurs with no other indices."""
    binders = [n for t in terms for n in sp.preorder_traversal(t)
               if isinstance(n, (sp.Sum, sp.Product, sp.Integral, sp.Limit, sp.Lambda))]
    bound = set().union(*(_bound_symbols(n) for n in binders))
    if key in bound:
        return f"{key} is a bound variable, not a parameter"
    captured = (term(image).free_symbols & bound) - term(key).free_symbols
    if captured:
        return f"{image} would be captured by the bound {', '.join(map(str, captured))}"
    if isinstance(key, sp.Indexed):
        others = {e for t in terms for e in t.atoms(sp.Indexed) if e.base == key.base} - {key}
        if others:
            return (f"{key.base} also occurs as {sorted(others, key=str)[0]}: an entry "
                    f"{key} cannot stand for the whole of {key.base}")
    return None


# -- roots and induction ----------------------------------------------------------------------

def root(name: Any, equation: Any, variable: sp.Symbol) -> Judgement:
    """``name = r`` where ``name`` is defined as the one solution of ``equation = 0`` for
    ``variable`` in its domain: the equation must contain the variable, and uniqueness is
    shown (:func:`tmath.engine.decide.unique_root`); for the parameters where a factor of
    the equation free of the variable may vanish, every value is a root, so the judgement
    holds only for the cases where none does (:func:`~tmath.engine.decide.root_conditions`)."""
    equation = term(equation)
    if not equation.has(variable):
        raise Rejected(f"the equation does not contain {variable}")
    found, how = decide.unique_root(equation, variable)
    if found is None:
        raise Rejected(how)
    return _make(name, "=", found, "root", detail=how,
                 cases=frozenset(decide.root_conditions(equation, variable)))


def minimizer(name: Any, objective: Any, variable: sp.Symbol) -> Judgement:
    """``name = r``, the minimizer of a convex ``objective`` (f'' ≥ 0 on the domain): its only
    critical point."""
    objective = term(objective)
    convex, why = decide.sign_holds(sp.diff(objective, variable, 2), 0, ">=")
    if not convex:
        raise Rejected(f"cannot show the objective is convex in {variable}: {why}")
    j = root(name, sp.diff(objective, variable), variable)
    return _make(name, "=", j.rhs, "minimizer", j, detail=f"convex; {j.detail}")


def hypothesis(lhs: Any, value: Any, variable: sp.Symbol) -> Judgement:
    """The induction hypothesis ``lhs(n) = value(n)``: it rests on a token that only
    :func:`induction` discharges."""
    token = f"induction hypothesis #{next(_HYPOTHESES)}: {term(lhs)} = {term(value)}"
    return _make(lhs, "=", value, "hypothesis", rests_on=frozenset({token}),
                 particular=frozenset({variable}))


def induction(variable: sp.Symbol, first: Any, base: Judgement, step: Judgement,
              assumed: Judgement) -> Judgement:
    """``lhs(n) = value(n)`` for every whole n ≥ first, from the base case at ``first`` and a
    step ``lhs(n+1) = value(n+1)`` that rests on the hypothesis ``assumed``."""
    (token,) = assumed.rests_on
    lhs, value = assumed.lhs, assumed.rhs
    if not variable.is_integer:
        raise Rejected(f"induction needs a whole-number variable: declare {variable} integer")
    if not term(first).is_integer:  # steps of 1 from ½ never reach a whole number
        raise Rejected(f"induction must start at a whole number, not at {first}")
    at = lambda e, v: e.xreplace({variable: v})  # noqa: E731
    for j, where, name in ((base, first, "base case"), (step, variable + 1, "step")):
        if j.relation != "=" or not (same(j.lhs, at(lhs, where)) and same(j.rhs, at(value, where))):
            raise Rejected(f"the {name} must prove {at(lhs, where)} = {at(value, where)}")
    if token in base.rests_on or token not in step.rests_on:
        raise Rejected("the step must use the induction hypothesis, and the base must not")
    rests = (base.rests_on | step.rests_on) - {token}
    if not sp.simplify(variable - term(first)).is_nonnegative:
        rests |= {f"{variable} ≥ {first} (the induction starts there)"}
    return _make(lhs, "=", value, "induction", base, step, rests_on=rests,
                 particular=(base.particular | step.particular) - {variable})


# -- concluding -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Theorem:
    """One part of a statement, ``lhs R value``, concluded by :func:`conclude`."""

    lhs: Any
    relation: str
    value: Any
    rests_on: frozenset[str]
    cases: frozenset[str]

    def __post_init__(self) -> None:
        _sealed("a Theorem is made only by tmath.engine.kernel.conclude")


def conclude(lhs: Any, relation: str, value: Any, j: Judgement,
             instance: dict | None = None) -> Theorem:
    """The statement's part ``lhs R value`` (at ``instance``, if given) from ``j``, which must
    run from that very left side to that very value with a relation that implies R."""
    lhs, value = term(lhs), term(value)
    sigma = {term(k): term(v) for k, v in (instance or {}).items()}
    at_lhs, at_value = lhs.xreplace(sigma), value.xreplace(sigma)
    if not same(j.lhs, at_lhs):
        raise Rejected(f"the derivation starts at {j.lhs}, not at the left side {at_lhs}")
    if not same(j.rhs, at_value):
        raise Rejected(f"the derivation ends at {j.rhs}, not at the value {at_value}")
    if not implies(j.relation, relation):
        raise Rejected(f"it derives {SHOWN[j.relation]}, which does not give {SHOWN[relation]}")
    cases = j.cases | ({", ".join(f"{k} = {v}" for k, v in sigma.items())} if sigma else set())
    cases |= _pinned(j.constraints, lhs.free_symbols | value.free_symbols)
    with _minted():
        return Theorem(lhs, relation, value, j.rests_on, frozenset(cases))


def _pinned(constraints: frozenset, symbols: set) -> set[str]:
    """The statement's symbols that the premise equations used, taken together, fix to a
    constant (``n = z`` and ``z = 3`` pin n): the theorem holds only in that case. A system
    SymPy cannot solve (|i − j| = δ, δ(b, b') = 0) pins only what a single equation pins,
    which :func:`premise` has seen."""
    if not constraints or not set().union(*(a.free_symbols | b.free_symbols
                                            for a, b in constraints)) & symbols:
        return set()
    return set(_solved_pins(constraints, frozenset(symbols)))


@functools.lru_cache(maxsize=1024)
def _solved_pins(constraints: frozenset, symbols: frozenset) -> tuple[str, ...]:
    """:func:`_pinned`'s solving, remembered (an audit concludes the same chains per foil).
    Definitions ``x = f`` of a symbol used nowhere else are set aside first (x is then pinned
    only if every symbol of f is), so SymPy solves only what is left, often nothing."""
    core, defined = list(constraints), []
    while True:
        found = next(((x, f, pair) for pair in core for x, f in (pair, pair[::-1])
                      if isinstance(x, sp.Symbol) and f.free_symbols and x not in f.free_symbols
                      and sum(x in a.free_symbols | b.free_symbols for a, b in core) == 1), None)
        if found is None:
            break
        defined.append(found[:2])
        core.remove(found[2])
    pinned = _constants(core)
    for x, f in reversed(defined):
        if f.free_symbols <= set(pinned):
            pinned[x] = tuple(dict.fromkeys(f.xreplace(dict(zip(pinned, values)))
                                            for values in _combinations(pinned, f)))
    return tuple(sorted(f"{s} = {v[0]}" if len(v) == 1 else f"{s} ∈ {{{', '.join(map(str, v))}}}"
                        for s, v in pinned.items() if s in symbols))


def _combinations(pinned: dict, f: sp.Basic) -> list:
    used = [s for s in pinned if s in f.free_symbols]
    return [tuple(choice.get(s, pinned[s][0]) for s in pinned)
            for choice in (dict(zip(used, values))
                           for values in itertools.product(*(pinned[s] for s in used)))]


def _constants(equations: list) -> dict:
    """The symbols a system of equations fixes to finitely many constants, with those values
    (none when SymPy cannot solve it)."""
    if not equations:
        return {}
    unknowns = sorted(set().union(*(sp.Eq(a, b).free_symbols for a, b in equations)), key=str)
    try:
        solutions = sp.solve([a - b for a, b in equations], unknowns, dict=True)
    except SYMPY_FAILURES + (ValueError, TypeError):
        return {}
    values = {s: tuple(dict.fromkeys(sol.get(s, s) for sol in solutions)) for s in unknowns}
    return {s: v for s, v in values.items()
            if solutions and not any(getattr(x, "free_symbols", True) for x in v)}


def level(parts: Iterable[tuple[Any, str, Any]], theorems: Iterable[Theorem],
          rests_on: Iterable[str] = (), cases: Iterable[str] = ()) -> tuple[str, tuple, tuple]:
    """``(status, what it rests on, cases)``: ``proved`` only when every part of the
    statement has a theorem resting on nothing, for every case. Anything a caller adds can
    only lower the level."""
    theorems = list(theorems)
    rests, found = list(rests_on), list(cases)
    for lhs, relation, value in parts:
        match = [t for t in theorems if same(t.lhs, lhs) and same(t.value, value)
                 and t.relation == relation]
        if not match:
            return "failed", (), ()
        rests += sorted(set().union(*(t.rests_on for t in match)))
        found += sorted(set().union(*(t.cases for t in match)))
    rests, found = tuple(dict.fromkeys(rests)), tuple(dict.fromkeys(found))
    if found:
        return "proved-for-cases", rests, found
    return ("proved-assuming" if rests else "proved"), rests, ()

