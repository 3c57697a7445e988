"""What the index keeps of a claim: its metadata as plain records, without its code.

The cache, the document gate and the commands that show claims read them through these
records: a :class:`ClaimInfo` with the :class:`Source` records of its citations, the
:class:`Passage` selectors of its prose, and its figures and foils as text. They need nothing
of NumPy, SymPy or the claims modules, so reading the index imports this module alone (the
classes a claim is written with are in :mod:`tmath.engine.model`, which re-exports these).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """A paper, book or blog post a claim comes from.

    ``Source("Vaswani et al. (2017), Attention Is All You Need", arxiv="1706.03762")`` still
    works; a source can also record its bibliographic facts (``authors`` in order, ``title``,
    ``year``, ``venue``, ``doi``) and a ``locator`` (``"§3.2.1"``, ``"Table 3"``), which
    ``tmath check`` compares with the citations of a document. ``unverified`` says which of
    the recorded facts were not read from the work's own record (empty: all were).
    """

    citation: str = ""
    arxiv: str | None = None
    url: str | None = None
    authors: tuple[str, ...] = ()
    title: str = ""
    year: int | None = None
    venue: str = ""
    locator: str = ""
    doi: str | None = None
    unverified: str = ""
    key: str = ""
    """A short name for the work, the same wherever it is cited (``"vaswani2017"``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "authors", tuple(self.authors))
        if not self.citation:
            object.__setattr__(self, "citation", self._built_citation())

    def _built_citation(self) -> str:
        names = [a.split()[-1] for a in self.authors]
        who = (names[0] if len(names) == 1 else " & ".join(names) if len(names) == 2
               else f"{names[0]} et al." if names else "")
        year = f" ({self.year})" if self.year else ""
        return ", ".join(p for p in (f"{who}{year}".strip(), self.title) if p)

    def at(self, locator: str, unverified: str = "") -> "Source":
        """The same work, pointing at one place in it (``VASWANI.at("§5.4")``);
        ``unverified`` says what about that place was not read from the work itself."""
        import dataclasses

        notes = "; ".join(n for n in (self.unverified, unverified) if n)
        return dataclasses.replace(self, locator=locator, unverified=notes)

    @property
    def shown(self) -> str:
        """The citation with its locator, as ``list`` and ``explain`` print it."""
        return f"{self.citation}, {self.locator}" if self.locator else self.citation

    @property
    def link(self) -> str | None:
        if self.arxiv:
            return f"https://arxiv.org/abs/{self.arxiv}"
        return self.url


@dataclass(frozen=True)
class Passage:
    """Where a document asserts a prose claim: a selector made of facts, never of sentences.

    ``terms`` are the technical terms, names, numbers and formulas the passage uses, each a
    string or a tuple of alternatives (``("BatchNorm", "BN")``); ``section`` is the position
    hint (default: the claim's section). ``tmath check`` looks for the sentence or paragraph of
    that section (or of a pinned paragraph) that holds most of them, fuzzily, like a figure's
    anchor, and reports the best candidate's line when it is not there.
    """

    terms: tuple[tuple[str, ...], ...]
    section: str | None = None
    label: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "terms", tuple(
            (t,) if isinstance(t, str) else tuple(t) for t in self.terms))


@dataclass(frozen=True)
class FigureInfo:
    """What the cache and the document gate need of a
    :class:`~tmath.engine.model.Figure`."""

    label: str
    printed: str
    near: str = ""
    rough: str | None = None
    rel_tol: float | None = None
    after: str = ""
    role: str = "text"


@dataclass(frozen=True)
class FoilInfo:
    """A foil as the index keeps it: what it states and why it is false."""

    text: str
    why: str = ""


@dataclass(frozen=True)
class ClaimInfo:
    """A claim's metadata only: cheap to store in the index and to send between processes."""

    id: str
    title: str
    section: str
    statement: str
    statement_pretty: str | None
    statement_latex: str | None
    premises: tuple[str, ...]
    foils: tuple[FoilInfo, ...]
    sources: tuple[Source, ...]
    tags: tuple[str, ...]
    depends_on: tuple[str, ...]
    figures: tuple[FigureInfo, ...]
    formulas: tuple[str, ...]
    statistical_tests: int
    no_proof: str | None
    path: str
    line: int | None
    summary: str
    title_zh: str = ""
    summary_zh: str = ""
    glossary_zh: tuple[tuple[str, str], ...] = ()
    has_plot: bool = False
    statement_mathml: str | None = None
    statement_linear: str | None = None
    formula_spellings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Other spellings of a recorded formula (in another language, say): any one present in
    a document counts as the formula."""
    kind: str = "theorem"
    """One of :data:`tmath.engine.kinds.KINDS`."""
    reason: str | None = None
    """Why a heuristic cannot be verified (for a cited claim: what it rests on)."""
    reported: str = ""
    """An empirical claim's published measurement, as its source reports it."""
    passages: tuple[Passage, ...] = ()
    not_in: tuple[tuple[Source, str], ...] = ()
    """Works this claim's statement is *not* from, and why: a document attributing the
    statement to one of them is reported by ``tmath check``."""
    has_check: bool = True

    def spellings(self, formula: str) -> tuple[str, ...]:
        """A recorded formula and its other spellings."""
        return (formula, *dict(self.formula_spellings).get(formula, ()))

    @property
    def top_section(self) -> str:
        return self.section.split(".")[0]
