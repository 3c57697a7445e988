"""The derivation engine: sound proofs prove, and every kind of unsound proof is caught.

Each test of the second kind builds a deliberately broken proof of the sort the engine must
refuse (issue 12): a chain that starts at the stated value, a result computed and thrown away,
a conclusion on a typed-in value, a rule that is the statement, a no-op counted as a check, a
premise substitution under any text, a sum swap with dependent ranges, SymPy saying "equal"
when it is not.
"""

from __future__ import annotations

import pytest
import sympy as sp

from tmath import Premise, Statement
from tmath.engine import equality as proof_module
from tmath.engine.moments import E, Moments, Var
from tmath.engine.proof import Derivation, ProofDefinitionError, ProofFailure, Rule
from tmath.engine.rules import LOG_BOUND, SWAP_SUMS, SideConditionFailed

x = sp.Symbol("x", positive=True)
n = sp.Symbol("n", positive=True, integer=True)
i, j = sp.symbols("i j", integer=True, positive=True)
c = sp.Symbol("c", positive=True)


def derivation(lhs, value, premises=(), relation="=", lemmas=None, allowed=()):
    return Derivation(allowed_lemmas=allowed, statement=Statement("s", value, lhs, relation),
                      value=value, premises=premises, lemmas=lemmas)


def finished(proof: Derivation) -> tuple[str, tuple[str, ...]]:
    proof.finish()
    return proof.level()


# -- sound proofs --------------------------------------------------------------------------------

def test_a_chain_from_the_left_side_proves():
    value = x**2 + 2 * x + 1
    proof = derivation((x + 1) ** 2, value)
    chain = proof.chain((x + 1) ** 2, "square").equals(value, "expand", "expand")
    proof.conclude(value, chain)
    assert finished(proof) == ("proved", ())
    assert [s.kind for s in proof.steps] == ["checked", "checked"]


def test_a_foil_fails_at_the_conclusion_with_a_counterexample():
    proof = derivation(sp.Sum(1, (i, 1, n)), sp.sqrt(n))
    chain = proof.chain(sp.Sum(1, (i, 1, n)), "count").evaluate()
    with pytest.raises(ProofFailure, match="derived n, stated √n"):
        proof.conclude(sp.sqrt(n), chain)


def test_a_limit_on_the_left_may_start_from_its_body_and_take_the_limit():
    body = 1 / (1 + sp.exp(-c * x))
    proof = derivation(sp.Limit(body, c, sp.oo), 1)
    chain = proof.chain(body, "p_max").limit(c, sp.oo)
    proof.conclude(1, chain)
    assert finished(proof)[0] == "proved"


def test_a_limit_through_a_finite_sum_of_indexed_terms():
    """SymPy cannot take this limit for symbolic n; the limit laws can (finite sum, continuity)."""
    g = sp.IndexedBase("g", positive=True)
    l = sp.Symbol("l", integer=True)
    body = 1 / (1 + sp.Sum(sp.exp(-c * g[l]), (l, 2, n)))
    proof = derivation(sp.Limit(body, c, sp.oo), 1)
    chain = proof.chain(body, "p_max").limit(c, sp.oo)
    proof.conclude(1, chain)
    assert "limit laws" in proof.steps[0].why


def test_an_inequality_chain_gibbs():
    p, q = sp.IndexedBase("p", positive=True), sp.IndexedBase("q", positive=True)
    sums_to_one = Premise("p and q sum to 1", {sp.Sum(p[i], (i, 1, n)): 1, sp.Sum(q[i], (i, 1, n)): 1})
    kl = sp.Sum(p[i] * sp.log(p[i] / q[i]), (i, 1, n))
    proof = derivation(kl, 0, premises=(sums_to_one,), relation=">=")
    chain = (proof.chain(kl, "KL(p‖q)")
             .equals(-sp.Sum(p[i] * sp.log(q[i] / p[i]), (i, 1, n)), "log of a quotient",
                     method="expand_log")
             .ge(-sp.Sum(p[i] * (q[i] / p[i] - 1), (i, 1, n)), "log t ≤ t − 1", rule=LOG_BOUND)
             .equals(sp.Sum(p[i], (i, 1, n)) - sp.Sum(q[i], (i, 1, n)), "split the sum")
             .substitute({sp.Sum(p[i], (i, 1, n)): 1, sp.Sum(q[i], (i, 1, n)): 1},
                         premise=sums_to_one))
    proof.conclude(0, chain)
    assert finished(proof) == ("proved", ())


