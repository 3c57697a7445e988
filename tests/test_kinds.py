"""Claim kinds: a fact or a published result is cited, never verified; a heuristic says why it
cannot be verified; a claim with no check reports "none", never a pass; every command shows
the kind. Deliberately broken declarations are refused with their remedy."""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.defaults import DEFAULT_SEED
from tmath.engine.kinds import BEST
from tmath.engine.registry import load
from tmath.engine.runner import audit_one, verify_one
from tmath.exitcodes import ExitCode

runner = CliRunner()

KINDS_CLAIMS = '''
import sympy as sp
from tmath import Foil, Passage, Source, Statement, claim, prose

ENGINE = Source(authors=("Ada Lovelace", "Charles Babbage"), title="Notes on the Engine",
                year=1843, venue="Scientific Memoirs")

prose(id="engine-has-store", kind="fact", section="1.1", title="The engine has a store",
      statement="The analytical engine keeps numbers in a store.", summary="Cited.",
      sources=(ENGINE.at("Note A"),), passage=Passage(("store", "mill")))

prose(id="engine-speed", kind="empirical", section="1.1", title="It adds quickly",
      statement="An addition takes about a second.", summary="A measurement.",
      sources=(ENGINE.at("Note G, Table 1"),), reported="one second per addition")

prose(id="engine-music", kind="heuristic", section="1.2", title="It may compose music",
      statement="Such an engine might compose music.", summary="A guess.",
      reason="a prediction about machines not yet built")


@claim(id="uniform-mean-toy", kind="heuristic", reason="a toy stands in for the real thing",
       title="A toy check", section="1.2", statement=Statement("mean of U(0,1) is 1/2", 0.5),
       premises=(), foils=(Foil("0.6", 0.6),), statistical_tests=1)
class UniformMeanToy:
    """A toy that can fail."""
    def check(self, value, experiment):
        experiment.mean(lambda rng, m: rng.random(m), float(value), "mean of uniforms")


@claim(id="engine-fact-with-check", kind="fact", title="A fact with a passing check",
       section="1.3", statement=Statement("two and two make four", 4), premises=(),
       foils=(Foil("five", 5),), sources=(ENGINE.at("Note B"),))
class FactWithCheck:
    """Its check passes, yet the claim is a cited fact: it must not become verified."""
    def check(self, value, experiment):
        experiment.holds(2 + 2 == value, "two and two")
'''


@pytest.fixture
def kinds_dir(claims_dir):
    return claims_dir({"kinds.py": KINDS_CLAIMS})


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_each_kind_gets_the_verdict_its_kind_allows(kinds_dir):
    result = invoke("verify", "--claims", str(kinds_dir), "--no-builtin", "--no-cache", "-j",
                    "1", "-f", "json")
    assert result.exit_code == ExitCode.OK, result.output
    doc = json.loads(result.stdout)
    verdicts = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert verdicts == {"engine-has-store": "cited", "engine-speed": "cited",
                        "engine-music": "heuristic", "uniform-mean-toy": "heuristic",
                        "engine-fact-with-check": "cited"}
    summary = doc["summary"]
    assert summary["verified"] == 0 and summary["cited"] == 3 and summary["heuristic"] == 2
    assert summary["kinds"] == {"theorem": 0, "heuristic": 2, "empirical": 1, "fact": 2}
    by_id = {c["id"]: c for c in doc["claims"]}
    fact = by_id["engine-has-store"]
    assert fact["kind"] == "fact" and fact["empirical"]["status"] == "none"
    assert fact["proof"]["status"] == "none" and "cited" in fact["proof"]["reason"]
    assert fact["sources"][0]["locator"] == "Note A"
    assert fact["sources"][0]["authors"] == ["Ada Lovelace", "Charles Babbage"]
    assert fact["passages"] == [{"section": "1.1", "terms": [["store"], ["mill"]]}]
    assert by_id["engine-speed"]["reported"] == "one second per addition"
    assert by_id["engine-music"]["reason"] == "a prediction about machines not yet built"


def test_list_shows_kinds_and_the_summary_counts_them(kinds_dir):
    listed = invoke("list", "--claims", str(kinds_dir), "--no-builtin", "-f", "json")
    assert listed.exit_code == ExitCode.OK
    assert {c["id"]: c["kind"] for c in json.loads(listed.stdout)}["engine-speed"] == "empirical"
    table = invoke("list", "--claims", str(kinds_dir), "--no-builtin")
    assert "fact (cited)" in table.output and "empirical (cited)" in table.output
    verify = invoke("verify", "--claims", str(kinds_dir), "--no-builtin", "-j", "1")
    assert verify.exit_code == ExitCode.OK
    assert "0 verified" in verify.output and "3 cited" in verify.output
    assert "2 heuristic" in verify.output and "1 empirical" in verify.output


def test_explain_shows_the_source_with_its_locator_or_the_reason(kinds_dir):
    fact = invoke("explain", "engine-speed", "--claims", str(kinds_dir), "--no-builtin")
    assert fact.exit_code == ExitCode.OK, fact.output
    assert "Lovelace & Babbage (1843), Notes on the Engine, Note G, Table 1" in fact.output
    assert "one second per addition" in fact.output and "cited" in fact.output
    hunch = invoke("explain", "engine-music", "--claims", str(kinds_dir), "--no-builtin")
    assert "a prediction about machines not yet built" in hunch.output


