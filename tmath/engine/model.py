"""What a claim is: its metadata, statement, foils and printed figures.

A claim module declares each claim with the :func:`claim` class decorator. The decorator only
validates and records metadata (like ``@pytest.mark`` or Hypothesis' ``@seed``); proofs and
randomized checks run later, when the runner asks for them.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from tmath.engine import kinds
from tmath.engine.info import (ClaimInfo, FigureInfo, FoilInfo,  # noqa: F401 -- re-exported:
                               Passage, Source)  # the records of the index
from tmath.engine.kinds import KINDS  # re-exported: what a claim can be
from tmath.errors import ClaimDefinitionError

CLAIM_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
SECTION = re.compile(r"^\d+(\.\d+)?$")


@dataclass(frozen=True)
class Statement:
    """What a claim asserts: ``lhs relation value``.

    ``text`` is the statement for people. ``value`` is what the proof and the randomized check
    compare their results with (a SymPy expression, a tuple of them, a matrix, ...); a foil
    replaces it by a false value of the same shape. ``lhs`` is the quantity the value belongs
    to, as a SymPy expression (a tuple, one per part of the value): every chain of the proof
    starts from it, so a claim with a proof must give it. ``relation`` is ``"="`` (the default),
    ``"<="``, ``">="``, ``"<"`` or ``">"`` (or a tuple, one per part).
    """

    text: str
    value: Any = None
    lhs: Any = None
    relation: str | tuple[str, ...] = "="


@dataclass(frozen=True)
class Premise:
    """A premise the proof may substitute from: its text, and the equations it asserts.

    ``Premise("E[q_i] = 0 and Var(q_i) = 1", {E(q): 0, Var(q): 1})``. A substitution citing it
    must be one of these equations (the engine checks); a premise given as plain text can only
    be cited as an assumption, and the claim is then proved *assuming* it.
    """

    text: str
    equations: Any = ()

    def __post_init__(self) -> None:
        pairs = self.equations.items() if hasattr(self.equations, "items") else self.equations
        object.__setattr__(self, "equations", tuple((k, v) for k, v in pairs))

    def __str__(self) -> str:
        return self.text


class Definition(Premise):
    """What a name means, as equations: ``Definition("sinusoidal encoding", {PE(pos, 2*i):
    sp.sin(pos / 10000**(2*i/d))})``. A formula the claim records is bound to it when it means
    the same, and is an error when it is the near form of it with another meaning. A proof may
    substitute from it when it is also listed among the premises."""


@dataclass(frozen=True)
class Foil:
    """The nearest false statement: both checks must reject it."""

    text: str
    value: Any
    why: str = ""


@dataclass(frozen=True)
class Figure:
    """A number the notes print, and how to compute its true value.

    ``printed`` is the text exactly as the notes print it ("≈ 22.6", "[0.84, 0.11, 0.04]",
    "1/9770", "26万"); it is compared with ``compute()`` at the precision printed (half a unit
    in the last printed digit). ``near`` is text printed next to the number in the notes, used
    to find it in its section. ``rough`` gives the reason when the notes mark the figure as a
    rough value; ``rel_tol`` then sets the looser relative tolerance.

    Like a W3C Web Annotation ``TextQuoteSelector``, ``printed`` is the exact quote, ``near``
    its prefix and ``after`` (optional) its suffix: the document gate relocates the figure
    from them when the prose around it changes. ``role`` is where the figure is printed:
    ``"text"`` (running text, inline math included) or ``"formula"`` (inside a display
    formula); a figure is only read from a number in its role.
    """

    label: str
    printed: str
    compute: Callable[[], Any]
    near: str = ""
    rough: str | None = None
    rel_tol: float | None = None
    after: str = ""
    role: str = "text"


@dataclass(frozen=True)
class ClaimSpec:
    """A registered claim: metadata plus the object that proves and checks it."""

    id: str
    title: str
    section: str
    statement: Statement
    premises: tuple[str | Premise, ...]
    foils: tuple[Foil, ...]
    implementation: Any
    sources: tuple[Source, ...] = ()
    lemmas: tuple[tuple[str, Statement], ...] = ()
    """The statements of the claims this one depends on (attached by the registry), so a
    proof step citing one is checked to be an instance of it."""
    tags: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    figures: tuple[Figure, ...] = ()
    formulas: tuple[str, ...] = ()
    statistical_tests: int = 0
    no_proof: str | None = None
    path: str = "<unknown>"
    line: int | None = None
    summary: str = field(default="")
    title_zh: str = ""
    summary_zh: str = ""
    glossary_zh: tuple[tuple[str, str], ...] = ()
    formula_spellings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    kind: str = "theorem"
    reason: str | None = None
    reported: str = ""
    passages: tuple[Passage, ...] = ()
    not_in: tuple[tuple[Source, str], ...] = ()
    definitions: tuple[Definition, ...] = ()
    notation: tuple[tuple[str, Any], ...] = ()
    """How the claim's objects print in documents: (LaTeX, SymPy object) pairs."""

    @property
    def top_section(self) -> str:
        return self.section.split(".")[0]

    @functools.cached_property
    def info(self) -> ClaimInfo:
        return ClaimInfo(
            id=self.id, title=self.title, section=self.section, statement=self.statement.text,
            statement_pretty=typeset_statement(self.statement, "block"),
            statement_latex=typeset_statement(self.statement, "latex"),
            statement_mathml=typeset_statement(self.statement, "mathml"),
            statement_linear=typeset_statement(self.statement, "linear"),
            premises=tuple(getattr(p, "text", p) for p in self.premises), foils=tuple(FoilInfo(f.text, f.why) for f in self.foils),
            sources=self.sources, tags=self.tags, depends_on=self.depends_on,
            figures=tuple(FigureInfo(f.label, f.printed, f.near, f.rough, f.rel_tol, f.after,
                                     f.role) for f in self.figures),
            formulas=self.formulas, statistical_tests=self.statistical_tests,
            no_proof=self.no_proof, path=self.path, line=self.line, summary=self.summary,
            title_zh=self.title_zh, summary_zh=self.summary_zh, glossary_zh=self.glossary_zh,
            has_plot=callable(getattr(self.implementation, "plot", None)),
            formula_spellings=self.formula_spellings, kind=self.kind, reason=self.reason,
            reported=self.reported, passages=self.passages, not_in=self.not_in,
            has_check=callable(getattr(self.implementation, "check", None)))