def test_a_false_pointwise_bound_fails_the_step_that_uses_it():
    """The deliberately broken rule: t − 1 ≤ log t is false. Its proof is deferred to first
    use (defining it costs nothing at import), and there it stops the proof (an error)."""
    from tmath.engine.rules import pointwise_bound

    t = sp.Symbol("t", positive=True)
    backwards = pointwise_bound("t − 1 ≤ log t", t - 1, sp.log(t), t)
    proof = derivation(x - 1, sp.log(x), relation="<=")
    with pytest.raises(SideConditionFailed, match="cannot show"):
        proof.chain(x - 1, "x − 1").le(sp.log(x), "the false bound", rule=backwards)


def test_a_bound_proves_a_weaker_statement_and_not_a_stronger_one():
    lhs = x + 1 / x
    for stated, holds in ((2, True), (1, True), (3, False)):
        proof = derivation(lhs, stated, relation=">=")
        chain = proof.chain(lhs, "x + 1/x").ge(2, "AM-GM: one variable, minimum at x = 1")
        if holds:
            proof.conclude(stated, chain)
        else:
            with pytest.raises(ProofFailure):
                proof.conclude(stated, chain)


def test_for_cases_by_instances():
    m = sp.Symbol("m", integer=True, positive=True)
    lhs = sp.Sum(i, (i, 1, m))
    proof = derivation(lhs, m * (m + 1) / 2)
    for size in (2, 3):
        chain = proof.chain(lhs.subs(m, size), f"m = {size}").evaluate()
        proof.conclude(m * (m + 1) / 2, chain, case={m: size})
    assert finished(proof) == ("proved-for-cases", ())
    assert proof.cases == "m = 2; m = 3"


def test_lemma_instance_with_renamed_symbols():
    qs, ks = sp.symbols("q k", real=True)
    qv, kv = sp.IndexedBase("q", real=True), sp.IndexedBase("k", real=True)
    lemma = Statement("moments", (0, 1), (E(qs * ks), Var(qs * ks)))
    total = sp.Sum(qv[i] * kv[i], (i, 1, n))
    independent = "the q_i, k_i are independent"
    proof = derivation(Var(total), n, premises=(independent,), lemmas={"terms": lemma},
                       allowed=("terms",))
    rules = Moments(random=(qv, kv), independent=independent)
    chain = (proof.chain(Var(total), "Var(qᵀk)").apply(rules.bienayme)
             .substitute({Var(qv[i] * kv[i]): 1}, lemma="terms").evaluate("sum of ones"))
    proof.conclude(n, chain)
    assert finished(proof) == ("proved", ())


# -- unsound proofs, each caught ---------------------------------------------------------------------

def test_a_chain_that_starts_at_the_stated_value_fails():
    stated = x * (x + 2)
    proof = derivation(sp.Derivative(x**3 / 3 + x**2, x), stated)
    chain = proof.chain(stated, "d/dx").equals(x**2 + 2 * x, "algebra", method="expand")
    with pytest.raises(ProofFailure, match="starts at the stated value"):
        proof.conclude(stated, chain)


def test_a_conclusion_on_a_typed_in_value_is_refused():
    proof = derivation((x + 1) ** 2 - 1, x**2 + 2 * x)
    chain = proof.chain((x + 1) ** 2 - 1, "square").equals(x**2 + 2 * x)
    with pytest.raises(ProofDefinitionError, match="the value prove\\(\\) received"):
        proof.conclude(x**2 + 2 * x + 1, chain)


def test_a_limit_computed_and_thrown_away_fails():
    """softmax-saturation used to take a limit, then conclude on values typed by hand."""
    body = 1 / (1 + sp.exp(-c * x))
    u = sp.Symbol("u", positive=True)
    proof = derivation(sp.Limit(body, c, sp.oo), 1, premises=("u → 0",))
    proof.chain(sp.exp(-c * x), "u").limit(c, sp.oo)      # computed ...
    typed = proof.chain(1 / (1 + u), "p_max").substitute({u: 0}, premise="u → 0")
    with pytest.raises(ProofFailure, match="cannot show they are equal"):
        proof.conclude(1, typed)


