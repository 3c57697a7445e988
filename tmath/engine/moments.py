"""Symbolic expectation and variance, and the named rules that move them around.

``E(x)`` and ``Var(x)`` are unevaluated SymPy functions: a derivation about "any distribution
with mean 0 and variance 1" cannot call ``sympy.stats`` (which needs a concrete distribution),
so it rewrites with rules that hold for *every* distribution satisfying the premises. These are
vetted library rules: applied mechanically, their side conditions checked against the random
atoms (constants are what no random atom enters; independence needs ``independent=True``,
which the claim declares with its premises), and shown as rules, never as SymPy checks.

Random quantities are the declared symbols and ``IndexedBase`` objects; anything built from
other symbols is a constant. Distinct atoms (``q[i]`` vs ``k[i]``, ``q[i]`` vs ``q[j]``) are
independent when the premises say so: pass ``independent=True``. Only atoms that are
provably distinct count as independent: ``q[i]`` and ``q[j]`` may be one (i = j), and the
indices of two different sums are never taken to be the same value.
"""

from __future__ import annotations

from typing import Any, Iterable

import sympy as sp

from sympy.concrete.expr_with_limits import ExprWithLimits

from tmath.engine.proof import Rule, show
from tmath.engine.rules import SideConditionFailed, library_rule
from tmath.i18n.markers import N_


class E(sp.Function):
    """Expectation of a random expression (unevaluated)."""

    def _latex(self, printer) -> str:
        return rf"\mathbb{{E}}\left[{printer._print(self.args[0])}\right]"

    def _mathml_presentation(self, printer):
        return _mathml_call(printer, "E", self.args[0], "[", "]")


class Var(sp.Function):
    """Variance of a random expression (unevaluated)."""

    def _latex(self, printer) -> str:
        return rf"\operatorname{{Var}}\left({printer._print(self.args[0])}\right)"

    def _mathml_presentation(self, printer):
        return _mathml_call(printer, "Var", self.args[0], "(", ")")


def _mathml_call(printer, name: str, argument, left: str, right: str):
    """``name[argument]`` as presentation MathML (SymPy would print E as Euler's number)."""
    row = printer.dom.createElement("mrow")
    head = printer.dom.createElement("mi")
    head.appendChild(printer.dom.createTextNode(name))
    fenced = printer.dom.createElement("mrow")
    for text in (left, None, right):
        if text is None:
            fenced.appendChild(printer._print(argument))
            continue
        operator = printer.dom.createElement("mo")
        operator.appendChild(printer.dom.createTextNode(text))
        fenced.appendChild(operator)
    row.appendChild(head)
    row.appendChild(fenced)
    return row


def _until_stable(expr: sp.Basic, function: type, rewrite) -> sp.Basic:
    """Apply a rewrite of every ``function(...)`` until nothing changes.

    One pass of ``replace`` may or may not reach an expectation nested inside another,
    depending on traversal order (which varies with PYTHONHASHSEED); repeating it makes the
    result the same in every process.
    """
    for _ in range(20):
        rewritten = expr.replace(function, rewrite)
        if rewritten == expr:
            return rewritten
        expr = rewritten
    return expr


def _maybe_same(a: sp.Basic, b: sp.Basic) -> bool:
    """Could atoms ``a`` and ``b`` be the same random variable? ``q[i]`` and ``q[j]`` are,
    when i = j, unless the indices are provably different."""
    if a == b:
        return True
    if isinstance(a, sp.Indexed) and isinstance(b, sp.Indexed) and a.base == b.base \
            and len(a.indices) == len(b.indices):
        return all(sp.simplify(x - y).is_nonzero is not True for x, y in zip(a.indices, b.indices))
    return False


def _unbound(expr: sp.Basic) -> sp.Basic:
    """``expr`` with every bound index (of a sum, product or integral) a fresh Dummy."""
    return expr.replace(lambda e: isinstance(e, ExprWithLimits),
                        lambda e: e.xreplace({v: sp.Dummy(v.name) for v in e.variables}))


def _overlap(first: frozenset | set, second: frozenset | set) -> bool:
    """Do two sets of random atoms share a variable (side condition of independence rules)?"""
    return any(_maybe_same(a, b) for a in first for b in second)


def owed_premise(named: Any, assumption: str) -> str | None:
    """The premise text a rule's use owes: the text of ``named`` (a ``Premise`` or its
    text), or, for ``True``, the bare ``assumption``, which no declared premise names, so
    a proof using the rule rests on it; None for ``False``."""
    if named is False:
        return None
    return assumption if named is True else getattr(named, "text", named)


