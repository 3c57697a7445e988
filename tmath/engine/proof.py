"""Derivations a claim writes, made of judgements of the kernel (:mod:`tmath.engine.kernel`).

A claim's ``prove(value, proof)`` builds chains ``start R₁ e₁ R₂ e₂ …``. Every step asks the
kernel for a judgement (a SymPy-checked rewrite, the evaluation of an operator where it stands,
a vetted rule, a premise equation, a lemma instance, …) and composes it with the chain's; a
step the kernel rejects fails the proof. ``conclude`` asks the kernel for a theorem per part of
the statement, and :meth:`Derivation.level` asks the kernel what the proof is worth. Nothing
in this module can make a step or a "proved" on its own:

* **Bound to the statement.** A theorem runs from the statement's left-hand side itself (or an
  expression SymPy shows equal to it). A chain that differentiates, takes a limit, a sum or an
  integral carries its start under that operator, so ``chain(f).differentiate(x)`` derives
  ``d/dx f = f'``, never ``f = f'``.
* **Nothing computed is thrown away.** A chain either reaches the conclusion or is used by a
  later step (``substitute(from_chain=c)``, a fact passed as ``given=``).
* **Levels are computed by the kernel.** ``proved``, ``proved-assuming`` (names what it rests
  on), ``proved-for-cases`` (names the cases).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import sympy as sp

from tmath.engine import kernel, numeric
from tmath.engine.equality import SIMPLIFIERS, SYMPY_FAILURES, same, term
from tmath.engine.equality import decide as _decide_equal
from tmath.engine.equality import equal
from tmath.engine.kernel import SHOWN, Judgement, Rejected, Rule
from tmath.engine.results import ProofStep, StepKind
from tmath.i18n.markers import N_

if TYPE_CHECKING:
    from tmath.engine.model import Statement

__all__ = ["Chain", "Derivation", "Fact", "Induction", "ProofDefinitionError", "ProofFailure",
           "Rule", "SIMPLIFIERS", "SYMPY_FAILURES", "equal", "equal_and_method", "known_method",
           "show"]

RELATIONS = kernel.RELATIONS
SYMPY_ONLY = "SymPy only: no random point could be evaluated"
UNBOUND = ("the statement has no lhs, so the proof is not bound to it: add Statement(..., "
           "lhs=<the quantity as a SymPy expression>) and start the chains from it")


class ProofFailure(Exception):
    """A step does not hold, or the derivation does not reach the statement: ``failed``."""


class ProofDefinitionError(Exception):
    """The derivation is built in a way the engine cannot accept (an undeclared rule, a
    conclusion on another value): ``error``, with what to change."""


@dataclasses.dataclass(frozen=True)
class Fact:
    """A relation SymPy established (``proof.holds``); it must be used as ``given=``."""

    text: str
    why: str
    index: int


def show(expr: Any) -> str:
    """One line of Unicode math for an expression (:func:`tmath.engine.printing.linear`),
    remembered: most expressions are printed twice."""
    from tmath.engine.printing import linear

    if isinstance(expr, sp.Basic):
        try:
            return _shown(expr)
        except TypeError:  # unhashable (a mutable matrix)
            pass
    return linear(expr)


@functools.lru_cache(maxsize=4096)
def _shown(expr: sp.Basic) -> str:
    from tmath.engine.printing import linear

    return linear(expr)


def known_method(method: str) -> str:
    """``method`` if it names one of :data:`SIMPLIFIERS`; a wrong name is the author's
    mistake, said in one line with the names there are."""
    if method not in SIMPLIFIERS:
        raise ProofDefinitionError(f"method={method!r} is not one of tmath's SymPy methods; "
                                   f"use one of: {', '.join(SIMPLIFIERS)}")
    return method


def equal_and_method(a: Any, b: Any, method: str = "simplify") -> tuple[bool, str, str]:
    """:func:`equal`, and the SymPy method that showed it (``expand`` when that sufficed)."""
    ok, detail, used, _ = _decide_equal(a, b, method)
    return ok, detail, used


_KINDS: dict[str, StepKind] = {"rewrite": "checked", "evaluation": "checked", "root": "checked",
                               "minimizer": "checked", "congruence": "checked", "rule": "rule",
                               "premise": "premise", "hypothesis": "premise", "lemma": "lemma",
                               "assumption": "assumed", "induction": "derived"}


# -- chains -----------------------------------------------------------------------------------

class Chain:
    """``start R₁ e₁ R₂ e₂ …``: a kernel judgement from ``start`` to ``value``, one step at a
    time, each step recorded."""

    def __init__(self, derivation: Derivation, start: Any, label: str) -> None:
        self._derivation = derivation
        self.label = label
        self.judgement: Judgement = kernel.reflexivity(start)
        self.steps = 0
        self.kinds: list[StepKind] = []
        self.used = False
        self.index = len(derivation.chains)

    start = property(lambda self: self.judgement.lhs)
    value = property(lambda self: self.judgement.rhs)
    relation = property(lambda self: self.judgement.relation)

    # -- SymPy-checked steps -----------------------------------------------------------------
    def equals(self, expr: Any, why: str = N_("algebra"), method: str = "simplify") -> Chain:
        """Move to ``expr``; SymPy must reduce the difference to zero by ``method`` (or by the
        term-by-term expansion tried first) and random points agree."""
        known_method(method)
        if same(expr, self.value):
            return self._noop(expr, why, "no change")
        return self._step(why, lambda: kernel.rewrite(self.value, expr, "=", method,
                                                      self._derivation.seed), expr)

    def evaluate(self, why: str = N_("evaluate"), method: str = "simplify") -> Chain:
        """Let SymPy evaluate the sums, integrals, limits and derivatives where they stand
        (``doit``) and bring the result into shape by ``method`` (``simplify``; ``none`` keeps
        it as ``doit`` gives it); without any operator, just ``method``."""
        known_method(method)
        value = self.value
        try:
            result = kernel.evaluation(value, method, self._derivation.seed)
        except Rejected as exc:
            if str(exc) == "SymPy could not evaluate it" and not value.has(*kernel.OPERATORS):
                return self._noop(value, why, "nothing to evaluate")
            return self._fail(why, str(exc), value)
        return self._step(why, lambda: result)

    def differentiate(self, variable: sp.Symbol, times: int = 1,
                      why: str = N_("differentiate"), method: str = "simplify") -> Chain:
        """Differentiate both ends: the chain now runs from d/dx of its start (the statement's
        left side is then a ``Derivative`` of it) to the derivative SymPy computes, brought
        into shape by ``method`` as in :meth:`evaluate` (``none``: as SymPy's rules give it)."""
        return self._operator(f"{why} d/d{variable}", "diff", variable, times, method=method)

    def limit(self, variable: sp.Symbol, point: Any, direction: str = "+",
              given: Fact | Sequence[Fact] = ()) -> Chain:
        """Take the limit of both ends: the chain now runs from the limit of its start (a
        ``Limit`` with this variable, point and direction) to the value found by SymPy or the
        limit laws, cross-checked close to the point."""
        self._use(given)
        return self._operator(f"limit {variable} → {_point(point, direction)}", "limit",
                              variable, point, direction)

    def _operator(self, why: str, operator: str, *args: Any, method: str = "simplify") -> Chain:
        known_method(method)
        try:
            lifted = kernel.under(self.judgement, operator, *args)
        except Rejected as exc:
            return self._fail(why, str(exc), self.value)
        self.judgement = lifted
        return self._step(why, lambda: kernel.evaluation(lifted.rhs, method,
                                                         self._derivation.seed))

    # -- relations ---------------------------------------------------------------------------
    def le(self, expr: Any, why: str = "", rule: Rule | None = None,
           given: Fact | Sequence[Fact] = (), strict: bool = False, lemma: str | None = None,
           rename: Mapping[Any, Any] | None = None) -> Chain:
        """Move to ``expr`` with ``current ≤ expr`` (``<`` with ``strict``): SymPy decides the
        sign of the difference, or a vetted ``rule`` gives the bound, or a claim this one
        depends on states it (``lemma=``, with ``rename`` for its symbols)."""
        return self._bound(expr, "<" if strict else "<=", why, rule, given, lemma, rename)

    def ge(self, expr: Any, why: str = "", rule: Rule | None = None,
           given: Fact | Sequence[Fact] = (), strict: bool = False, lemma: str | None = None,
           rename: Mapping[Any, Any] | None = None) -> Chain:
        """Move to ``expr`` with ``current ≥ expr`` (``>`` with ``strict``); see :meth:`le`."""
        return self._bound(expr, ">" if strict else ">=", why, rule, given, lemma, rename)

    def _bound(self, expr: Any, relation: str, why: str, rule: Rule | None,
               given: Fact | Sequence[Fact], lemma: str | None = None,
               rename: Mapping[Any, Any] | None = None) -> Chain:
        self._use(given)
        expr, value = term(expr), self.value
        if lemma is not None:
            return self._step(f"by claim {lemma}", lambda: self._derivation.lemma_bound(
                lemma, rename, value, expr, relation), expr, relation)
        if rule is not None:
            if relation in ("<", ">"):
                raise ProofDefinitionError(f"rule {rule.name!r} gives ≤ or ≥, not a strict "
                                           "inequality: drop strict=True")
            if rule.bounds is None:
                raise ProofDefinitionError(f"rule {rule.name!r} rewrites equals; a bound needs "
                                           "an inequality rule (tmath.engine.rules.pointwise_bound)")
            self._derivation.rule_declared(rule)
            return self._step(rule.name, lambda: kernel.rule_bound(rule, value, expr, relation),
                              expr, relation)
        return self._step(why, lambda: kernel.rewrite(value, expr, relation), expr, relation)

    # -- rules and substitutions -------------------------------------------------------------
    def apply(self, rule: Rule, given: Fact | Sequence[Fact] = ()) -> Chain:
        """Rewrite by a rule: a vetted library rule, or a claim-local rule declared as a premise."""
        self._use(given)
        declared = self._derivation.rule_declared(rule)
        value = self.value
        try:
            result = rule.apply(value)
        except Exception as exc:  # a vetted rule's side condition, or a SymPy failure
            if type(exc).__name__ != "SideConditionFailed" and not isinstance(exc, SYMPY_FAILURES):
                raise
            return self._fail(rule.name, str(exc), value)
        if same(result, value):
            return self._noop(result, rule.name, "no change")
        return self._step(rule.name, lambda: kernel.rule_instance(
            rule, value, declared, self._derivation.premise_texts), result)

    def substitute(self, mapping: Mapping[Any, Any] | None = None, premise: Any = None,
                   lemma: str | None = None, from_chain: Chain | None = None,
                   rename: Mapping[Any, Any] | None = None,
                   given: Fact | Sequence[Fact] = ()) -> Chain:
        """Put equals for equals, justified by exactly one of: a declared premise (its
        equations must contain the mapping), a claim this one depends on (an instance of its
        statement; ``rename`` maps its symbols to ours), or an earlier chain of equalities
        (its start is replaced by its result)."""
        if sum(x is not None for x in (premise, lemma, from_chain)) != 1:
            raise ProofDefinitionError("substitute() needs exactly one of premise=, lemma= or "
                                       "from_chain=")
        self._use(given)
        derivation, value = self._derivation, self.value
        if from_chain is not None:
            if from_chain is self or from_chain._derivation is not derivation:
                raise ProofDefinitionError("from_chain= must be another chain of this proof")
            if not from_chain.steps:
                raise ProofDefinitionError("from_chain= needs a chain with at least one step")
            from_chain.used = True
            return self._step(f"from [{from_chain.label}]",
                              lambda: kernel.congruence(from_chain.judgement, value),
                              kind="derived")
        if lemma is not None:
            return self._step(f"by claim {lemma}", lambda: kernel.congruence(
                derivation.lemma_equations(lemma, mapping, rename), value))
        text = getattr(premise, "text", premise)
        return self._step(f"premise: {text}", lambda: kernel.congruence(
            derivation.premise_equations(premise, mapping or {}), value))

    # -- bookkeeping -------------------------------------------------------------------------
    def _use(self, given: Fact | Sequence[Fact]) -> None:
        facts = (given,) if isinstance(given, Fact) else tuple(given)
        for fact in facts:
            self._derivation.used_facts.add(fact.index)

    def _step(self, why: str, make: Callable[[], Judgement], target: Any = None,
              relation: str = "=", kind: StepKind | None = None) -> Chain:
        """Ask the kernel for the step's judgement and compose it with the chain's."""
        before = self.value
        try:
            step = make()
            composed = kernel.transitivity(self.judgement, step)
        except Rejected as exc:
            return self._fail(why, str(exc), before if target is None else target, relation)
        kind = kind or ("assumed" if step.rests_on - self.judgement.rests_on and
                        step.inference in ("rule", "premise") else _KINDS[step.inference])
        shown_why = f"{why} [{step.detail}]" if step.inference in ("rewrite", "evaluation") \
            and step.detail else why
        unchecked = step.inference in ("rewrite", "evaluation") and not step.points
        self._derivation.record(self.label, step.lhs, step.rhs, shown_why, kind,
                                SYMPY_ONLY if unchecked else "", step.relation, step)
        self.judgement = composed
        self.steps += 1
        self.kinds.append(kind)
        return self

    def _noop(self, expr: Any, why: str, detail: str) -> Chain:
        self._derivation.record(self.label, self.value, expr, why, "noop", detail)
        return self

    def _fail(self, why: str, detail: str, target: Any, relation: str = "=") -> Chain:
        self._derivation.record(self.label, self.value, target, why, "failed", detail, relation)
        raise ProofFailure(f"{self.label}: {detail or why}" if self.label else detail or why)

    def _adopt(self, make: Callable[[], Judgement], why: str) -> Chain:
        """Start this chain with a judgement from its start (a root, an induction)."""
        return self._step(why, make, self.value)


def _point(point: Any, direction: str) -> str:
    text = {sp.oo: "∞", -sp.oo: "−∞"}.get(sp.sympify(point), show(point))
    if text in ("∞", "−∞"):
        return text
    return f"{text}{'⁺' if direction == '+' else '⁻'}"


def _seed_of(statement: Any) -> int:
    text = str(getattr(statement, "text", "")) if statement is not None else ""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


# -- the derivation ---------------------------------------------------------------------------

class Derivation:
    """The builder a claim's ``prove`` receives."""

    def __init__(self, allowed_lemmas: Sequence[str] = (), statement: Statement | None = None,
                 value: Any = None, premises: Sequence[Any] = (),
                 lemmas: Mapping[str, Statement] | None = None, typeset: bool = False,
                 seed: int | None = None) -> None:
        self.typeset = typeset
        self.steps: list[ProofStep] = []
        self.judged: list[tuple[str, Any, str, Any]] = []
        """Each step the kernel judged, as (chain, lhs, relation, rhs) SymPy objects: what the
        claim's recorded formulas may be bound to (:mod:`tmath.meaning.claims`)."""
        self.cases: str | None = None
        self.concluded = False
        self.chains: list[Chain] = []
        self.facts: list[Fact] = []
        self.used_facts: set[int] = set()
        self.assumptions: list[str] = []
        self.theorems: list[kernel.Theorem] = []
        self.statement = statement
        self.value = value
        self.premises = tuple(premises)
        self.seed = _seed_of(statement) if seed is None else seed
        self._allowed_lemmas = frozenset(allowed_lemmas)
        self._lemmas = dict(lemmas or {})

    # -- building ------------------------------------------------------------------------------
    def chain(self, start: Any, label: str = "") -> Chain:
        """Start a chain: at the statement's left side, or at an expression an earlier chain
        can be substituted into."""
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
        self.record(why, condition, value, f"{why} [SymPy]", "checked" if ok else "failed", detail)
        if not ok:
            raise ProofFailure(f"{why}: {detail}")
        fact = Fact(show(condition), why, len(self.facts))
        self.facts.append(fact)
        return fact

    def root(self, equation: Any, variable: sp.Symbol, name: Any, label: str = "",
             why: str = N_("the only root of the equation in the variable's domain"),
             given: Fact | Sequence[Fact] = ()) -> Chain:
        """A chain from ``name`` (the statement's left side, e.g. ``T*``) to the one solution
        of ``equation = 0`` for ``variable`` in its domain; uniqueness is shown. ``equation``
        may be a chain: its result is used."""
        expr = self._take(equation)
        chain = self.chain(name, label)
        chain._use(given)
        return chain._adopt(lambda: kernel.root(name, expr, variable), why)

    def minimizer(self, objective: Any, variable: sp.Symbol, name: Any, label: str = "",
                  given: Fact | Sequence[Fact] = ()) -> Chain:
        """A chain from ``name`` (e.g. ``g*``) to the minimizer of ``objective`` over
        ``variable``: convex (second derivative ≥ 0 on the domain) with one critical point.
        ``objective`` may be a chain."""
        expr = self._take(objective)
        chain = self.chain(name, label)
        chain._use(given)
        return chain._adopt(lambda: kernel.minimizer(name, expr, variable),
                            N_("the only critical point of a convex objective is its minimum"))

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

    def record(self, chain: str, before: Any, after: Any, why: str, kind: StepKind,
               detail: str = "", relation: str = "=", judgement: Judgement | None = None) -> None:
        """Record a step; with ``typeset`` on, also its 2D Unicode, LaTeX and MathML forms."""
        step = ProofStep(chain, show(before), show(after), why, kind, detail, relation,
                         inference=judgement.inference if judgement else "",
                         points=judgement.points if judgement else 0)
        if self.typeset and isinstance(before, sp.Basic) and not isinstance(before, sp.Tuple):
            from tmath.engine import printing

            step = dataclasses.replace(step, latex=printing.latex(before, after, relation),
                                       block=printing.block(before, after, relation),
                                       mathml=printing.mathml(before, after, relation))
        self.steps.append(step)
        if judgement is not None and kind != "failed":
            self.judged.append((chain, judgement.lhs, judgement.relation, judgement.rhs))

    # -- premises, rules and lemmas ------------------------------------------------------------
    def declares(self, text: str) -> bool:
        return text in self.premise_texts

    @property
    def premise_texts(self) -> frozenset[str]:
        """The texts of the claim's declared premises."""
        return frozenset(getattr(p, "text", p) for p in self.premises)

    def assume(self, what: str) -> None:
        if what not in self.assumptions:
            self.assumptions.append(what)

    def rule_declared(self, rule: Rule) -> bool:
        """Whether a claim-local rule may be used (the kernel makes the result rest on it)."""
        if rule.vetted or self.declares(rule.name):
            return True
        if self.unbound:
            self.assume(f"rule: {rule.name} (not declared as a premise)")
            return True
        raise ProofDefinitionError(
            f"rule {rule.name!r} is not one of the engine's vetted rules; declare it as a "
            "premise of the claim (premises=(..., the rule's name)) to rest on it, or use a "
            "rule from tmath.engine.rules / tmath.engine.moments")

    def _parts(self) -> list[tuple[Any, Any]]:
        lhs = self.statement_lhs
        if lhs is None:
            return []
        if isinstance(lhs, tuple):
            return list(zip(lhs, self.value))
        return [(lhs, self.value)]

    def premise_equations(self, premise: Any, mapping: Mapping) -> list[Judgement]:
        """The kernel's judgements for ``mapping``, each an equation of ``premise``."""
        text = getattr(premise, "text", premise)
        declared = next((p for p in self.premises if getattr(p, "text", p) == text), None)
        equations = list(getattr(declared, "equations", ()) or ()) if declared else []
        if not mapping:
            raise Rejected("the substitution maps nothing")
        if not equations:
            why = "not a declared premise of the claim" if declared is None else \
                "the premise gives no equations: declare Premise(text, {lhs: rhs})"
            return [kernel.assumption(f"premise: {text}", k, v, why) for k, v in mapping.items()]
        return [kernel.premise(text, equations, k, v, self._parts()) for k, v in mapping.items()]

    def _statement_of(self, claim_id: str) -> Any:
        self.cite(claim_id)
        statement = self._lemmas.get(claim_id)
        if statement is None or statement.lhs is None:
            return None
        lhs = statement.lhs if isinstance(statement.lhs, tuple) else (statement.lhs,)
        values = statement.value if isinstance(statement.lhs, tuple) else (statement.value,)
        relation = statement.relation
        relations = relation if isinstance(relation, tuple) else (relation,) * len(lhs)
        if len(relations) != len(lhs):
            raise ProofDefinitionError(f"claim {claim_id}'s relations and parts differ in number")
        return list(zip(lhs, relations, values))

    def lemma_equations(self, claim_id: str, mapping: Mapping | None,
                        rename: Mapping | None) -> list[Judgement]:
        """The kernel's lemma instances for a substitution citing ``claim_id``."""
        parts = self._statement_of(claim_id)
        if parts is None:
            return [kernel.assumption(f"claim {claim_id} (its statement has no lhs to match)",
                                      k, v) for k, v in (mapping or {}).items()]
        equalities = [(a, b) for a, r, b in parts if r == "="]
        if not equalities:
            raise ProofDefinitionError(
                f"claim {claim_id} states an inequality, which cannot be substituted as an "
                f"equality: use it in a bound step, chain.ge(expr, why, lemma={claim_id!r}) "
                "(or le)")
        if rename is not None:
            sigma = {term(k): term(v) for k, v in rename.items()}
            found = [kernel.lemma_instance(claim_id, a, "=", b, sigma) for a, b in equalities]
            if mapping is None:
                return found
            wanted = {term(k): term(v) for k, v in mapping.items()}
            chosen = []
            for key, val in wanted.items():
                j = next((j for j in found if same(j.lhs, key)), None)
                if j is None:
                    raise Rejected(f"claim {claim_id} does not say {key} = {val}")
                chosen.append(self._ending_at(j, val))
            return chosen
        result = []
        for key, val in {term(k): term(v) for k, v in (mapping or {}).items()}.items():
            j = next((self._instance(claim_id, key, a, b) for a, b in equalities
                      if _match(key, a) is not None), None)
            try:
                if j is None:
                    raise Rejected("no part of it matches")
                result.append(self._ending_at(j, val))
            except Rejected as exc:
                raise Rejected(f"{show(key)} = {show(val)} is not an instance of claim "
                               f"{claim_id}'s statement ({exc}); to rename its symbols, pass "
                               "rename={its symbol: yours}") from None
        return result

    def _instance(self, claim_id: str, key: Any, a: Any, b: Any) -> Judgement:
        return kernel.lemma_instance(claim_id, a, "=", b, _match(key, a) or {})

    def _ending_at(self, j: Judgement, value: Any) -> Judgement:
        """``j`` continued by a SymPy-checked equality to ``value`` when it ends elsewhere."""
        if same(j.rhs, value):
            return j
        return kernel.transitivity(j, kernel.rewrite(j.rhs, value, "=", seed=self.seed))

    def lemma_bound(self, claim_id: str, rename: Mapping[Any, Any] | None, current: Any,
                    target: Any, relation: str) -> Judgement:
        """``current R target`` as an instance of an inequality a cited claim states."""
        parts = self._statement_of(claim_id)
        if parts is None:
            raise Rejected(f"claim {claim_id}'s statement is not known here")
        for a, r, b in parts:
            if r == "=" or not kernel.implies(r, relation):
                continue
            sigma = {term(k): term(v) for k, v in rename.items()} if rename is not None \
                else _match(current, a)
            if sigma is None:
                continue
            j = kernel.lemma_instance(claim_id, a, r, b, sigma)
            if same(j.lhs, current):
                return self._ending_at(j, target)
        raise Rejected(f"{show(current)} {SHOWN[relation]} {show(target)} is not an instance of "
                       f"what claim {claim_id} states")

    # -- concluding ----------------------------------------------------------------------------
    def conclude(self, stated: Any, *chains: Chain, method: str = "simplify",
                 using: Any = None, case: Mapping[Any, Any] | None = None) -> None:
        """Compare where the chains arrived with the statement, through the kernel.

        ``stated`` must be the value ``prove`` received (with several chains, a tuple in the
        order of the statement's parts). ``using`` names a declared premise whose equations
        rewrite the stated value into the chains' terms (p = softmax(z), say). ``case`` proves
        one instance of the statement (``{n: 3}``): the chains start from the left side at
        that instance, and the result is proved for the cases concluded.
        """
        known_method(method)
        if not chains or any(c.steps == 0 for c in chains):
            raise ProofDefinitionError("conclude() needs chains with at least one step each")
        if self.value is not None and not _same_value(stated, self.value):
            if not self.unbound:
                raise ProofDefinitionError(
                    "conclude() compares with the statement's value: pass the value prove() "
                    "received, not a value of your own (use using= for a premise that rewrites it)")
            self.assume("conclude() compared with a value of the proof's own, not the statement's")
        expected = list(stated) if len(chains) > 1 or _is_tuple(self.statement_lhs) else [stated]
        if len(expected) != len(chains):
            raise ProofDefinitionError(f"the statement has {len(expected)} parts, conclude() "
                                       f"got {len(chains)} chains")
        lhs = self._lhs_parts(len(chains))
        relations = self._relations(len(chains))
        instance = {term(k): term(v) for k, v in (case or {}).items()}
        rewrite = self._using(using)
        for chain, want, left, relation in zip(chains, expected, lhs, relations):
            chain.used = True
            self._conclude_part(chain, term(want), left, relation, instance, rewrite, method)
        self.concluded = True

    def _conclude_part(self, chain: Chain, want: Any, left: Any, relation: str,
                       instance: dict, rewrite: list[Judgement], method: str) -> None:
        left = chain.start if left is None else term(left)  # unbound: rests on UNBOUND
        at_left, at_want = left.xreplace(instance), want.xreplace(instance)
        j = chain.judgement
        try:
            if not same(j.lhs, at_left):
                if same(j.lhs, at_want):
                    raise Rejected(f"starts at the stated value {show(at_want)}: a proof must "
                                   f"start from the left-hand side {show(at_left)}")
                opening = kernel.rewrite(at_left, j.lhs, "=", "simplify", self.seed)
                self.record(chain.label, at_left, j.lhs,
                            "the chain starts at the left-hand side [SymPy]", "checked", "", "=",
                            opening)
                j = kernel.transitivity(opening, j)
            target = at_want
            back = None
            if rewrite:
                back = kernel.congruence(rewrite, at_want)  # want = want'
                target = back.rhs
            if not same(j.rhs, target):
                needed = relation if j.relation == "=" or relation == "=" else (
                    relation[0] + "=" if j.relation == relation[0] else relation)
                closing = kernel.rewrite(j.rhs, target, needed, method, self.seed)
                self.record(chain.label, j.rhs, target, N_("matches the statement"), "checked",
                            closing.detail, needed, closing)
                j = kernel.transitivity(j, closing)
            else:
                self.record(chain.label, j.rhs, target, N_("matches the statement"), "checked",
                            "", relation)
            if back is not None:
                j = kernel.transitivity(j, kernel.symmetry(back))
            self.theorems.append(kernel.conclude(left, relation, want, j, instance))
        except Rejected as exc:
            self.record(chain.label, j.rhs, at_want, N_("compare with the statement"), "failed",
                        str(exc), relation)
            raise ProofFailure(f"{chain.label or 'a chain'}: derived {show(j.rhs)}, stated "
                               f"{show(at_want)}; {exc}") from None

    @property
    def statement_lhs(self) -> Any:
        return getattr(self.statement, "lhs", None)

    @property
    def unbound(self) -> bool:
        """A statement without ``lhs``: its proof can reach at best ``proved-assuming``."""
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
        if len(parts) != count or any(r not in RELATIONS for r in parts):
            raise ProofDefinitionError(f"the statement's relation {relation!r} must give one of "
                                       f"{', '.join(RELATIONS)} for each of its {count} parts")
        return parts

    def _using(self, using: Any) -> list[Judgement]:
        if using is None:
            return []
        text = getattr(using, "text", using)
        declared = next((p for p in self.premises if getattr(p, "text", p) == text), None)
        equations = list(getattr(declared, "equations", ()) or ()) if declared is not None else []
        if not equations:
            raise ProofDefinitionError(f"using={text!r} must name a declared Premise with "
                                       "equations")
        try:
            found = [kernel.premise(text, equations, k, v, self._parts()) for k, v in equations]
        except Rejected as exc:
            raise ProofFailure(str(exc)) from None
        self.record("", "", "", f"premise: {text}", "premise",
                    N_("rewrites the stated value in the chains' terms"))
        return found

    # -- after prove() returns -----------------------------------------------------------------
    def finish(self) -> None:
        """Fail the proof when something it computed was never used."""
        unused = [c for c in self.chains if c.steps and not c.used]
        if self.unbound:
            for c in unused:
                self.assume(f"chain [{c.label}] is computed and never used")
            return
        if unused:
            c = unused[0]
            self.record(c.label, c.start, c.value, "computed and unused", "failed",
                        "no later step uses this chain's result")
            raise ProofFailure(f"computed and unused: chain [{c.label}] derives {show(c.value)} "
                               "but nothing uses it (conclude with it, or substitute it with "
                               "from_chain=)")
        idle = [f for f in self.facts if f.index not in self.used_facts]
        if idle:
            raise ProofFailure(f"computed and unused: the fact {idle[0].text!r} ({idle[0].why}) "
                               "is never passed as given= to a step")

    def level(self) -> tuple[str, tuple[str, ...]]:
        """(status, what it rests on), decided by the kernel from the theorems concluded."""
        extra = list(self.assumptions) + ([UNBOUND] if self.unbound else [])
        for chain in self.chains:  # a vetted rule that alone turns the left side into the value
            if chain.used and chain.kinds == ["rule"]:
                step = next(s for s in self.steps if s.chain == chain.label and s.kind == "rule")
                extra.append(f"{step.why} (gives the statement in one step)")
        parts = [(t.lhs, t.relation, t.value) for t in self.theorems] if self.unbound else [
            (a, r, b) for (a, b), r in zip(self._parts(), self._relations(len(self._parts())))]
        status, rests_on, cases = kernel.level(parts, self.theorems, extra,
                                               [self.cases] if self.cases else ())
        if status == "failed":
            raise ProofFailure("the derivation does not reach every part of the statement")
        self.cases = "; ".join(cases) or None
        return status, rests_on


# -- helpers ----------------------------------------------------------------------------------

def _is_tuple(x: Any) -> bool:
    return isinstance(x, (tuple, list))


def _same_value(a: Any, b: Any) -> bool:
    try:
        return same(a, b)
    except (TypeError, ValueError, sp.SympifyError):
        return False


def _match(key: Any, pattern: Any) -> dict | None:
    """The instance σ with ``pattern σ = key`` (σ on ``pattern``'s free symbols), or None."""
    key, pattern = term(key), term(pattern)
    symbols = sorted(pattern.free_symbols, key=str)
    wild = {s: sp.Wild(f"w{k}") for k, s in enumerate(symbols)}
    found = key.match(pattern.xreplace(wild))
    if found is None:
        return None
    back = {w: s for s, w in wild.items()}
    return {back[w]: v for w, v in found.items() if w in back}


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


class Induction:
    """Mathematical induction over a whole number, decided by the kernel
    (:func:`tmath.engine.kernel.induction`): the base chain runs from ``lhs(first)`` to
    ``value(first)``, the step chain from ``lhs(n+1)`` to ``value(n+1)`` using the hypothesis."""

    def __init__(self, derivation: Derivation, variable: sp.Symbol, first: Any, lhs: Any,
                 value: Any, label: str) -> None:
        if not variable.is_integer:
            raise ProofDefinitionError(f"induction needs a whole-number variable; declare "
                                       f"{variable} with integer=True")
        self._derivation, self.variable, self.first = derivation, variable, first
        self.lhs, self.value, self.label = lhs, value, label
        self._assumed = kernel.hypothesis(lhs, value, variable)
        self._base: Chain | None = None
        self._step: Chain | None = None

    def hypothesis(self, chain: Chain) -> Chain:
        """Substitute ``lhs(n) = value(n)`` into ``chain`` (the step's chain)."""
        return chain._step(f"induction hypothesis: {show(self.lhs)} = {show(self.value)}",
                           lambda: kernel.congruence(self._assumed, chain.value))

    def base(self, chain: Chain) -> None:
        chain.used = True
        self._base = chain

    def step(self, chain: Chain) -> None:
        chain.used = True
        self._step = chain

    def result(self) -> Chain:
        """A chain from ``lhs`` to ``value``, for every whole number ≥ ``first``."""
        if self._base is None or self._step is None:
            raise ProofDefinitionError("an induction needs base() and step() before result()")
        chain = self._derivation.chain(self.lhs, self.label)
        base, step = self._base.judgement, self._step.judgement
        return chain._adopt(lambda: kernel.induction(self.variable, self.first, base, step,
                                                     self._assumed),
                            f"by induction on {self.variable} from {show(self.first)} "
                            "[base and step checked]")
