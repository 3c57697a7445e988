"""Every built-in claim verifies, its checks reject every foil, and its proof and check are sound
in the ways the engine can test: generated from the registry like scikit-learn's
``parametrize_with_checks``, so adding a claim adds its tests.
"""

from __future__ import annotations

import functools
import math

import pytest
import sympy as sp

from tmath.engine.cache import ResultCache
from tmath.engine.kinds import BEST
from tmath.defaults import DEFAULT_SEED
from tmath.engine.registry import load
from tmath.engine.results import PROVED
from tmath.engine.runner import audit_one, run_check, run_proof

REGISTRY = load()
IDS = [spec.id for spec in REGISTRY if spec.info.has_check]
"""Claims with a check to audit; the cited and heuristic claims with nothing to run are tested
in tests/test_kinds.py."""
PROOF_IDS = [spec.id for spec in REGISTRY if spec.no_proof is None]
RESOLUTION = 2.0  # percent: every statistical test resolves a 2 % deviation, or says why not


def by_claim(ids: list[str]) -> list:
    """The ids as parameters grouped by claim: under ``--dist loadgroup`` (pytest-xdist) every
    test of one claim runs in the same worker, so its audit below is computed once per run."""
    return [pytest.param(i, marks=pytest.mark.xdist_group(i)) for i in ids]


@functools.lru_cache(maxsize=None)
def audit(claim_id: str):
    """The claim's audit, computed once per worker and also stored in the test session's
    result cache under the key ``tmath audit`` and ``tmath report`` look up, so the report
    tests reuse it instead of auditing every claim again."""
    result = audit_one(REGISTRY.get(claim_id), DEFAULT_SEED)
    cache = ResultCache()
    cache.put(cache.key("audit", claim_id, REGISTRY.files_of(claim_id), DEFAULT_SEED), result)
    return result


def test_builtin_claims_load_cleanly():
    assert REGISTRY.errors == []
    assert len(IDS) >= 10


@pytest.mark.parametrize("claim_id", by_claim(IDS))
def test_claim_verifies_and_every_test_can_fail(claim_id):
    """The statement verifies (the best verdict its kind allows); both channels reject every
    foil and near-miss; every test of the randomized check rejects at least one of them (none
    is inert) unless it is a sanity test with its reason."""
    result = audit(claim_id)
    statement = result.statement
    assert statement.verdict == BEST[statement.info.kind], (
        statement.proof.reason, statement.empirical.headline)
    if statement.info.no_proof is None:
        assert statement.proof.status in PROVED
    assert statement.info.foils, "every claim declares at least one foil"
    weak = [(f.text, f.proof.status, f.empirical.headline) for f in result.foils if not f.rejected]
    assert not weak, weak
    for foil in result.foils:
        if foil.proof_rejects is not None:
            assert foil.proof_rejects, foil.text
        assert foil.check_rejects, foil.text
    assert not result.inert_tests, [t.title for t in result.inert_tests]


@pytest.mark.parametrize("claim_id", by_claim(PROOF_IDS))
def test_proof_derives_something(claim_id):
    """At least one derivation step that SymPy checked, or a vetted rule, an equation of a
    declared premise or an earlier result: the final comparison with the statement and no-ops
    do not count."""
    steps = audit(claim_id).statement.proof.steps
    derivation = [s for s in steps if s.derives]
    assert derivation, [(s.why, s.kind) for s in steps]
    assert any(s.kind == "checked" for s in derivation) or any(
        s.kind in ("rule", "lemma", "derived", "premise") for s in derivation)


def _free_parameters(spec) -> set:
    value = spec.statement.value
    parts = value if isinstance(value, tuple) else (value,)
    symbols = set()
    for part in parts:
        if isinstance(part, sp.Basic):
            symbols |= {s for s in part.free_symbols if isinstance(s, sp.Symbol)}
    return symbols


@pytest.mark.parametrize("claim_id", by_claim(IDS))
def test_checks_draw_the_statements_parameters(claim_id):
    """A statement with free parameters is checked at points drawn from their domain, recorded
    with each test, and the points change with the seed."""
    spec = REGISTRY.get(claim_id)
    if not _free_parameters(spec):
        pytest.skip("the statement's value has no free parameter")
    first = run_check(spec, spec.statement.value, DEFAULT_SEED)
    drawn = [t.parameters for t in first.tests if t.parameters]
    assert drawn, "no test records the point it ran at: draw it with experiment.draw(...)"
    other = run_check(spec, spec.statement.value, DEFAULT_SEED + 1)
    assert drawn != [t.parameters for t in other.tests if t.parameters], \
        "the drawn points do not depend on the seed"


@pytest.mark.parametrize("claim_id", by_claim(IDS))
def test_statistical_tests_resolve_two_percent(claim_id):
    for test in audit(claim_id).statement.empirical.tests:
        if test.kind != "statistical" or test.resolution_reason:
            continue
        if test.resolution and test.resolution.endswith("of the stated value"):
            assert float(test.resolution.split("%")[0]) <= RESOLUTION, test.title
        elif test.resolution and test.resolution.endswith("σ"):
            assert float(test.resolution.rstrip("σ")) <= RESOLUTION / 100 + 1e-12, test.title


def test_the_mutation_guard_catches_a_proof_that_throws_its_limit_away(claims_dir):
    """The guard above can fail: a proof that computes a limit and concludes on another chain
    is caught by the engine (computed and unused) before the guard is even needed."""
    folder = claims_dir({"thrown.py": '''
import sympy as sp
from tmath import Foil, Statement, claim

c, g = sp.symbols("c g", positive=True)
P = 1 / (1 + sp.exp(-c * g))


@claim(id="thrown-away", title="t", section="1", statement=Statement("lim p = 1", sp.Integer(1),
       lhs=sp.Limit(P, c, sp.oo)), premises=("g > 0",), foils=(Foil("lim = 1/2", sp.Rational(1, 2)),))
class Thrown:
    def prove(self, value, proof):
        proof.chain(P, "p").limit(c, sp.oo)
        proof.conclude(value, proof.chain(sp.Limit(P, c, sp.oo), "again").evaluate())

    def check(self, value, experiment):
        experiment.close(float(1 / (1 + math.exp(-50))), float(value), 1e-12, "p at c = 50")
'''.replace("float(1 / (1 + math.exp(-50)))", "1.0")})
    spec = load([folder], builtin=False).get("thrown-away")
    result = run_proof(spec, spec.statement.value)
    assert result.status == "failed" and "computed and unused" in result.reason
    assert math.isfinite(result.seconds)
