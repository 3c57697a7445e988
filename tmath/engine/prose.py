"""``prose(...)``: declare a claim a document states in words, with no proof and no check.

A prose claim is one of the kinds of :mod:`tmath.engine.kinds` other than ``theorem``: a
``fact`` or an ``empirical`` result (cited to its source, with a locator), or a ``heuristic``
(with the reason it cannot be verified). ``passage`` anchors it in a document's prose::

    prose(id="gpt2-pre-norm", kind="fact", section="10.4",
          title="GPT-2 normalises the input of each sub-block",
          statement="GPT-2 moves layer normalisation to the input of each sub-block.",
          summary="...", sources=(RADFORD2019.at("§2.3"),),
          passage=Passage(("Pre-Norm", "GPT-2")))

A heuristic that a toy experiment can probe is written with ``@claim(kind="heuristic",
reason=...)`` on a class with a ``check`` (and foils), like any claim.
"""

from __future__ import annotations

from typing import Sequence

from tmath.engine.model import Passage, Source, Statement, claim
from tmath.errors import ClaimDefinitionError


def prose(*, id: str, kind: str, section: str, title: str, statement: str, summary: str,
          sources: Sequence[Source] = (), reason: str | None = None, reported: str = "",
          passage: Passage | Sequence[Passage] = (), not_in: Sequence[tuple[Source, str]] = (),
          tags: Sequence[str] = (), depends_on: Sequence[str] = ()) -> None:
    """Register a fact, empirical or heuristic claim that has nothing to run.

    ``summary`` says in a few words what the claim rests on (the ``explain`` page shows it);
    ``statement`` is the claim in your own words, never a document's sentence.
    """
    if kind == "theorem":
        raise ClaimDefinitionError(f"claim {id!r}: a theorem needs prove() and check(); "
                                   "declare it with @claim on a class")
    passages = (passage,) if isinstance(passage, Passage) else tuple(passage)
    implementation = type("".join(p.title() for p in str(id).split("-")) or "Prose", (),
                          {"__doc__": summary})
    claim(id=id, title=title, section=section, statement=Statement(statement), premises=(),
          foils=(), sources=sources, tags=tags, depends_on=depends_on, kind=kind,
          reason=reason, reported=reported, passages=passages, not_in=not_in)(implementation)