def typeset_statement(statement: Statement, form: str) -> str | None:
    """``lhs relation value`` as ``block`` (2D Unicode), ``linear`` (one line), ``latex`` or
    ``mathml``; None when the statement has no symbolic form."""
    lhs, value = statement.lhs, statement.value
    if lhs is None or value is None:
        return None
    from tmath.engine import printing

    pairs = list(zip(lhs, value)) if isinstance(lhs, tuple) else [(lhs, value)]
    relations = statement.relation if isinstance(statement.relation, tuple) \
        else (statement.relation,) * len(pairs)
    if form == "linear":
        shown = {"=": "=", "<=": "≤", ">=": "≥", "<": "<", ">": ">"}
        return "; ".join(f"{printing.linear(a)} {shown[r]} {printing.linear(b)}"
                         for (a, b), r in zip(pairs, relations))
    render = {"block": printing.block, "latex": printing.latex, "mathml": printing.mathml}[form]
    parts = [render(a, b, r) for (a, b), r in zip(pairs, relations)]
    if not all(parts):
        return None
    joiner = {"block": "\n\n", "latex": ", \\quad ", "mathml": ""}[form]
    return joiner.join(parts)


_collected: list[ClaimSpec] = []


def claim(
    *,
    id: str,
    title: str,
    section: str,
    statement: Statement,
    premises: Sequence[str | Premise],
    foils: Sequence[Foil],
    sources: Sequence[Source] = (),
    tags: Sequence[str] = (),
    depends_on: Sequence[str] = (),
    figures: Sequence[Figure] = (),
    formulas: Sequence[str] = (),
    statistical_tests: int = 0,
    no_proof: str | None = None,
    title_zh: str = "",
    summary_zh: str = "",
    glossary_zh: dict[str, str] | None = None,
    formula_spellings: dict[str, Sequence[str]] | None = None,
    kind: str | None = None,
    reason: str | None = None,
    reported: str = "",
    passages: Sequence[Passage] = (),
    not_in: Sequence[tuple[Source, str]] = (),
    definitions: Sequence[Definition] = (),
    notation: dict[str, Any] | None = None,
) -> Callable[[type], type]:
    """Register the decorated class as a claim.

    The class provides ``prove(self, value, proof)`` (unless ``no_proof`` gives the reason
    there is no theorem to prove) and ``check(self, value, experiment)``. Both receive the
    statement's value, or a foil's value during an audit, and must reject a false one.

    ``statistical_tests`` is how many hypothesis tests the randomized check runs; the claim's
    false-alarm budget is split evenly among them (Bonferroni).

    ``title_zh`` and ``summary_zh`` are the Chinese title and summary (``--lang zh``);
    ``glossary_zh`` translates the claim's own texts (step justifications, premises, test
    labels) as ``{english: chinese}``. A class may also define ``plot(self) -> tmath.plots.Plot``,
    and ``perturbations(self, value) -> [(text, value), ...]`` to replace the automatic ×1.05
    near-misses of ``tmath audit`` where scaling makes no sense (−∞, relations, rules).

    ``definitions`` state, as SymPy equations, what the names the claim uses mean (an
    encoding, a schedule, a recursion); ``notation`` says how the claim's objects print, as
    ``{LaTeX: object}`` (``{r"q^T k": Sum(q[i]*k[i], (i, 1, d_k))}``). Every formula the claim
    records is read (:mod:`tmath.latex`) and compared by meaning with its statement,
    definitions, premises and proof steps (:mod:`tmath.meaning`): one that contradicts them
    fails the claim.

    ``formula_spellings`` gives other spellings of a recorded formula, ``{formula: (other,
    ...)}`` (the same cases written in English, say): ``tmath check`` takes any one of them in
    a document as the formula.

    ``kind`` is one of :data:`KINDS` (default ``"theorem"``, or ``"heuristic"`` when
    ``no_proof`` is given); see :mod:`tmath.engine.kinds` for what each needs (``reason``,
    ``sources`` with a locator, ``reported``). ``passages`` anchor the claim in a document's
    prose; ``not_in`` lists ``(source, why)`` of works the statement is wrongly credited to.
    """

    caller = sys._getframe(1)  # the module line with "@claim(": cheap, unlike inspect's search
    while caller.f_globals.get("__name__") == "tmath.engine.prose":  # the line with "prose("
        caller = caller.f_back
    where = (caller.f_code.co_filename, caller.f_lineno)
    kind = kinds.declared(kind, no_proof)

    def register(cls: type) -> type:
        problems = _problems(
            id, title, section, statement, foils, cls, statistical_tests, no_proof, figures,
            kind) + [f"formula_spellings names {f[:40]!r}, which is not one of the claim's "
                     "formulas" for f in (formula_spellings or {}) if f not in formulas]
        problems += kinds.problems(kind, cls, sources, reason or no_proof, reported, passages,
                                   not_in)
        if problems:
            raise ClaimDefinitionError(
                f"claim {id!r} ({where[0]}:{where[1]}): " + "; ".join(problems)
            )
        doc = _unwrap(inspect.getdoc(cls) or "")
        _collected.append(
            ClaimSpec(
                id=id,
                title=title,
                section=section,
                statement=statement,
                premises=tuple(premises),
                foils=tuple(foils),
                implementation=cls(),
                sources=tuple(sources),
                tags=tuple(tags),
                depends_on=tuple(depends_on),
                figures=tuple(figures),
                formulas=tuple(formulas),
                statistical_tests=statistical_tests,
                no_proof=kinds.no_proof_text(kind, no_proof, reason),
                path=where[0],
                line=where[1],
                summary=doc,
                title_zh=title_zh,
                summary_zh=summary_zh,
                glossary_zh=tuple((glossary_zh or {}).items()),
                formula_spellings=tuple((f, tuple(others))
                                        for f, others in (formula_spellings or {}).items()),
                kind=kind, reason=reason or no_proof, reported=reported,
                passages=tuple(passages), not_in=tuple((s, why) for s, why in not_in),
                definitions=tuple(definitions), notation=tuple((notation or {}).items()),
            )
        )
        return cls

    return register


