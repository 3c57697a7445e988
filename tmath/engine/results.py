"""What running a claim produces: small immutable results, importable without NumPy or SymPy.

Proof and check results are built in worker processes, pickled, sent back and cached, and read
again by commands that must stay fast (a fully cached ``verify`` never imports the engine).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from tmath.engine import kinds
from tmath.engine.figures import FigureResult
from tmath.engine.info import ClaimInfo

StepKind = Literal["checked", "rule", "premise", "lemma", "derived", "assumed", "noop", "failed"]
"""checked: SymPy and random points agree · rule: a vetted library rule · premise: an equation
of a declared premise · lemma: an instance of a claim this one builds on · derived: the result of
an earlier chain · assumed: a claim-local rule or a premise without equations · noop: changed
nothing (not a check) · failed."""
ProofStatus = Literal["proved", "proved-assuming", "proved-for-cases", "failed", "error", "none"]
PROVED = ("proved", "proved-assuming", "proved-for-cases")
Verdict = Literal["verified", "heuristic", "cited", "failed", "error", "blocked", "timeout"]
PASSING = ("verified", "heuristic", "cited")
"""``cited``: a published measurement or fact (see :mod:`tmath.engine.kinds`), never verified."""


@dataclass(frozen=True)
class ProofStep:
    """One line of a derivation, as shown by ``tmath explain``."""

    chain: str
    before: str
    after: str
    why: str
    kind: StepKind
    detail: str = ""
    relation: str = "="
    """How ``before`` relates to ``after``: =, <=, >=, < or >."""
    latex: str = ""
    """``before relation after`` in LaTeX (typeset for explain and the report)."""
    block: str = ""
    """The same in SymPy's 2D Unicode (for a terminal, when one line is too long)."""
    mathml: str = ""
    """The same as a presentation MathML ``<math>`` element (the HTML report)."""
    inference: str = ""
    """The kernel's inference that made the step (``rewrite``, ``evaluation``, ``rule``, …)."""
    points: int = 0
    """Random points at which the step was also checked numerically (0: SymPy only)."""

    @property
    def ok(self) -> bool:
        return self.kind != "failed"

    @property
    def derives(self) -> bool:
        """A step that moves the derivation (not the final comparison, not a no-op)."""
        return self.kind not in ("noop", "failed") and self.why not in (
            "matches the statement", "compare with the statement")


@dataclass(frozen=True)
class ProofResult:
    """The outcome of a claim's symbolic proof."""

    status: ProofStatus
    steps: tuple[ProofStep, ...] = ()
    cases: str | None = None
    reason: str | None = None
    seconds: float = 0.0
    details: str = ""
    """The traceback when the status is ``error`` (shown with ``--verbose``)."""
    rests_on: tuple[str, ...] = ()
    """What a ``proved-assuming`` proof assumes: claim-local rules, premises without equations,
    claims it builds on that are not fully proved."""

    @property
    def accepted(self) -> bool:
        return self.status in PROVED

    @property
    def rules(self) -> tuple[str, ...]:
        """The vetted rules and declared premises the proof used (shown as ○)."""
        return tuple(dict.fromkeys(s.why for s in self.steps if s.kind in ("rule", "premise")))

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "cases": self.cases,
            "reason": self.reason,
            "rests_on": list(self.rests_on),
            "rules_used": list(self.rules),
            "steps": [
                {"chain": s.chain, "from": s.before, "to": s.after, "relation": s.relation,
                 "why": s.why, "kind": s.kind, "detail": s.detail, "inference": s.inference,
                 "numeric_points": s.points}
                for s in self.steps
            ],
            "seconds": round(self.seconds, 4),
        }


@dataclass(frozen=True)
class TestResult:
    """One test inside a randomized check."""

    label: str
    kind: Literal["statistical", "deterministic"]
    passed: bool
    summary: str
    estimate: float | None = None
    expected: float | None = None
    n: int | None = None
    ci: tuple[float, float] | None = None
    p_value: float | None = None
    alpha: float | None = None
    resolution: str | None = None
    parameters: tuple[tuple[str, Any], ...] = ()
    """The point of the statement's domain the test ran at (drawn from the claim's stream)."""
    looks: int | None = None
    """For a sequential test: at which look it stopped (4 = it ran to its full sample)."""
    sanity: str | None = None
    """Why this test checks the simulation itself and cannot reject a foil (not inert)."""
    resolution_reason: str | None = None
    """Why a statistical test's resolution is coarser than 2 %."""

    @property
    def at(self) -> str:
        return ", ".join(f"{k}={_short(v)}" for k, v in self.parameters)

    @property
    def identity(self) -> tuple:
        """What names this test across runs of the same check (an audit's foils)."""
        return (self.label, self.parameters)

    @property
    def title(self) -> str:
        return f"{self.label} at {self.at}" if self.parameters else self.label

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label, "kind": self.kind, "passed": self.passed,
            "summary": self.summary, "estimate": self.estimate, "expected": self.expected,
            "n": self.n, "ci": list(self.ci) if self.ci else None, "p_value": self.p_value,
            "alpha": self.alpha, "resolution": self.resolution,
            "parameters": {k: v for k, v in self.parameters}, "looks": self.looks,
            "sanity": self.sanity, "resolution_reason": self.resolution_reason,
        }


