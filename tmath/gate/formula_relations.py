"""The relations of a document's formulas, for the checks that read them one by one."""

from __future__ import annotations

from typing import Callable, Iterator

from tmath.gate.document import Document, Math


def relations_in(document: Document, wanted: Callable[[str], bool]
                 ) -> Iterator[tuple[Math, int, int, object]]:
    """(formula, index, how many it has, relation) of each relation of every display and
    inline formula whose LaTeX passes ``wanted`` (a cheap test on the text, so that only the
    formulas a check can use are read)."""
    from tmath.meaning.recognise import relations_of

    for math in [*document.formulas, *document.inline]:
        if not wanted(math.latex):
            continue
        try:
            relations = relations_of(math.latex)
        except (ValueError, TypeError, RecursionError):
            continue   # SymPy refused a construction: this formula says nothing here
        for index, relation in enumerate(relations):
            yield math, index, len(relations), relation