class Moments:
    """Rules of expectation for expressions in the given random symbols."""

    def __init__(self, random: Iterable[Any], independent: Any = True) -> None:
        """``independent``: the declared premise (a ``Premise`` or its text) that makes the
        random quantities mutually independent; ``True`` names none, so the independence
        rules' results rest on it; ``False`` refuses them."""
        self.random = tuple(random)
        unknown = [r for r in self.random if not isinstance(r, (sp.Symbol, sp.IndexedBase))]
        if unknown:  # atoms() would not see them, and take what holds them for constants
            raise TypeError(f"random quantities are symbols or IndexedBase objects, not "
                            f"{unknown[0]!r}")
        self.independent = independent is not False
        self.premise = owed_premise(independent, f"{', '.join(map(str, self.random))} are "
                                    "mutually independent")

    # -- which parts are random -------------------------------------------------------------
    def atoms(self, expr: sp.Basic) -> frozenset:
        """The random atoms (symbols or indexed entries) an expression depends on. The index
        of each sum, product or integral is renamed to a fresh Dummy first: ``x[j]`` in
        Σ_j x[j] and ``x[j + 1]`` in Σ_j x[j + 1] are not the same j, so both sums may hold
        x[2], and no index difference may be taken as a proof that they are distinct."""
        expr = _unbound(expr)
        found = set()
        for indexed in expr.atoms(sp.Indexed):
            if indexed.base in self.random or indexed.base.label in self.random:
                found.add(indexed)
        for symbol in expr.free_symbols:
            if symbol in self.random:
                found.add(symbol)
        return frozenset(found)

    def is_constant(self, expr: sp.Basic) -> bool:
        return not self.atoms(expr)

    # -- rules -------------------------------------------------------------------------------
    @property
    def linearity(self) -> Rule:
        """E[a X + b Y] = a E[X] + b E[Y]; E[Σ X_i] = Σ E[X_i]; E[c] = c."""
        return library_rule(N_("linearity of expectation"),
                            lambda e: _until_stable(e, E, self._linear), numeric_check=False)

    @property
    def independence(self) -> Rule:
        """E[f(X) g(Y)] = E[f(X)] E[g(Y)] for independent X, Y."""
        if not self.independent:
            raise ValueError("the premises do not make these variables independent")
        return library_rule(N_("independence: E[XY] = E[X]·E[Y]"),
                            lambda e: _until_stable(e, E, self._factor), numeric_check=False,
                            premise=self.premise)

    @property
    def variance_definition(self) -> Rule:
        """Var(X) = E[X²] − E[X]²."""
        return library_rule(N_("definition: Var(X) = E[X²] − E[X]²"),
                            lambda e: e.replace(Var, lambda x: E(sp.expand(x**2)) - E(x) ** 2), numeric_check=False)

    @property
    def second_moment(self) -> Rule:
        """E[X²] = Var(X) + E[X]², for a single random atom X."""

        def rewrite(x: sp.Basic) -> sp.Basic:
            if isinstance(x, sp.Pow) and x.exp == 2 and len(self.atoms(x.base)) == 1:
                return Var(x.base) + E(x.base) ** 2
            return E(x)

        return library_rule(N_("definition: E[X²] = Var(X) + E[X]²"),
                            lambda e: e.replace(E, rewrite), numeric_check=False)

    @property
    def bienayme(self) -> Rule:
        """Var(Σ X_i) = Σ Var(X_i) for independent X_i."""
        if not self.independent:
            raise ValueError("the premises do not make these variables independent")
        return library_rule(N_("independent terms: variances add"),
                            lambda e: e.replace(Var, self._additive), numeric_check=False,
                            premise=self.premise)

    @property
    def variance_scaling(self) -> Rule:
        """Var(c X) = c² Var(X) for a constant c."""

        def rewrite(x: sp.Basic) -> sp.Basic:
            constant, rest = self._split_constant(x)
            if constant == 1:
                return Var(x)
            return constant**2 * Var(rest)

        return library_rule(N_("Var(cX) = c²·Var(X)"),
                            lambda e: e.replace(Var, rewrite), numeric_check=False)

    # -- rewriting helpers -------------------------------------------------------------------
    def _split_constant(self, x: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
        if isinstance(x, sp.Mul):
            constant = sp.Mul(*[f for f in x.args if self.is_constant(f)])
            rest = sp.Mul(*[f for f in x.args if not self.is_constant(f)])
            return constant, rest
        return sp.Integer(1), x

    def _linear(self, x: sp.Basic) -> sp.Basic:
        x = sp.expand(x) if not isinstance(x, sp.Sum) else x
        if self.is_constant(x):
            return x
        if isinstance(x, sp.Add):
            return sp.Add(*[self._linear(term) for term in x.args])
        if isinstance(x, sp.Sum):
            problem = self._range_problem(x)
            if problem:
                raise SideConditionFailed(f"E[{show(x)}]: {problem}; expectation passes only "
                                          "through a sum of a fixed, finite number of terms")
            return sp.Sum(self._linear(x.function), *x.limits)
        constant, rest = self._split_constant(x)
        if constant != 1:
            return constant * self._linear(rest)
        return E(x)

    def _factor(self, x: sp.Basic) -> sp.Basic:
        if not isinstance(x, sp.Mul):
            return E(x)
        groups: list[tuple[frozenset, list[sp.Basic]]] = []
        for factor in x.args:
            atoms = self.atoms(factor)
            merged_atoms, merged = set(atoms), [factor]
            rest = []
            for group_atoms, group in groups:
                if _overlap(group_atoms, merged_atoms):
                    merged_atoms |= group_atoms
                    merged.extend(group)
                else:
                    rest.append((group_atoms, group))
            groups = rest + [(frozenset(merged_atoms), merged)]
        if len(groups) < 2:
            return E(x)
        return sp.Mul(*[E(sp.Mul(*group)) if atoms else sp.Mul(*group) for atoms, group in groups])

    def _additive(self, x: sp.Basic) -> sp.Basic:
        if isinstance(x, sp.Sum):
            problem = self._not_independent_terms(x)
            if problem:
                raise SideConditionFailed(f"Var({show(x)}): {problem}; the variances do not "
                                          "simply add")
            return sp.Sum(Var(x.function), *x.limits)
        if isinstance(x, sp.Add):
            terms = [t for t in x.args if not self.is_constant(t)]
            atom_sets = [self.atoms(t) for t in terms]
            disjoint = all(
                not _overlap(a, b) for i, a in enumerate(atom_sets) for b in atom_sets[i + 1:]
            )
            if disjoint:
                return sp.Add(*[Var(t) for t in terms])
        return Var(x)

    def _not_independent_terms(self, total: sp.Sum) -> str | None:
        """Why the terms of ``total`` are not known to be independent, or None. Independence
        holds between distinct random atoms; so each range must be a run of terms (not
        reversed, whose Karr sum is minus a sum) as :meth:`_range_problem` asks, and two terms at
        different values of any one index (the others arbitrary) must share no atom that
        could be the same: x[i] and x[i + d] for d ≠ 0 are distinct, x and x, or y in both
        x[i] + y and x[i + d] + y, are not."""
        indices = [limit[0] for limit in total.limits]
        problem = self._range_problem(total)
        if problem:
            return problem
        generic = {index: sp.Dummy(index.name, integer=True) for index in indices}
        for index, low, high in total.limits:
            count = sp.simplify((high - low + 1).xreplace(generic))
            if not (count.is_nonnegative or count == 0):
                return (f"the range of {index} is not known to be a run of terms "
                        f"({show(high)} ≥ {show(low)} − 1)")
        step = sp.Dummy("d", integer=True, nonzero=True)
        for index in indices:
            first, second = ({other: sp.Dummy(other.name) for other in indices} for _ in "12")
            second[index] = first[index] + step
            shared = [(a, b) for a in self.atoms(total.function.xreplace(first))
                      for b in self.atoms(total.function.xreplace(second)) if _maybe_same(a, b)]
            if shared:
                return (f"two of its terms (at different {index}) may share the random "
                        f"variable {show(shared[0][0])}")
        return None

    def _range_problem(self, total: sp.Sum) -> str | None:
        """Why ``total`` is not a sum of a fixed, finite number of terms, or None: a random
        bound (E[Σ_{i=1}^N x_i] is not Σ_{i=1}^N E[x_i] unless N is independent of the x_i)
        or an infinite one (an infinite sum may converge to a variable whose expectation is
        not the sum of the expectations)."""
        for index, low, high in total.limits:
            if self.atoms(sp.Tuple(low, high)):
                return f"the range of {index} is random"
            if any(bound.has(sp.oo, -sp.oo, sp.zoo) for bound in (low, high)):
                return f"the range of {index} is infinite"
        return None
