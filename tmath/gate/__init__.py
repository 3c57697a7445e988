"""The documentation gate: hold a document to the claims that vouch for it.

The pipeline reads like the document's journey through it:

* :mod:`~tmath.gate.document` reads the text once: lines, sections, math, claim pins;
* :mod:`~tmath.gate.numbers` finds every printed number and its form;
* :mod:`~tmath.gate.anchoring` locates each figure a claim records;
* :mod:`~tmath.gate.figures` and :mod:`~tmath.gate.formulas` judge figures and formulas;
* :mod:`~tmath.gate.coverage` counts what the claims cover, per section;
* :mod:`~tmath.gate.findings` is the report model the renderers show;
* :mod:`~tmath.gate.pipeline` runs the stages in order (:func:`check`).

The gate reads text only; it never evaluates it.
"""

from tmath.gate.findings import Finding, Report, SectionCoverage
from tmath.gate.pipeline import check

__all__ = ["check", "Finding", "Report", "SectionCoverage"]