def test_a_result_computed_and_unused_fails_the_proof():
    proof = derivation((x + 1) ** 2 - 1, x**2 + 2 * x)
    proof.chain(sp.exp(-c * x), "side computation").limit(c, sp.oo)
    proof.conclude(x**2 + 2 * x, proof.chain((x + 1) ** 2 - 1, "square").equals(x**2 + 2 * x))
    with pytest.raises(ProofFailure, match="computed and unused"):
        proof.finish()


def test_a_fact_that_no_step_uses_fails_the_proof():
    proof = derivation((x + 1) ** 2 - 1, x**2 + 2 * x)
    proof.holds(x + 1 > 0, "positive")
    proof.conclude(x**2 + 2 * x, proof.chain((x + 1) ** 2 - 1, "square").equals(x**2 + 2 * x))
    with pytest.raises(ProofFailure, match="never passed as given"):
        proof.finish()


def test_substituting_an_earlier_chain_uses_it():
    pythagoras = sp.sin(x) ** 2 + sp.cos(x) ** 2
    proof = derivation(x * pythagoras, x)
    inner = proof.fact(pythagoras, 1, "sin² + cos² = 1", method="trigsimp")
    chain = proof.chain(x * pythagoras, "x·(sin² + cos²)").substitute(from_chain=inner)
    proof.conclude(x, chain)
    assert finished(proof) == ("proved", ())


def test_an_undeclared_claim_local_rule_is_refused_and_a_declared_one_is_an_assumption():
    regroup = Rule("regroup the product", lambda e: x**2 + 2 * x)
    proof = derivation((x + 1) ** 2 - 1, x**2 + 2 * x)
    with pytest.raises(ProofDefinitionError, match="not one of the engine's vetted rules"):
        proof.chain((x + 1) ** 2 - 1, "square").apply(regroup)
    proof = derivation((x + 1) ** 2 - 1, x**2 + 2 * x, premises=("regroup the product",))
    proof.conclude(x**2 + 2 * x, proof.chain((x + 1) ** 2 - 1, "square").apply(regroup))
    level, rests_on = finished(proof)
    assert level == "proved-assuming"
    assert any("regroup the product" in r for r in rests_on)


def test_a_vetted_rule_that_gives_the_statement_in_one_step_is_an_assumption():
    q = sp.Symbol("q")
    rules = Moments(random=(q,))
    proof = derivation(Var(3 * q), 9 * Var(q))
    proof.conclude(9 * Var(q), proof.chain(Var(3 * q), "Var(3q)").apply(rules.variance_scaling))
    level, rests_on = finished(proof)
    assert level == "proved-assuming" and "one step" in rests_on[0]


def test_a_no_op_is_not_a_check_and_cannot_conclude():
    proof = derivation(2 * x, 2 * x)
    chain = proof.chain(2 * x, "2x").evaluate("evaluate")
    assert proof.steps[-1].kind == "noop"
    with pytest.raises(ProofDefinitionError, match="at least one step"):
        proof.conclude(2 * x, chain)


def test_a_premise_substitution_must_be_one_of_its_equations():
    q = sp.Symbol("q")
    moments = Premise("E[q] = 0", {E(q): 0})
    proof = derivation(E(q) + 1, 1, premises=(moments,))
    with pytest.raises(ProofFailure, match="does not say"):
        proof.chain(E(q) + 1, "E[q] + 1").substitute({E(q): 5}, premise=moments)


def test_a_premise_given_as_text_only_is_an_assumption():
    q = sp.Symbol("q")
    proof = derivation(E(q) + 1, 1, premises=("E[q] = 0",))
    proof.conclude(1, proof.chain(E(q) + 1, "E[q] + 1").substitute({E(q): 0}, premise="E[q] = 0"))
    level, rests_on = finished(proof)
    assert level == "proved-assuming" and rests_on == ("premise: E[q] = 0",)


