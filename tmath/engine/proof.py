"""Step-checked symbolic derivations, bound to the statement they prove.

A claim's ``prove(value, proof)`` builds a :class:`Derivation` out of chains of relations.
The engine, not the claim, decides what the result is worth:

* **Bound to the statement.** Every chain that concludes starts from the statement's
  left-hand side (``Statement(..., lhs=...)``), from an expression the engine checks equal to
  it, or, when the left side is an unevaluated limit, sum, integral or derivative, from its
  body, and then takes that same limit, sum, integral or derivative. A chain that starts at the
  stated value proves nothing and fails.
* **Nothing computed is thrown away.** A chain either reaches the conclusion or is used by a
  later step (``substitute(from_chain=c)``, a fact passed as ``given=``). A result computed and
  never used fails the proof.
* **Steps say only what was checked.** A SymPy step (``equals``, ``evaluate``, ``limit``,
  ``differentiate``) is also checked numerically at random points of its symbols' domains; a
  step that changes nothing is a no-op, not a check. A rule is either one of the engine's
  vetted rules (:mod:`tmath.engine.rules`, :mod:`tmath.engine.moments`: side conditions
  checked, computational rewrites validated on random instances) or a claim-local rule, which
  must be a declared premise of the claim and is reported as an assumption. A substitution
  cites a declared :class:`~tmath.engine.model.Premise` whose equations contain it, a claim
  the proof depends on (checked to be an instance of that claim's statement), or an earlier
  chain.
* **Levels are computed.** ``proved`` (every step checked or a vetted rule, substitutions from
  declared premises), ``proved-assuming`` (names what it rests on), ``proved-for-cases``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

import sympy as sp

from tmath.engine import numeric
from tmath.engine.results import ProofStep, StepKind
from tmath.i18n.markers import N_

if TYPE_CHECKING:
    from tmath.engine.model import Statement

SIMPLIFIERS: dict[str, Callable[[Any], Any]] = {
    "simplify": sp.simplify,
    "expand": sp.expand,
    "trigsimp": sp.trigsimp,
    "expand_trig": lambda e: sp.simplify(sp.expand_trig(e)),
    "factor": sp.factor,
    "cancel": sp.cancel,
    "powsimp": lambda e: sp.powsimp(e, force=True),
    "logcombine": lambda e: sp.simplify(sp.logcombine(e, force=True)),
    "expand_log": lambda e: sp.simplify(sp.expand_log(e, force=True)),
    "doit": lambda e: sp.simplify(e.doit()),
}

# Exceptions SymPy itself raises when it cannot decide a step (seen: StopIteration inside
# sum_simplify, NotImplementedError in series expansions). A step SymPy cannot check is a
# failed step, not a bug in the claim. TypeError and the like stay errors: they point at the
# claim's code, and an audit must not count a broken foil as a rejected one.
SYMPY_FAILURES = (NotImplementedError, StopIteration, RecursionError, sp.PolynomialError)

RELATIONS = ("=", "<=", ">=", "<", ">")
SHOWN = {"=": "=", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}
_VETTED = object()  # the token only the engine's rule library holds
UNBOUND = ("the statement has no lhs, so the proof is not bound to it: add Statement(..., "
           "lhs=<the quantity as a SymPy expression>) and start the chains from it")


class ProofFailure(Exception):
    """A step does not hold, or the derivation does not reach the statement: ``failed``."""


class ProofDefinitionError(Exception):
    """The derivation is built in a way the engine cannot accept (an undeclared rule, a
    conclusion on another value): ``error``, with what to change."""


@dataclass(frozen=True)
class Rule:
    """A named rewrite. Built by a claim, it is *claim-local*: allowed only when the claim
    declares its name as a premise, and reported as an assumption. Built by the engine's
    library (:func:`tmath.engine.rules.library_rule`), it is *vetted*: its side conditions are
    checked where it is applied, and ``validate`` (when given) compares before and after on
    random instances."""

    name: str
    apply: Callable[[Any], Any]
    validate: Callable[[Any, Any], str | None] | None = field(default=None, compare=False)
    token: object = field(default=None, compare=False, repr=False)
    bounds: Callable[[Any, str], str | None] | None = field(default=None, compare=False)
    """For a bound (log t ≤ t − 1): given the expression and the relation a step claims
    between it and the rewrite (``<=`` or ``>=``), what is wrong with that, if anything."""

    @property
    def vetted(self) -> bool:
        return self.token is _VETTED


@dataclass(frozen=True)
class Fact:
    """A relation SymPy established (``proof.holds``); it must be used as ``given=``."""

    text: str
    why: str
    index: int


def show(expr: Any) -> str:
    """One line of Unicode math for an expression (:func:`tmath.engine.printing.linear`).
    Each step prints where it starts and where it ends, so most expressions are printed
    twice: the text is remembered (a tenth of the proofs' time before)."""
    from tmath.engine.printing import linear

    if isinstance(expr, sp.Basic):  # SymPy's == is structural: 2 and 2.0 stay apart
        try:
            return _shown(expr)
        except TypeError:  # unhashable (a mutable matrix)
            pass
    return linear(expr)


@functools.lru_cache(maxsize=4096)
def _shown(expr: sp.Basic) -> str:
    from tmath.engine.printing import linear

    return linear(expr)


def _same(a: Any, b: Any) -> bool:
    """Structurally the same expression (a step to it changes nothing)."""
    try:
        return sp.sympify(a) == sp.sympify(b)
    except (sp.SympifyError, TypeError):
        return a == b


def _alike(a: Any, b: Any) -> bool:
    """The same up to the names of bound indices: Σ_i f(i) is Σ_k f(k). (Renaming is a real
    step, so this is for comparisons, never for deciding that a step changed nothing.)"""
    if _same(a, b):
        return True
    try:
        a, b = sp.sympify(a), sp.sympify(b)
        return isinstance(a, sp.Basic) and isinstance(b, sp.Basic) and a.dummy_eq(b)
    except (sp.SympifyError, TypeError, ValueError, AttributeError):
        return False


def _vanishes(difference: Any, method: str = "simplify") -> str | None:
    """The method that reduces ``difference`` to exactly zero, or None. A term-by-term
    expansion (with the angle-addition formulas) is tried first: it settles about a third of
    the steps in milliseconds, where ``simplify`` can take a third of a second (RoPE's
    rotation identity). Both are equivalences, so either reaching zero proves the step."""
    if isinstance(difference, sp.MatrixBase):
        used = [_vanishes(entry, method) for entry in difference]
        return None if None in used else ("expand" if set(used) == {"expand"} else method)
    difference = sp.sympify(difference)
    if _expandable(difference) and _is_zero(sp.expand(difference, trig=True)):
        return "expand"
    return method if _is_zero(SIMPLIFIERS[method](difference)) else None


def _is_zero(reduced: Any) -> bool:
    return reduced == 0 or bool(getattr(reduced, "is_zero", False))


def _expandable(expr: sp.Basic) -> bool:
    """No power of a sum above the 8th (expanding those can take longer than simplify)."""
    return not any(node.is_Pow and node.base.is_Add and node.exp.is_Integer and abs(node.exp) > 8
                   for node in sp.preorder_traversal(expr))


@functools.lru_cache(maxsize=4096)
def _equal_memo(before: str, after: str, method: str, a: Any, b: Any) -> tuple[bool, str, str]:
    """(equal?, detail, the method that decided): random points first — a point where the
    two differ settles it in milliseconds, and a foil fails fast — then SymPy, which must show
    the difference is zero (numbers alone never prove an equality). Memoized per process by
    the expressions' structure, so an audit re-running a derivation for each foil pays once."""
    found, checked = numeric.disagreement(a, b)
    if found:
        return False, found, method
    try:
        used = _vanishes(sp.sympify(a) - sp.sympify(b) if not isinstance(a, sp.MatrixBase)
                         else sp.Matrix(a) - sp.Matrix(b), method)
    except SYMPY_FAILURES as exc:
        return False, f"SymPy could not check this step ({type(exc).__name__}: {exc})", method
    if used is None:
        return False, f"SymPy {method} cannot show they are equal", method
    return True, "" if checked else "no numeric point could be evaluated", used


def equal_and_method(a: Any, b: Any, method: str = "simplify") -> tuple[bool, str, str]:
    """:func:`equal`, and the SymPy method that showed it (``expand`` when that sufficed)."""
    if not isinstance(a, sp.MatrixBase) and not isinstance(b, sp.MatrixBase) and _alike(a, b):
        return True, "", method
    return _equal_memo(sp.srepr(a), sp.srepr(b), method, a, b)


def equal(a: Any, b: Any, method: str = "simplify") -> tuple[bool, str]:
    """Whether SymPy shows ``a = b`` and random points agree; the detail says why not.
    Expressions that differ only in the names of bound indices are equal."""
    ok, detail, _ = equal_and_method(a, b, method)
    return ok, detail


# -- a test hook: make computing steps return a wrong value ----------------------------------

_MUTATION: dict[str, Any] = {}


def shifted(result: Any, by: int = 42) -> Any:
    """A wrong result for the mutation test: ``result + by`` (entrywise for a matrix; 42 for an
    infinite result, which a shift cannot change)."""
    if isinstance(result, sp.MatrixBase):
        return result.applyfunc(lambda e: e + by)
    result = sp.sympify(result)
    if result.has(sp.oo, -sp.oo, sp.zoo):
        return sp.Integer(by)
    return result + by


WRONG = (lambda r: shifted(r, 42), lambda r: shifted(r, -42))
"""Two wrong results per computing step: a result a proof uses makes it fail for at least one
(an upper bound made larger may still be an upper bound, so both directions are tried)."""


@contextlib.contextmanager
def wrong_results(index: int, change: Callable[[Any], Any] = WRONG[0]) -> Iterator[dict]:
    """Within the block, the ``index``-th computing step (evaluate, limit, differentiate; in
    order of execution) returns ``change(result)`` instead of its result, as a SymPy bug
    would. Used by the tests to show that every computed result is used: a proof that still
    succeeds did not use it. Yields a dict whose ``"seen"`` counts the computing steps."""
    _MUTATION.clear()
    _MUTATION.update(index=index, change=change, seen=0)
    try:
        yield _MUTATION
    finally:
        state = dict(_MUTATION)
        _MUTATION.clear()
        _MUTATION.update(seen=state.get("seen", 0))


def _computed(result: Any) -> Any:
    if "index" not in _MUTATION:
        return result
    seen = _MUTATION["seen"]
    _MUTATION["seen"] = seen + 1
    return _MUTATION["change"](result) if seen == _MUTATION["index"] else result


# -- chains -----------------------------------------------------------------------------------

class Chain:
    """``start R₁ e₁ R₂ e₂ …`` with relations Rₖ in =, ≤, ≥, <, >; each step is recorded."""

    def __init__(self, derivation: Derivation, start: Any, label: str) -> None:
        self._derivation = derivation
        self.label = label
        self.start = sp.sympify(start) if not isinstance(start, (tuple, list)) else start
        self.value = self.start
        self.relation = "="
        self.steps = 0
        self.kinds: list[StepKind] = []
        self.operations: list[tuple] = []
        self.used = False
        self.index = len(derivation.chains)

    # -- SymPy-checked steps -----------------------------------------------------------------
    def equals(self, expr: Any, why: str = N_("algebra"), method: str = "simplify") -> Chain:
        """Move to ``expr``; SymPy must reduce the difference to zero and random points agree."""
        expr = sp.sympify(expr)
        if _same(expr, self.value):
            return self._record(expr, why, "noop", "no change")
        ok, detail, used = equal_and_method(self.value, expr, method)
        if ok:
            return self._record(expr, f"{why} [SymPy {used}]", "checked", detail)
        return self._record(expr, why, "failed", detail)

    def evaluate(self, why: str = N_("evaluate"), method: str = "simplify") -> Chain:
        """Let SymPy evaluate sums, integrals, limits and derivatives (``doit``) and simplify."""
        try:
            result = SIMPLIFIERS[method](self.value.doit())
        except SYMPY_FAILURES as exc:
            return self._record(self.value, why, "failed",
                                f"SymPy could not evaluate ({type(exc).__name__}: {exc})")
        if _same(result, self.value):
            return self._record(result, why, "noop", "nothing to evaluate")
        found, _ = numeric.disagreement(self.value, result)
        if found:
            return self._record(result, why, "failed", f"SymPy's evaluation is wrong: {found}")
        for node in sp.preorder_traversal(self.value):
            if isinstance(node, (sp.Sum, sp.Integral, sp.Derivative, sp.Limit)):
                self.operations.append(_operation_of(node))
        return self._record(_computed(result), f"{why} [SymPy doit + {method}]", "checked")

    def differentiate(self, variable: sp.Symbol, times: int = 1,
                      why: str = N_("differentiate")) -> Chain:
        """Take the derivative of the current expression (the chain's start may be the body of
        a ``Derivative`` on the statement's left side)."""
        derivative = sp.Derivative(self.value, (variable, times))
        try:
            result = sp.simplify(derivative.doit())
        except SYMPY_FAILURES as exc:
            return self._record(self.value, why, "failed",
                                f"SymPy could not differentiate ({type(exc).__name__}: {exc})")
        found, _ = numeric.disagreement(derivative, result)
        if found:
            return self._record(result, why, "failed", f"SymPy's derivative is wrong: {found}")
        self.operations.append(("diff", variable, times))
        return self._record(_computed(result), f"{why} d/d{variable} [SymPy diff]", "checked")

    def limit(self, variable: sp.Symbol, point: Any, direction: str = "+",
              given: Fact | Sequence[Fact] = ()) -> Chain:
        """Move to the limit of the current expression. SymPy computes it (finite sums of
        terms are taken term by term, the algebraic limit laws); the result is cross-checked
        by evaluating close to the point."""
        from tmath.engine import limits

        why = f"limit {variable} → {_point(point, direction)}"
        self._use(given)
        try:
            result, how = limits.limit(self.value, variable, point, direction)
        except SYMPY_FAILURES as exc:
            return self._record(self.value, why, "failed",
                                f"SymPy could not take the limit ({type(exc).__name__}: {exc})")
        except limits.LimitUnknown as exc:
            return self._record(self.value, why, "failed", str(exc))
        disagreement = limits.cross_check(self.value, variable, point, direction, result)
        if disagreement:
            return self._record(result, why, "failed", disagreement)
        self.operations.append(("limit", variable, sp.sympify(point)))
        return self._record(_computed(result), f"{why} [{how}]", "checked")

    # -- relations ---------------------------------------------------------------------------
    def le(self, expr: Any, why: str = "", rule: Rule | None = None,
           given: Fact | Sequence[Fact] = (), strict: bool = False, lemma: str | None = None,
           rename: Mapping[Any, Any] | None = None) -> Chain:
        """Move to ``expr`` with ``current ≤ expr`` (``<`` with ``strict``): SymPy must show
        ``expr − current`` is nonnegative (positive), or a vetted ``rule`` gives the bound, or
        a claim this one depends on states it (``lemma=``; ``current`` and ``expr`` must be an
        instance of its left side and value, with ``rename`` for its symbols)."""
        return self._bound(expr, "<" if strict else "<=", why, rule, given, lemma, rename)

    def ge(self, expr: Any, why: str = "", rule: Rule | None = None,
           given: Fact | Sequence[Fact] = (), strict: bool = False, lemma: str | None = None,
           rename: Mapping[Any, Any] | None = None) -> Chain:
        """Move to ``expr`` with ``current ≥ expr`` (``>`` with ``strict``); see :meth:`le`."""
        return self._bound(expr, ">" if strict else ">=", why, rule, given, lemma, rename)

    def _bound(self, expr: Any, relation: str, why: str, rule: Rule | None,
               given: Fact | Sequence[Fact], lemma: str | None = None,
               rename: Mapping[Any, Any] | None = None) -> Chain:
        from tmath.engine import decide as library

        self._use(given)
        expr = sp.sympify(expr)
        if lemma is not None:
            problem = self._derivation.lemma_bound(lemma, rename, self.value, expr, relation)
            if problem:
                return self._record(expr, f"by claim {lemma}", "failed", problem, relation)
            return self._record(expr, f"by claim {lemma}", "lemma", "", relation)
        if rule is not None and relation in ("<", ">"):
            raise ProofDefinitionError(f"rule {rule.name!r} gives ≤ or ≥, not a strict "
                                       "inequality: drop strict=True")
        if rule is not None:
            kind, detail = self._rule_kind(rule)
            if rule.bounds is None:
                raise ProofDefinitionError(f"rule {rule.name!r} rewrites equals; a bound needs "
                                           "an inequality rule (tmath.engine.rules.pointwise_bound)")
            got = rule.apply(self.value)
            if not (_same(got, expr) or equal(got, expr)[0]):
                return self._record(expr, rule.name, "failed",
                                    f"the rule gives {show(got)}, not {show(expr)}")
            problem = rule.bounds(self.value, relation)
            if problem:
                return self._record(expr, rule.name, "failed", problem, relation)
            return self._record(expr, rule.name, kind, detail, relation)
        ok, detail = library.sign_holds(self.value, expr, relation)
        if not ok:
            return self._record(expr, why, "failed", detail, relation)
        return self._record(expr, f"{why} [SymPy]", "checked", detail, relation)

    # -- rules and substitutions -------------------------------------------------------------
    def apply(self, rule: Rule, given: Fact | Sequence[Fact] = ()) -> Chain:
        """Rewrite by a rule: a vetted library rule, or a claim-local rule declared as a premise."""
        self._use(given)
        kind, detail = self._rule_kind(rule)
        result = rule.apply(self.value)
        if _same(result, self.value):
            return self._record(result, rule.name, "noop", "no change")
        if rule.validate is not None:
            problem = rule.validate(self.value, result)
            if problem:
                return self._record(result, rule.name, "failed", problem)
        return self._record(result, rule.name, kind, detail)

    def _rule_kind(self, rule: Rule) -> tuple[StepKind, str]:
        if rule.vetted:
            return "rule", ""
        if not self._derivation.declares(rule.name):
            if self._derivation.unbound:
                self._derivation.assume(f"rule: {rule.name} (not declared as a premise)")
                return "assumed", "a claim-local rule"
            raise ProofDefinitionError(
                f"rule {rule.name!r} is not one of the engine's vetted rules; declare it as a "
                "premise of the claim (premises=(..., the rule's name)) to rest on it, or use a "
                "rule from tmath.engine.rules / tmath.engine.moments")
        self._derivation.assume(f"rule: {rule.name}")
        return "assumed", "a claim-local rule, declared as a premise"

    def substitute(self, mapping: Mapping[Any, Any] | None = None, premise: Any = None,
                   lemma: str | None = None, from_chain: Chain | None = None,
                   rename: Mapping[Any, Any] | None = None,
                   given: Fact | Sequence[Fact] = ()) -> Chain:
        """Replace sub-expressions by equal ones, justified by exactly one of: a declared
        premise (its equations must contain the mapping), a claim this one depends on (the
        mapping must be an instance of its statement; ``rename`` maps its symbols to ours),
        or an earlier chain (its start is replaced by its result)."""
        if sum(x is not None for x in (premise, lemma, from_chain)) != 1:
            raise ProofDefinitionError("substitute() needs exactly one of premise=, lemma= or "
                                       "from_chain=")
        self._use(given)
        if from_chain is not None:
            return self._substitute_chain(from_chain)
        if lemma is not None:
            mapping, why = self._derivation.lemma_mapping(lemma, mapping, rename), f"by claim {lemma}"
        else:
            mapping = {sp.sympify(k): sp.sympify(v) for k, v in (mapping or {}).items()}
            why = f"premise: {getattr(premise, 'text', premise)}"
        result = self.value.xreplace(mapping)
        if _same(result, self.value):
            return self._record(result, why, "failed",
                                "none of the substituted expressions occurs here")
        if lemma is not None:
            return self._record(result, why, "lemma")
        kind, detail = self._derivation.premise_kind(premise, mapping)
        return self._record(result, why, kind, detail)

    def _substitute_chain(self, other: Chain) -> Chain:
        if other is self or other._derivation is not self._derivation:
            raise ProofDefinitionError("from_chain= must be another chain of this proof")
        if other.relation != "=":
            return self._record(self.value, other.label, "failed",
                                "only a chain of equalities can be substituted")
        if isinstance(other.start, (tuple, list)) or not other.steps:
            raise ProofDefinitionError("from_chain= needs a chain with at least one step")
        result = self.value.xreplace({other.start: other.value})
        if _same(result, self.value):
            return self._record(result, f"from [{other.label}]", "failed",
                                f"{show(other.start)} (where chain [{other.label}] starts) does not "
                                "occur here")
        other.used = True
        return self._record(result, f"from [{other.label}]", "derived")

    # -- bookkeeping -------------------------------------------------------------------------
    def _use(self, given: Fact | Sequence[Fact]) -> None:
        facts = (given,) if isinstance(given, Fact) else tuple(given)
        for fact in facts:
            self._derivation.used_facts.add(fact.index)

    def _record(self, expr: Any, why: str, kind: StepKind, detail: str = "",
                relation: str = "=") -> Chain:
        shown_relation = relation if kind != "failed" or relation != "=" else "="
        self._derivation.add(ProofStep(self.label, show(self.value), show(expr), why, kind, detail,
                                       shown_relation), (self.value, expr))
        if kind == "failed":
            raise ProofFailure(f"{self.label}: {detail or why}" if self.label else detail or why)
        self.value = expr
        if kind != "noop":
            self.steps += 1
            self.kinds.append(kind)
            self.relation = _compose(self.relation, relation)
        return self


def _operation_of(node: sp.Basic) -> tuple:
    if isinstance(node, sp.Limit):
        return ("limit", node.args[1], node.args[2])
    if isinstance(node, sp.Derivative):
        return ("diff", *node.variable_count[0]) if len(node.variable_count) == 1 else ("diff",)
    if isinstance(node, sp.Sum):
        return ("sum", *node.limits[0]) if len(node.limits) == 1 else ("sum", node.limits)
    return ("integral", node.limits)


def _point(point: Any, direction: str) -> str:
    text = {sp.oo: "∞", -sp.oo: "−∞"}.get(sp.sympify(point), show(point))
    return f"{text}⁺" if direction == "+" and text not in ("∞", "−∞") and point == 0 else text


def _compose(a: str, b: str) -> str:
    """The relation of a chain ``x a y b z`` between x and z (None-like '≠' when mixed)."""
    if a == "=":
        return b
    if b == "=":
        return a
    if a[0] == b[0]:  # both ≤/< or both ≥/>
        return a[0] if len(a) == 1 or len(b) == 1 else a
    return "mixed"


def _implies(derived: str, stated: str) -> bool:
    """Can ``lhs derived d`` give ``lhs stated s`` (``d`` against ``s`` is checked apart)?"""
    if stated == "=":
        return derived == "="
    return derived == "=" or derived != "mixed" and derived[0] == stated[0]


# -- the derivation ---------------------------------------------------------------------------

class Derivation:
    """The builder a claim's ``prove`` receives."""

    def __init__(self, allowed_lemmas: Sequence[str] = (), statement: Statement | None = None,
                 value: Any = None, premises: Sequence[Any] = (),
                 lemmas: Mapping[str, Statement] | None = None, typeset: bool = False) -> None:
        self.typeset = typeset
        self.steps: list[ProofStep] = []
        self.cases: str | None = None
        self.case_instances: list[str] = []
        self.concluded = False
        self.chains: list[Chain] = []
        self.facts: list[Fact] = []
        self.used_facts: set[int] = set()
        self.assumptions: list[str] = []
        self.statement = statement
        self.value = value
        self.premises = tuple(premises)
        self._allowed_lemmas = frozenset(allowed_lemmas)
        self._lemmas = dict(lemmas or {})

    # -- building ------------------------------------------------------------------------------
    def chain(self, start: Any, label: str = "") -> Chain:
        """Start a chain: at the statement's left side (or its body), or at an expression an
        earlier chain can be substituted into."""
        chain = Chain(self, start, label)
        self.chains.append(chain)
        return chain

    def for_cases(self, description: str) -> None:
        """Declare that the derivation covers only these cases (e.g. "n = 2..6")."""
        self.cases = description

    def fact(self, lhs: Any, rhs: Any, why: str, method: str = "simplify") -> Chain:
        """A SymPy-checked equality used inside this proof; returns its chain, which a later
        step must use (``substitute(from_chain=...)``)."""
        return self.chain(lhs, why).equals(rhs, why, method)

    def holds(self, condition: Any, why: str) -> Fact:
        """A relation (inequality, Boolean) SymPy evaluates to True; pass it as ``given=`` to
        the step that needs it."""
        value = sp.simplify(condition)
        ok = value is sp.true or value is True
        detail = "" if ok else f"SymPy reduced it to {show(value)}"
        if ok:
            found = _numeric_relation_counterexample(condition)
            if found:
                ok, detail = False, f"SymPy says it holds, but {found}"
        self.add(ProofStep(why, show(condition), show(value), f"{why} [SymPy]",
                           "checked" if ok else "failed", detail))
        if not ok:
            raise ProofFailure(f"{why}: {detail}")
        fact = Fact(show(condition), why, len(self.facts))
        self.facts.append(fact)
        return fact

    def root(self, equation: Any, variable: sp.Symbol, name: Any, label: str = "",
             why: str = N_("the only root of the equation in the variable's domain"),
             given: Fact | Sequence[Fact] = ()) -> Chain:
        """A chain that starts at ``name`` (the statement's left side, e.g. ``T*``) and moves to
        the one solution of ``equation = 0`` for ``variable`` that its assumptions allow
        (checked by substituting it back). ``equation`` may be a chain: its result is used."""
        from tmath.engine.decide import solutions

        expr = self._take(equation)
        roots = [r for r in solutions(expr, variable) if _admissible(r, variable)]
        chain = self.chain(name, label)
        chain._use(given)
        if len(roots) != 1:
            return chain._record(name, why, "failed",
                                 f"{show(expr)} = 0 has {len(roots)} admissible roots for "
                                 f"{variable}, not exactly one")
        return chain._record(roots[0], f"{why} [SymPy solve, checked by substitution]",
                             "checked")

    def minimizer(self, objective: Any, variable: sp.Symbol, name: Any, label: str = "",
                  given: Fact | Sequence[Fact] = ()) -> Chain:
        """A chain from ``name`` (e.g. ``g*``, the statement's left side) to the minimizer of
        ``objective`` over ``variable``: the engine shows the objective is convex (second
        derivative ≥ 0 on the domain) and that its derivative has exactly one root there; a
        convex function is smallest at its only critical point. ``objective`` may be a chain."""
        from tmath.engine.decide import sign_holds

        expr = self._take(objective)
        convex, detail = sign_holds(sp.diff(expr, variable, 2), 0, ">=")
        if not convex:
            chain = self.chain(name, label)
            return chain._record(name, "convexity", "failed",
                                 f"cannot show the objective is convex in {variable}: {detail}")
        return self.root(sp.diff(expr, variable), variable, name, label,
                         why=N_("the only critical point of a convex objective is its minimum"),
                         given=given)

    def induction(self, variable: sp.Symbol, first: Any, lhs: Any, value: Any,
                  label: str = "") -> Induction:
        """Prove ``lhs(n) = value(n)`` for every whole ``n ≥ first`` by induction on ``n``:
        give it a base chain (``lhs(first)`` to ``value(first)``) and a step chain
        (``lhs(n+1)`` to ``value(n+1)``, using the hypothesis ``lhs(n) = value(n)`` through
        ``induction.hypothesis(chain)``); then ``induction.result()`` is a chain from ``lhs``
        to ``value``."""
        return Induction(self, sp.sympify(variable), sp.sympify(first), sp.sympify(lhs),
                         sp.sympify(value), label or f"induction on {variable}")

    def _take(self, source: Any) -> Any:
        if isinstance(source, Chain):
            if source.relation != "=":
                raise ProofDefinitionError("only a chain of equalities can be solved")
            source.used = True
            return source.value
        return sp.sympify(source)

    def cite(self, claim_id: str) -> None:
        if claim_id not in self._allowed_lemmas:
            raise ProofDefinitionError(f"cites claim {claim_id!r}: add it to depends_on")

    def add(self, step: ProofStep, expressions: tuple[Any, Any] | None = None) -> None:
        """Record a step; with ``typeset`` on, also its 2D Unicode, LaTeX and MathML forms."""
        if self.typeset and expressions is not None and not _is_tuple(expressions[0]):
            from tmath.engine import printing

            before, after = expressions
            step = dataclasses.replace(step, latex=printing.latex(before, after, step.relation),
                                       block=printing.block(before, after, step.relation),
                                       mathml=printing.mathml(before, after, step.relation))
        self.steps.append(step)

    # -- premises and lemmas -------------------------------------------------------------------
    def declares(self, text: str) -> bool:
        return any(getattr(p, "text", p) == text for p in self.premises)

    def assume(self, what: str) -> None:
        if what not in self.assumptions:
            self.assumptions.append(what)

    def premise_kind(self, premise: Any, mapping: Mapping) -> tuple[StepKind, str]:
        """A substitution backed by a declared premise's equations is a premise step; one
        backed by text alone is an assumption."""
        text = getattr(premise, "text", premise)
        declared = next((p for p in self.premises if getattr(p, "text", p) == text), None)
        if declared is None:
            self.assume(f"premise: {text}")
            return "assumed", "not a declared premise of the claim"
        equations = list(getattr(declared, "equations", ()) or ())
        if not equations:
            self.assume(f"premise: {text}")
            return "assumed", "the premise gives no equations: declare Premise(text, {lhs: rhs})"
        for key, val in mapping.items():
            if not any(_same(key, k) and (_same(val, v) or equal(val, v)[0])
                       for k, v in equations):
                raise ProofFailure(f"premise {text!r} does not say {show(key)} = {show(val)}")
        return "premise", ""

    def lemma_mapping(self, claim_id: str, mapping: Mapping | None,
                      rename: Mapping | None) -> dict:
        """The substitution a cited claim justifies: its statement's parts, renamed."""
        self.cite(claim_id)
        statement = self._lemmas.get(claim_id)
        if statement is None or statement.lhs is None:  # nothing to check it against
            self.assume(f"claim {claim_id} (its statement has no lhs to match)")
            return {sp.sympify(k): sp.sympify(v) for k, v in (mapping or {}).items()}
        parts = _equalities(statement)  # an inequality part cannot be substituted
        if not parts:
            raise ProofDefinitionError(
                f"claim {claim_id} states an inequality, which cannot be substituted as an "
                f"equality: use it in a bound step, chain.ge(expr, why, lemma={claim_id!r}) "
                "(or le)")
        if rename is not None:
            derived = {sp.sympify(a).xreplace(dict(rename)): sp.sympify(b).xreplace(dict(rename))
                       for a, b in parts}
            if mapping is None:
                return derived
            pairs = {sp.sympify(k): sp.sympify(v) for k, v in mapping.items()}
            for key, val in pairs.items():
                if key not in derived or not equal(derived[key], val)[0]:
                    raise ProofFailure(f"claim {claim_id} does not say {show(key)} = {show(val)}")
            return pairs
        pairs = {sp.sympify(k): sp.sympify(v) for k, v in (mapping or {}).items()}
        for key, val in pairs.items():
            if not any(_instance(key, val, a, b) for a, b in parts):
                raise ProofFailure(
                    f"{show(key)} = {show(val)} is not an instance of claim {claim_id}'s "
                    f"statement ({'; '.join(f'{show(a)} = {show(b)}' for a, b in parts)}); "
                    "to rename its symbols, pass rename={its symbol: yours}")
        return pairs

    def lemma_bound(self, claim_id: str, rename: Mapping[Any, Any] | None, current: Any,
                    target: Any, relation: str) -> str | None:
        """What is wrong with ``current relation target`` as an instance of a cited claim's
        inequality, or None."""
        self.cite(claim_id)
        statement = self._lemmas.get(claim_id)
        if statement is None or statement.lhs is None:
            return f"claim {claim_id}'s statement is not known here"
        lhs = statement.lhs if isinstance(statement.lhs, tuple) else (statement.lhs,)
        values = statement.value if isinstance(statement.lhs, tuple) else (statement.value,)
        relations = statement.relation if isinstance(statement.relation, tuple) \
            else (statement.relation,) * len(lhs)
        for a, b, r in zip(lhs, values, relations):
            if r == "=" or (r[0] != relation[0]) or (len(relation) == 1 and len(r) == 2):
                continue  # an equality, the other direction, or non-strict for a strict step
            a, b = sp.sympify(a), sp.sympify(b)
            if rename is not None:
                a, b = a.xreplace(dict(rename)), b.xreplace(dict(rename))
                if _alike(a, current) and (_alike(b, target) or equal(b, target)[0]):
                    return None
            elif _instance(current, target, a, b):
                return None
        return (f"{show(current)} {SHOWN[relation]} {show(target)} is not an instance of what "
                f"claim {claim_id} states")

    # -- concluding ----------------------------------------------------------------------------
    def conclude(self, stated: Any, *chains: Chain, method: str = "simplify",
                 using: Any = None, case: Mapping[Any, Any] | None = None) -> None:
        """Compare where the chains arrived with the statement.

        ``stated`` must be the value ``prove`` received (with several chains, a tuple in the
        order of the statement's parts). ``using`` names a declared premise whose equations
        rewrite the stated value into the chains' terms (p = softmax(z), say). ``case`` proves
        one instance of the statement (``{n: 3}``): the chains start from the left side at
        that instance and the result is proved for the cases concluded.
        """
        if not chains or any(c.steps == 0 for c in chains):
            raise ProofDefinitionError("conclude() needs chains with at least one step each")
        if self.value is not None and not _same_value(stated, self.value):
            if not self.unbound:
                raise ProofDefinitionError(
                    "conclude() compares with the statement's value: pass the value prove() "
                    "received, not a value of your own (use using= for a premise that rewrites it)")
            self.assume("conclude() compared with a value of the proof's own, not the statement's")
        expected = list(stated) if len(chains) > 1 or _is_tuple(self.statement_lhs) else [stated]
        lhs = self._lhs_parts(len(chains))
        relations = self._relations(len(chains))
        if len(expected) != len(chains):
            raise ProofDefinitionError(f"the statement has {len(expected)} parts, conclude() "
                                       f"got {len(chains)} chains")
        instance = {sp.sympify(k): sp.sympify(v) for k, v in (case or {}).items()}
        if instance:
            self.case_instances.append(", ".join(f"{k} = {v}" for k, v in instance.items()))
        rewrite = self._rewriting(using)
        for chain, want, left, relation in zip(chains, expected, lhs, relations):
            want = sp.sympify(want).xreplace(instance).xreplace(rewrite) if rewrite or instance \
                else sp.sympify(want)
            if left is not None:
                self._check_bound(chain, sp.sympify(left).xreplace(instance), want)
            self._compare(chain, want, relation, method)
            chain.used = True
        self.concluded = True

    @property
    def statement_lhs(self) -> Any:
        return getattr(self.statement, "lhs", None)

    @property
    def unbound(self) -> bool:
        """A statement without ``lhs`` (a claim written before proofs were bound to their
        statements): its proof can reach at best ``proved-assuming``, and says why."""
        return self.statement is not None and self.statement_lhs is None

    def _lhs_parts(self, count: int) -> list:
        lhs = self.statement_lhs
        if lhs is None:
            return [None] * count
        parts = list(lhs) if isinstance(lhs, tuple) else [lhs]
        if len(parts) != count:
            raise ProofDefinitionError(f"the statement's left side has {len(parts)} parts, "
                                       f"conclude() got {count} chains")
        return parts

    def _relations(self, count: int) -> list[str]:
        relation = getattr(self.statement, "relation", "=") or "="
        parts = list(relation) if isinstance(relation, tuple) else [relation] * count
        return parts

    def _rewriting(self, using: Any) -> dict:
        if using is None:
            return {}
        text = getattr(using, "text", using)
        declared = next((p for p in self.premises if getattr(p, "text", p) == text), None)
        equations = dict(getattr(declared, "equations", ()) or ()) if declared is not None else {}
        if not equations:
            raise ProofDefinitionError(f"using={text!r} must name a declared Premise with "
                                       "equations")
        self.add(ProofStep("", "", "", f"premise: {text}", "premise",
                           "rewrites the stated value in the chains' terms"))
        return {sp.sympify(k): sp.sympify(v) for k, v in equations.items()}

    def _check_bound(self, chain: Chain, lhs: Any, stated: Any) -> None:
        start = chain.start
        if _alike(start, lhs):
            return
        body_op = _body_operation(lhs)
        if body_op is not None and _alike(start, lhs.args[0]):
            if any(_operation_matches(op, body_op) for op in chain.operations):
                return
            self._fail(chain, f"starts from the body of {show(lhs)} but never takes its "
                              f"{body_op[0]} ({show(body_op[1:])})")
        if not _is_tuple(start) and equal(start, lhs)[0]:
            self.add(ProofStep(chain.label, show(lhs), show(start),
                               "the chain starts at the left-hand side [SymPy simplify]",
                               "checked"), (lhs, start))
            return
        if _same(start, stated):
            self._fail(chain, f"starts at the stated value {show(stated)}: a proof must start "
                              f"from the left-hand side {show(lhs)}")
        self._fail(chain, f"does not start from the statement's left-hand side {show(lhs)} "
                          f"(it starts at {show(start)})")

    def _compare(self, chain: Chain, want: Any, relation: str, method: str) -> None:
        got = chain.value
        if not _implies(chain.relation, relation):
            self._fail(chain, f"derived lhs {SHOWN.get(chain.relation, chain.relation)} "
                              f"{show(got)}, which cannot give lhs {SHOWN[relation]} {show(want)}")
        if relation == "=" or _alike(got, want):
            ok, detail = (True, "") if _alike(got, want) else equal(got, want, method)
        else:
            from tmath.engine.decide import sign_holds

            ok, detail = sign_holds(got, want, relation if chain.relation == "=" else
                                    relation[0] + ("=" if len(relation) == 2 else ""))
        if ok:
            self.add(ProofStep(chain.label, show(got), show(want), N_("matches the statement"),
                               "checked", detail, relation), (got, want))
            return
        self.add(ProofStep(chain.label, show(got), show(want), N_("compare with the statement"),
                           "failed", detail, relation))
        raise ProofFailure(f"{chain.label}: derived {show(got)}, stated {show(want)}; {detail}")

    def _fail(self, chain: Chain, message: str) -> None:
        self.add(ProofStep(chain.label, show(chain.start), show(chain.value),
                           N_("compare with the statement"), "failed", message))
        raise ProofFailure(f"{chain.label or 'a chain'} {message}")

    # -- after prove() returns -----------------------------------------------------------------
    def finish(self) -> None:
        """Fail the proof when something it computed was never used."""
        unused = [c for c in self.chains if c.steps and not c.used]
        if self.unbound:
            self.assume(UNBOUND)
            for c in unused:
                self.assume(f"chain [{c.label}] is computed and never used")
            return
        if unused:
            c = unused[0]
            self.add(ProofStep(c.label, show(c.start), show(c.value), "computed and unused",
                               "failed", "no later step uses this chain's result"))
            raise ProofFailure(f"computed and unused: chain [{c.label}] derives {show(c.value)} "
                               "but nothing uses it (conclude with it, or substitute it with "
                               "from_chain=)")
        idle = [f for f in self.facts if f.index not in self.used_facts]
        if idle:
            raise ProofFailure(f"computed and unused: the fact {idle[0].text!r} ({idle[0].why}) "
                               "is never passed as given= to a step")

    def level(self) -> tuple[str, tuple[str, ...]]:
        """(status, what it rests on) once the proof succeeded."""
        rests_on = list(self.assumptions)
        for chain in self.chains:  # a vetted rule that alone turns the left side into the value
            if chain.used and chain.kinds == ["rule"]:
                step = next(s for s in self.steps if s.chain == chain.label and s.kind == "rule")
                rests_on.append(f"{step.why} (gives the statement in one step)")
        rests_on = list(dict.fromkeys(rests_on))
        cases = self.cases or ("; ".join(self.case_instances) if self.case_instances else None)
        if cases:
            self.cases = cases
            return "proved-for-cases", tuple(rests_on)
        return ("proved-assuming" if rests_on else "proved"), tuple(rests_on)


# -- helpers ----------------------------------------------------------------------------------

def _equalities(statement: Any) -> list[tuple[Any, Any]]:
    """The (lhs, value) parts of a statement that are equalities."""
    lhs, value, relation = statement.lhs, statement.value, statement.relation
    parts = list(zip(lhs, value)) if isinstance(lhs, tuple) else [(lhs, value)]
    relations = relation if isinstance(relation, tuple) else (relation,) * len(parts)
    return [part for part, r in zip(parts, relations) if r == "="]


def _is_tuple(x: Any) -> bool:
    return isinstance(x, (tuple, list))


def _same_value(a: Any, b: Any) -> bool:
    if _is_tuple(a) or _is_tuple(b):
        return _is_tuple(a) and _is_tuple(b) and len(a) == len(b) and \
            all(_same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, sp.MatrixBase) or isinstance(b, sp.MatrixBase):
        try:
            return sp.Matrix(a) == sp.Matrix(b)
        except (TypeError, ValueError):
            return False
    return _same(a, b)


def _body_operation(lhs: Any) -> tuple | None:
    if isinstance(lhs, (sp.Limit, sp.Derivative, sp.Sum, sp.Integral)):
        return _operation_of(lhs)
    return None


def _operation_matches(done: tuple, wanted: tuple) -> bool:
    if done[0] != wanted[0]:
        return False
    if wanted[0] == "limit":
        return _same(done[1], wanted[1]) and _same(done[2], wanted[2])
    return all(_same(a, b) for a, b in zip(done[1:], wanted[1:]))


def _instance(key: Any, val: Any, lhs: Any, value: Any) -> bool:
    """``key = val`` is ``lhs = value`` with the statement's free symbols renamed."""
    lhs, value = sp.sympify(lhs), sp.sympify(value)
    symbols = sorted(lhs.free_symbols, key=str)  # the value's other symbols stay as they are
    wild = {s: sp.Wild(f"w{k}") for k, s in enumerate(symbols)}
    match = sp.sympify(key).match(lhs.xreplace(wild))
    if match is None:
        return False
    renamed = value.xreplace(wild).xreplace(match)
    return _same(renamed, val) or equal(renamed, sp.sympify(val))[0]


def _numeric_relation_counterexample(condition: Any) -> str | None:
    """A random point where a relation SymPy accepted is false, if one turns up."""
    if not isinstance(condition, sp.core.relational.Relational):
        return None
    for point in numeric.points([condition.lhs, condition.rhs]):
        try:
            truth = condition.xreplace(point)
            if truth is sp.false:
                return f"it is false at {', '.join(f'{s}={v}' for s, v in point.items())}"
        except (TypeError, ValueError):
            continue
    return None


def _admissible(root: Any, variable: sp.Symbol) -> bool:
    """Does ``root`` satisfy ``variable``'s assumptions (positive, real, ...), as far as SymPy
    can tell? A root whose sign is unknown is kept, so uniqueness is not faked."""
    root = sp.sympify(root)
    for assumption in ("positive", "nonnegative", "real", "integer", "negative"):
        if getattr(variable, f"is_{assumption}") and getattr(root, f"is_{assumption}") is False:
            return False
    return True


class Induction:
    """Mathematical induction over a whole number, checked by the engine: the base chain must
    run from ``lhs(first)`` to ``value(first)``, the step chain from ``lhs(n+1)`` to
    ``value(n+1)`` and use the hypothesis ``lhs(n) = value(n)``."""

    def __init__(self, derivation: Derivation, variable: sp.Symbol, first: Any, lhs: Any,
                 value: Any, label: str) -> None:
        if not variable.is_integer:
            raise ProofDefinitionError(f"induction needs a whole-number variable; declare "
                                       f"{variable} with integer=True")
        self._derivation, self.variable, self.first = derivation, variable, first
        self.lhs, self.value, self.label = lhs, value, label
        self._base: Chain | None = None
        self._step: Chain | None = None
        self._hypothesis_in: set[int] = set()

    def hypothesis(self, chain: Chain) -> Chain:
        """Substitute ``lhs(n) = value(n)`` into ``chain`` (the step's chain)."""
        result = chain.value.xreplace({self.lhs: self.value})
        if _same(result, chain.value):
            return chain._record(result, "induction hypothesis", "failed",
                                 f"{show(self.lhs)} does not occur here")
        self._hypothesis_in.add(chain.index)
        return chain._record(result, f"induction hypothesis: {show(self.lhs)} = {show(self.value)}",
                             "premise")

    def base(self, chain: Chain) -> None:
        start, end = self.lhs.xreplace({self.variable: self.first}), \
            self.value.xreplace({self.variable: self.first})
        self._check(chain, start, end, "base case")
        self._base = chain

    def step(self, chain: Chain) -> None:
        following = {self.variable: self.variable + 1}
        self._check(chain, self.lhs.xreplace(following), self.value.xreplace(following), "step")
        if chain.index not in self._hypothesis_in:
            chain._record(chain.value, "induction step", "failed",
                          "the step never uses the induction hypothesis")
        self._step = chain

    def _check(self, chain: Chain, start: Any, end: Any, what: str) -> None:
        if chain.relation != "=":
            chain._record(chain.value, what, "failed", "an induction needs equalities")
        if not (_same(chain.start, start) or equal(chain.start, start)[0]):
            chain._record(chain.value, what, "failed",
                          f"the {what} must start at {show(start)}, not {show(chain.start)}")
        ok, detail = (True, "") if _same(chain.value, end) else equal(chain.value, end)
        if not ok:
            chain._record(chain.value, what, "failed",
                          f"the {what} reaches {show(chain.value)}, not {show(end)}: {detail}")
        chain.used = True

    def result(self) -> Chain:
        """A chain from ``lhs`` to ``value``, for every whole number ≥ ``first``."""
        if self._base is None or self._step is None:
            raise ProofDefinitionError("an induction needs base() and step() before result()")
        below = sp.simplify(self.variable - self.first)
        if not below.is_nonnegative:
            self._derivation.assume(f"{self.variable} ≥ {show(self.first)} (the induction "
                                    f"starts there)")
        chain = self._derivation.chain(self.lhs, self.label)
        return chain._record(self.value, f"by induction on {self.variable} from "
                                         f"{show(self.first)} [base and step checked]", "derived")