def _unwrap(text: str) -> str:
    """Join a docstring's wrapped lines; keep its paragraphs."""
    return "\n\n".join(" ".join(line.strip() for line in para.splitlines())
                         for para in text.split("\n\n")).strip()


def collected() -> list[ClaimSpec]:
    """Take the claims registered since the last call (used by the loader)."""
    taken = list(_collected)
    _collected.clear()
    return taken


def _problems(
    id: str,
    title: str,
    section: str,
    statement: Statement,
    foils: Sequence[Foil],
    cls: type,
    statistical_tests: int,
    no_proof: str | None,
    figures: Sequence[Figure],
    kind: str = "theorem",
) -> list[str]:
    problems = []
    checked = callable(getattr(cls, "check", None))
    if not isinstance(id, str) or not CLAIM_ID.match(id):
        problems.append("id must be kebab-case, e.g. 'dot-product-variance'")
    if not title.strip():
        problems.append("add a title")
    if not SECTION.match(section):
        problems.append("section must look like '1' or '1.1'")
    if not isinstance(statement, Statement) or not statement.text.strip():
        problems.append("add a statement: Statement(text, value)")
    if not foils and (checked or kind == "theorem"):
        problems.append("add at least one Foil (the nearest false statement)")
    if any(not isinstance(f, Foil) for f in foils):
        problems.append("foils must be Foil objects")
    if not checked and kind == "theorem":
        problems.append("define check(self, value, experiment)")
    if no_proof is None and kind == "theorem" and not callable(getattr(cls, "prove", None)):
        problems.append("define prove(self, value, proof), or pass no_proof='reason'")
    if no_proof is not None and not no_proof.strip():
        problems.append("no_proof needs a reason")
    relations = statement.relation if isinstance(statement, Statement) else "="
    if any(r not in ("=", "<=", ">=", "<", ">")
           for r in (relations if isinstance(relations, tuple) else (relations,))):
        problems.append("Statement relation must be one of =, <=, >=, <, >")
    if statistical_tests < 0:
        problems.append("statistical_tests cannot be negative")
    if any(not isinstance(f, Figure) for f in figures):
        problems.append("figures must be Figure objects")
    elif any(f.role not in ("text", "formula") for f in figures):
        problems.append("a Figure's role must be 'text' or 'formula'")
    return problems