def test_a_lemma_substitution_that_is_not_an_instance_fails():
    qs = sp.Symbol("q")
    lemma = Statement("E[q] = 0", 0, E(qs))
    proof = derivation(E(x) + 1, 1, lemmas={"mean-zero": lemma}, allowed=("mean-zero",))
    with pytest.raises(ProofFailure, match="not an instance"):
        proof.chain(E(x) + 1, "E[x] + 1").substitute({E(x): 3}, lemma="mean-zero")


def test_a_lemma_must_be_declared():
    proof = derivation(x, 1)
    with pytest.raises(ProofDefinitionError, match="depends_on"):
        proof.chain(x).substitute({x: 1}, lemma="unknown")


def test_a_sum_swap_with_dependent_ranges_is_refused():
    a = sp.IndexedBase("a")
    triangle = sp.Sum(sp.Sum(a[i, j], (j, 1, i)), (i, 1, n))
    proof = derivation(triangle, triangle)
    with pytest.raises(ProofFailure, match="depend on each other"):
        proof.chain(triangle, "triangle").apply(SWAP_SUMS)
    assert proof.steps[-1].kind == "failed"


def test_a_sum_swap_with_independent_ranges_is_a_rule():
    a = sp.IndexedBase("a")
    m = sp.Symbol("m", integer=True, positive=True)
    square = sp.Sum(sp.Sum(a[i, j], (j, 1, m)), (i, 1, n))
    proof = derivation(square, square)
    proof.chain(square, "square").apply(SWAP_SUMS)
    assert proof.steps[-1].kind == "rule"


def test_when_sympy_wrongly_says_equal_the_numbers_catch_it(monkeypatch):
    proof_module._decide.cache_clear()
    monkeypatch.setitem(proof_module.SIMPLIFIERS, "simplify", lambda e: sp.Integer(0))
    proof = derivation((x + 1) ** 2, x**2 + 1)
    with pytest.raises(ProofFailure, match="numerically"):
        proof.chain((x + 1) ** 2, "square").equals(x**2 + 1)
    proof_module._decide.cache_clear()


def test_the_cheapest_method_that_decides_a_step_is_named(monkeypatch):
    """An angle-addition identity is settled by expanding, without simplify (a third of a
    second on RoPE's score); the step says so. A power of a sum too large to expand goes to
    the requested method. The deliberately broken cases: a simplify that cannot decide
    anything still lets the expansion prove what it proves, and never the angles added."""
    a, b = sp.symbols("a b", real=True)
    proof_module._decide.cache_clear()
    monkeypatch.setitem(proof_module.SIMPLIFIERS, "simplify", lambda e: e)  # decides nothing
    proof = derivation(sp.cos(a - b), sp.cos(a) * sp.cos(b) + sp.sin(a) * sp.sin(b))
    proof.chain(sp.cos(a - b), "cos(a − b)").equals(sp.cos(a) * sp.cos(b) + sp.sin(a) * sp.sin(b))
    assert "[SymPy expand]" in proof.steps[-1].why
    wrong = derivation(sp.cos(a - b), sp.cos(a) * sp.cos(b) - sp.sin(a) * sp.sin(b))
    with pytest.raises(ProofFailure):
        wrong.chain(sp.cos(a - b), "cos(a − b)").equals(sp.cos(a) * sp.cos(b) - sp.sin(a) * sp.sin(b))
    big = (x + 1) ** 12
    with pytest.raises(ProofFailure, match="cannot show"):  # not expanded, and simplify is off
        derivation(big, sp.expand(big)).chain(big, "a 12th power").equals(sp.expand(big))
    proof_module._decide.cache_clear()


def test_a_limit_taken_on_a_chain_concludes_only_the_limit():
    """The chain runs from the Limit of its start: it proves lim p = 1, never p = 1."""
    body = 1 / (1 + sp.exp(-c * x))
    proof = derivation(sp.Limit(body, c, sp.oo), 1)
    proof.conclude(1, proof.chain(body, "p_max").limit(c, sp.oo))
    proof.finish()
    assert proof.level()[0] == "proved"
    bare = derivation(body, 1)
    with pytest.raises(ProofFailure, match="cannot show they are equal"):
        bare.conclude(1, bare.chain(body, "p_max").limit(c, sp.oo))


