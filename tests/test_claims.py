"""Every built-in claim verifies, and its checks reject every foil (the audit).

One parametrized test per claim, generated from the registry like scikit-learn's
``parametrize_with_checks``: adding a claim adds its tests.
"""

from __future__ import annotations

import pytest

from tmath.engine.kinds import BEST
from tmath.engine.registry import load
from tmath.defaults import DEFAULT_SEED
from tmath.engine.runner import audit_one

REGISTRY = load()
IDS = [spec.id for spec in REGISTRY if spec.info.has_check]
"""Claims with a check to audit; the cited and heuristic claims with nothing to run are tested
in tests/test_kinds.py."""


def test_builtin_claims_load_cleanly():
    assert REGISTRY.errors == []
    assert len(IDS) >= 10


@pytest.mark.parametrize("claim_id", IDS)
def test_claim_verifies_and_rejects_every_foil(claim_id):
    audit = audit_one(REGISTRY.get(claim_id), DEFAULT_SEED)
    result = audit.statement
    assert result.verdict == BEST[result.info.kind], (
        result.proof.reason, result.empirical.headline)
    if result.info.no_proof is None:
        assert result.proof.status in ("proved", "proved-for-cases")
    assert result.info.foils, "every claim declares at least one foil"
    weak = [(f.text, f.proof.status, f.empirical.headline) for f in audit.foils if not f.rejected]
    assert not weak, weak
    for foil in audit.foils:
        if foil.proof_rejects is not None:
            assert foil.proof_rejects, foil.text
        assert foil.check_rejects, foil.text


@pytest.mark.parametrize("claim_id", IDS)
def test_proof_has_checked_steps(claim_id):
    """A proof must derive something: at least one step SymPy checked before the conclusion."""
    spec = REGISTRY.get(claim_id)
    if spec.no_proof is not None:
        pytest.skip("no theorem to prove: " + spec.no_proof)
    from tmath.engine.runner import run_proof

    steps = run_proof(spec, spec.statement.value).steps
    derivation = [s for s in steps if s.why != "matches the statement"]
    assert any(s.kind in ("checked", "lemma", "rule", "premise") for s in derivation)
    assert any(s.kind == "checked" for s in steps)