def test_a_claim_with_no_check_has_nothing_to_audit_and_is_not_weak(kinds_dir):
    result = invoke("audit", "--claims", str(kinds_dir), "--no-builtin", "-j", "1")
    assert result.exit_code == ExitCode.OK, result.output
    assert "nothing to audit" in result.output


def test_a_passing_check_does_not_make_a_fact_verified(kinds_dir):
    spec = load([kinds_dir], builtin=False).get("engine-fact-with-check")
    result = verify_one(spec, DEFAULT_SEED)
    assert result.empirical.status == "passed" and result.verdict == "cited"
    forged = dataclasses.replace(result, verdict="verified")  # a cache entry claiming more
    assert forged.verdict == "cited"


def test_a_failing_toy_check_fails_the_heuristic(kinds_dir):
    spec = load([kinds_dir], builtin=False).get("uniform-mean-toy")
    wrong = dataclasses.replace(spec, statement=dataclasses.replace(spec.statement, value=0.7))
    assert verify_one(wrong, DEFAULT_SEED).verdict == "failed"


def test_a_crashed_worker_of_a_claim_with_no_check_is_an_error_not_cited(kinds_dir):
    from tmath.engine.parallel import Outcome
    from tmath.engine.session import unfinished

    info = load([kinds_dir], builtin=False).get("engine-has-store").info
    crashed = unfinished(info, Outcome("crash", message="worker died"), DEFAULT_SEED)
    assert crashed.verdict == "error"


@pytest.mark.parametrize("declaration, remedy", [
    ('prose(id="x-fact", kind="fact", section="1", title="t", statement="s", summary="u", '
     'sources=(Source("A (2001), B", arxiv="0101.00001"),))', "locator"),
    ('prose(id="x-fact", kind="fact", section="1", title="t", statement="s", summary="u")',
     "needs sources"),
    ('prose(id="x-emp", kind="empirical", section="1", title="t", statement="s", summary="u", '
     'sources=(Source("A (2001), B", arxiv="0101.00001").at("Table 1"),))', "reported="),
    ('prose(id="x-heu", kind="heuristic", section="1", title="t", statement="s", summary="u")',
     "reason="),
    ('prose(id="x-odd", kind="folklore", section="1", title="t", statement="s", summary="u")',
     "kind must be one of"),
    ('prose(id="x-thm", kind="theorem", section="1", title="t", statement="s", summary="u")',
     "@claim"),
    ('prose(id="x-src", kind="fact", section="1", title="t", statement="s", summary="u", '
     'sources=(Source("A (2001), B").at("§1"),))', "where to find it"),
    ('prose(id="x-pas", kind="heuristic", section="1", title="t", statement="s", summary="u", '
     'reason="r", passage=Passage(()))', "Passage needs terms"),
])
def test_broken_declarations_are_load_errors_that_say_the_remedy(claims_dir, declaration, remedy):
    folder = claims_dir({"broken.py": "from tmath import Passage, Source, prose\n" + declaration})
    registry = load([folder], builtin=False)
    assert not registry.claims
    assert remedy in registry.errors[0].message


def test_a_cited_claim_cannot_carry_a_proof(claims_dir):
    folder = claims_dir({"proved_fact.py": '''
import sympy as sp
from tmath import Foil, Source, Statement, claim

@claim(id="proved-fact", kind="fact", title="t", section="1", statement=Statement("s", 1),
       premises=(), foils=(Foil("f", 2),), sources=(Source("A (2001), B", url="https://x").at("§1"),))
class ProvedFact:
    def prove(self, value, proof):
        proof.conclude(value, proof.chain(sp.Integer(1), "one"))
    def check(self, value, experiment):
        experiment.holds(value == 1, "one")
'''})
    registry = load([folder], builtin=False)
    assert "has no proof" in registry.errors[0].message


def test_old_sources_and_claims_still_work():
    from tmath import Source

    old = Source("Vaswani et al. (2017), Attention Is All You Need", arxiv="1706.03762")
    assert old.shown == old.citation and old.link == "https://arxiv.org/abs/1706.03762"
    built = Source(authors=("A B", "C D", "E F"), title="T", year=2000).at("§2")
    assert built.citation == "B et al. (2000), T" and built.shown == "B et al. (2000), T, §2"
    assert built.at("§3", unverified="the section").unverified == "the section"


BUILTIN = load()
PROSE = [s for s in BUILTIN if s.kind != "theorem" and not s.info.has_check]


@pytest.mark.parametrize("claim_id", [s.id for s in PROSE])
def test_builtin_prose_claims_reach_the_verdict_of_their_kind(claim_id):
    spec = BUILTIN.get(claim_id)
    audit = audit_one(spec, DEFAULT_SEED)
    assert audit.statement.verdict == BEST[spec.kind] and audit.strong
    assert audit.statement.empirical.status == "none"
    assert spec.passages, "a built-in prose claim anchors the notes"
    if spec.kind in ("fact", "empirical"):
        assert spec.sources and all(s.locator and s.authors and s.title for s in spec.sources)
    else:
        assert spec.reason


def test_the_builtin_claims_cover_every_kind():
    kinds = {s.kind for s in BUILTIN}
    assert kinds == {"theorem", "heuristic", "empirical", "fact"}
    assert len(PROSE) >= 30