def test_the_limit_is_cross_checked_numerically():
    """SymPy 1.14 returns -1/2 for this limit; the true value is 0."""
    g2, g3 = sp.symbols("g_2 g_3", positive=True)
    w = [1, sp.exp(-c * g2), sp.exp(-c * g3)]
    p = [v / sum(w) for v in w]
    proof = derivation(x, 0)
    try:
        proof.chain(sp.factor(sp.together(-p[0] * p[1]))).limit(c, sp.oo)
    except ProofFailure:
        assert "disagrees" in proof.steps[-1].detail
    else:  # a fixed SymPy gives the right answer, which the cross-check accepts
        assert proof.steps[-1].after == "0"


def test_independence_does_not_split_entries_that_may_be_the_same_variable():
    q = sp.IndexedBase("q")
    rules = Moments(random=(q,))
    assert rules.independence.apply(E(q[i] * q[j])) == E(q[i] * q[j])
    assert rules.independence.apply(E(q[i] * q[i + 1])) == E(q[i]) * E(q[i + 1])


def test_linearity_reaches_inside_a_scaled_sum():
    xs, b = sp.IndexedBase("x"), sp.Symbol("b")
    rules = Moments(random=(xs,))
    rewritten = rules.linearity.apply(E((1 - b) * sp.Sum(xs[i], (i, 1, n))))
    assert sp.simplify(rewritten - (1 - b) * sp.Sum(E(xs[i]), (i, 1, n))) == 0


# -- induction ------------------------------------------------------------------------------------

def _sum_of_odds(proof: Derivation, m: sp.Symbol, use_hypothesis: bool = True):
    """Σ_{i=1}^{m} (2i − 1) = m², by induction on m."""
    s = sp.Sum(2 * i - 1, (i, 1, m))
    induction = proof.induction(m, 1, s, m**2)
    induction.base(proof.chain(s.subs(m, 1), "m = 1").evaluate())
    step = proof.chain(s.subs(m, m + 1), "m + 1").equals(s + 2 * m + 1, "split off the last term",
                                                          method="doit")
    if use_hypothesis:
        step = induction.hypothesis(step)
    induction.step(step.equals((m + 1) ** 2, "algebra", method="factor"))
    return induction


def test_induction_proves_a_formula_for_every_whole_number():
    m = sp.Symbol("m", integer=True, positive=True)
    proof = derivation(sp.Sum(2 * i - 1, (i, 1, m)), m**2)
    proof.conclude(m**2, _sum_of_odds(proof, m).result())
    assert finished(proof) == ("proved", ())


def test_an_induction_step_that_ignores_its_hypothesis_fails():
    m = sp.Symbol("m", integer=True, positive=True)
    proof = derivation(sp.Sum(2 * i - 1, (i, 1, m)), m**2)
    with pytest.raises(ProofFailure):
        _sum_of_odds(proof, m, use_hypothesis=False)


def test_an_inequality_lemma_cannot_be_substituted_as_an_equality():
    """Citing "D ≥ 0" must not prove "D = 0"."""
    y = sp.Symbol("y", positive=True)
    lemma = Statement("y + 1/y ≥ 2", 2, y + 1 / y, ">=")
    proof = derivation(x + 1 / x, 2, lemmas={"am-gm": lemma}, allowed=("am-gm",))
    with pytest.raises(ProofDefinitionError, match="states an inequality"):
        proof.chain(x + 1 / x, "x + 1/x").substitute(lemma="am-gm", rename={y: x})
    proof = derivation(x + 1 / x, 2, relation=">=", lemmas={"am-gm": lemma}, allowed=("am-gm",))
    proof.conclude(2, proof.chain(x + 1 / x, "x + 1/x").ge(2, lemma="am-gm", rename={y: x}))
    assert finished(proof) == ("proved", ())


def test_a_bound_rule_does_not_give_a_strict_inequality():
    p, q = sp.IndexedBase("p", positive=True), sp.IndexedBase("q", positive=True)
    s = sp.Sum(p[i] * sp.log(q[i] / p[i]), (i, 1, n))
    proof = derivation(s, 0, relation="<")
    with pytest.raises(ProofDefinitionError, match="not a strict"):
        proof.chain(s, "Σ p log(q/p)").le(sp.Sum(p[i] * (q[i] / p[i] - 1), (i, 1, n)), "bound",
                                          rule=LOG_BOUND, strict=True)