def _short(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class EmpiricalResult:
    """The outcome of a claim's randomized check."""

    status: Literal["passed", "failed", "error", "none"]
    """``none``: the claim has no check (a heuristic or a cited claim), with the reason."""
    tests: tuple[TestResult, ...] = ()
    alpha: float = 0.0
    reason: str | None = None
    seconds: float = 0.0
    details: str = ""
    """The traceback when the status is ``error`` (shown with ``--verbose``)."""

    @property
    def accepted(self) -> bool:
        return self.status == "passed"

    @property
    def headline(self) -> str:
        if self.reason:
            return self.reason
        failed = [t for t in self.tests if not t.passed]
        shown = failed[0] if failed else (self.tests[0] if self.tests else None)
        if shown is None:
            return "no tests recorded"
        more = f" (+{len(self.tests) - 1} more)" if len(self.tests) > 1 else ""
        return f"{shown.title}: {shown.summary}{more}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status, "alpha": self.alpha, "reason": self.reason,
            "tests": [t.to_dict() for t in self.tests], "seconds": round(self.seconds, 4),
        }


Meaning = Literal["equivalent", "contradicts", "unparsed", "not-compared"]


@dataclass(frozen=True)
class FormulaMeaning:
    """What a formula a claim records was found to mean (:mod:`tmath.meaning.claims`).

    ``bound`` has one entry per relation the reader found in it: what the relation was shown
    equivalent to (``statement``, ``definition``, ``premise``, ``step`` of the proof, or
    ``arithmetic`` for an identity), or ``""`` where it was not. ``contradicts``: a relation is
    the near form of the claim's own (``detail`` names both and a point where they differ)."""

    formula: str
    meaning: Meaning
    bound: tuple[str, ...] = ()
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"formula": self.formula, "meaning": self.meaning,
                "compared_with": list(self.bound), "detail": self.detail}


@dataclass(frozen=True)
class ClaimResult:
    """Everything ``verify`` learned about one claim."""

    info: ClaimInfo
    verdict: Verdict
    proof: ProofResult
    empirical: EmpiricalResult
    figures: tuple[FigureResult, ...]
    seed: int
    seconds: float
    blocked_by: tuple[str, ...] = ()
    cached: bool = False
    output: str = ""
    """What the claim printed while it ran (stdout and stderr, shown with ``--verbose``)."""
    reproduce_with: tuple[str, ...] = ()
    """The ``--claims DIR`` / ``--no-builtin`` arguments the reproduce command needs."""
    formulas: tuple[FormulaMeaning, ...] = ()
    """What each formula the claim records means (a contradicted one fails the claim)."""

    def __post_init__(self) -> None:
        # the claim's kind bounds its verdict: only a theorem is ever "verified"
        verdict, no_check = kinds.honest(self.info, self.verdict, self.proof, self.empirical,
                                         self.figures)
        object.__setattr__(self, "verdict", verdict)
        if no_check is not None:
            object.__setattr__(self, "empirical", EmpiricalResult("none", reason=no_check))

    @property
    def reproduce(self) -> str:
        import shlex

        return " ".join([f"tmath verify {self.info.id} --seed {self.seed}",
                         *map(shlex.quote, self.reproduce_with)])

    @property
    def reason(self) -> str:
        """Why a claim did not verify, in one line."""
        if self.verdict == "blocked":
            return "blocked by " + ", ".join(self.blocked_by)
        if self.proof.status in ("failed", "error"):
            return f"proof {self.proof.status}: {self.proof.reason}"
        if self.empirical.status != "passed":
            return f"randomized check {self.empirical.status}: {self.empirical.headline}"
        wrong = [f for f in self.formulas if f.meaning == "contradicts"]
        if wrong:
            return f"recorded formula {wrong[0].formula[:60]!r}: {wrong[0].detail}"
        errors = [f for f in self.figures if f.status == "error"]
        return f"figure {errors[0].label}: {errors[0].detail}" if errors else ""

    @property
    def wrong_figures(self) -> tuple[FigureResult, ...]:
        return tuple(f for f in self.figures if f.status != "accurate")

    def to_dict(self) -> dict[str, Any]:
        s = self.info
        return {
            "id": s.id, "section": s.section, "title": s.title, "statement": s.statement,
            "verdict": self.verdict, "blocked_by": list(self.blocked_by),
            "proof": self.proof.to_dict(), "empirical": self.empirical.to_dict(),
            "figures": [f.to_dict() for f in self.figures],
            "formulas": [f.to_dict() for f in self.formulas],
            "seconds": round(self.seconds, 4), "cached": self.cached,
            "reproduce": self.reproduce if self.verdict not in PASSING else None,
        }


