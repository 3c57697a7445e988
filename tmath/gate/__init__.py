"""The documentation gate: hold a document to the claims that vouch for it.

The pipeline reads like the document's journey through it, one module per stage:

* :mod:`~tmath.gate.document` reads the text once: lines, sections, math, claim pins;
* :mod:`~tmath.gate.binding` decides which claim sets vouch for which documents (a signature
  made of the formulas and terms the claims record; pins);
* :mod:`~tmath.gate.numbers` finds the printed numbers: where, in which form and role;
* :mod:`~tmath.gate.anchoring` locates every figure like an annotation (quote, prefix,
  suffix, position hint), one number per figure;
* :mod:`~tmath.gate.figures` and :mod:`~tmath.gate.formulas` judge figures and formulas;
* :mod:`~tmath.gate.statements` locates the passages of prose claims by their terms;
* :mod:`~tmath.gate.references` reads citations, :mod:`~tmath.gate.citations` checks them
  against the works the claims record;
* :mod:`~tmath.gate.coverage` counts what the claims cover, per section;
* :mod:`~tmath.gate.findings` is the report model the renderers (:mod:`tmath.render.gate`)
  show;
* :mod:`~tmath.gate.pipeline` runs the stages in order (:func:`check`);
* :mod:`~tmath.gate.fix` restates inaccurate figures for ``check --fix``;
* :mod:`~tmath.gate.skeleton` writes a claim skeleton for a document's line (``tmath new``).

The gate reads text only; it never evaluates it.
"""

from typing import Any, Sequence

from tmath.gate.document import Document
from tmath.gate.findings import Finding, Report, SectionCoverage
from tmath.gate.pipeline import check as check_documents

__all__ = ["check", "Finding", "Report", "SectionCoverage"]


def check(documents: Sequence[Document], *args: Any, **kwargs: Any) -> Report:
    """:func:`tmath.gate.pipeline.check`, and what the renderers need to say where a finding
    is: a notebook's cells, and what a reader could not read (as notes)."""
    report = check_documents(documents, *args, **kwargs)
    report.cells.update({d.path: d.cells for d in documents if d.cells})
    report.file_lines.update({d.path: d.file_lines for d in documents if d.file_lines})
    report.notes += tuple(f"{d.path}: {note}" for d in documents for note in d.notes)
    return report