def verdict_of(proof: ProofResult, empirical: EmpiricalResult) -> Verdict:
    if "error" in (proof.status, empirical.status):
        return "error"
    if proof.status == "failed" or empirical.status == "failed":
        return "failed"
    if proof.status == "none":
        return "heuristic"
    return "verified"


@dataclass(frozen=True)
class FoilOutcome:
    """How the two checks treated one false statement."""

    text: str
    origin: Literal["declared", "automatic"]
    proof: ProofResult
    empirical: EmpiricalResult

    @property
    def proof_rejects(self) -> bool | None:
        """None when the claim has no proof to run."""
        if self.proof.status == "none":
            return None
        return self.proof.status == "failed"

    @property
    def check_rejects(self) -> bool:
        return self.empirical.status == "failed"

    @property
    def rejected(self) -> bool:
        return self.check_rejects and self.proof_rejects is not False

    @property
    def proof_rejected_by(self) -> str | None:
        """The chain whose step or conclusion failed on this foil."""
        if not self.proof_rejects:
            return None
        failed = [s for s in self.proof.steps if s.kind == "failed"]
        return (failed[-1].chain or failed[-1].why) if failed else (self.proof.reason or "")

    @property
    def rejecting_tests(self) -> tuple[tuple, ...]:
        """Identities of the randomized tests that failed on this foil."""
        if self.empirical.status != "failed":
            return ()
        return tuple(t.identity for t in self.empirical.tests if not t.passed)

    def to_dict(self) -> dict[str, Any]:
        return {"foil": self.text, "origin": self.origin,
                "proof": {"status": self.proof.status, "rejects": self.proof_rejects,
                          "rejected_by": self.proof_rejected_by, "reason": self.proof.reason},
                "empirical": {"status": self.empirical.status, "rejects": self.check_rejects,
                              "rejected_by": [t.title for t in self.empirical.tests
                                              if not t.passed] if self.check_rejects else [],
                              "headline": self.empirical.headline},
                "rejected": self.rejected}


@dataclass(frozen=True)
class AuditResult:
    """Whether a claim's checks can fail: they accept the statement and reject every foil."""

    info: ClaimInfo
    statement: ClaimResult
    foils: tuple[FoilOutcome, ...]
    cached: bool = False
    output: str = ""
    """What the claim printed while its statement and foils ran (shown with ``--verbose``)."""

    @property
    def tests(self) -> tuple[TestResult, ...]:
        return self.statement.empirical.tests

    def kills(self, test: TestResult) -> tuple[int, ...]:
        """Indices of the foils this test of the statement's check rejected."""
        return tuple(k for k, foil in enumerate(self.foils) if test.identity in foil.rejecting_tests)

    @property
    def inert_tests(self) -> tuple[TestResult, ...]:
        """Tests that rejected no foil and are not marked as sanity tests: they cannot fail."""
        if not self.foils:
            return ()
        return tuple(t for t in self.tests if not t.sanity and not self.kills(t))

    @property
    def strong(self) -> bool:
        if not getattr(self.info, "has_check", True):  # nothing that could accept a foil
            return self.statement.verdict in PASSING
        return self.statement.verdict in PASSING and bool(self.foils) \
            and all(f.rejected for f in self.foils) and not self.inert_tests

    def kill_matrix(self) -> dict[str, Any]:
        """Which test of each channel rejected which foil (mutation testing's kill matrix)."""
        return {
            "foils": [f.text for f in self.foils],
            "tests": [{"test": t.title, "label": t.label,
                       "parameters": {k: v for k, v in t.parameters},
                       "kills": list(self.kills(t)), "inert": t in self.inert_tests,
                       "sanity": t.sanity} for t in self.tests],
            "proof": [f.proof_rejected_by for f in self.foils],
        }

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.info.id, "section": self.info.section, "cached": self.cached,
                "statement_verdict": self.statement.verdict, "strong": self.strong,
                "inert_tests": [t.title for t in self.inert_tests],
                "foils": [f.to_dict() for f in self.foils],
                "kill_matrix": self.kill_matrix()}
