"""``tmath check --fix``: restate each inaccurate figure with its true value, at the precision
and in the style the document prints it, and each contradicted formula by its claim's form.

A contradicted formula ``a = b`` keeps the side that means what the claim's formula means, as
the document writes it, and takes the other side from the claim's recorded formula; it is kept
only if it then reads as equivalent to the claim's relation.

The number keeps everything around its digits: the rough mark (``≈``), the unit (``万``,
``%``, ``k``), the power of ten (``×10⁴``), thousands separators, the sign's spelling, LaTeX
(``\\frac{1}{…}``), the other entries of a list. An integer is restated to the unit
(``61400`` → ``60611``: the true value, not a rounder one that happens to pass), a decimal
to its printed decimals, a reciprocal ``1/n`` by its denominator (``1/9770`` → ``1/9647``),
any other fraction by its numerator. A restatement is kept only if the gate then reads it
as accurate; otherwise the figure is left for a person (and says so).

The edits are applied to the file's text as it is (line endings, byte-order mark), never
to a normalised copy.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from tmath.engine.figures import (FigureSyntaxError, judge, number_parts, parse_printed,
                                  to_float)
from tmath.engine.model import Figure
from tmath.gate.document import Document
from tmath.gate.findings import Finding, Report
from tmath.gate.formulas import equals_at
from tmath.gate.meaning import forms_of
from tmath.gate.numbers import readable

_MANTISSA = re.compile(r"(?P<sign>[-−+]?)(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<dec>\d+))?")
_TEX_FRACTION = re.compile(r"(\\[dt]?frac\{\s*)([^{}]*?)(\s*\}\{\s*)([^{}]*?)(\s*\})")


@dataclass(frozen=True)
class Fix:
    """One figure to restate: [start, end) of the document's text, old and new text."""

    document: str
    line: int
    start: int
    end: int
    old: str
    new: str
    claim: str
    label: str


def plan(report: Report, documents: Sequence[Document]) -> tuple[list[Fix], list[Finding]]:
    """The fixes for every inaccurate figure, and the inaccurate figures that cannot be
    restated at their printed precision."""
    by_path = {d.path: d for d in documents}
    fixes, left = [], []
    for finding in report.findings:
        if finding.kind == "formula" and finding.status == "contradicts":
            fixed = _restate_formula(finding, by_path[finding.document])
            if fixed is None:
                left.append(finding)
            else:
                fixes.append(fixed)
            continue
        if finding.kind != "figure" or finding.status != "inaccurate" or not finding.span \
                or not finding.expected:
            continue
        document = by_path[finding.document]
        start, end = finding.span
        old = document.text[start:end]
        new = restate(old, finding.expected, finding.tolerance)
        if new is None or new == old:
            left.append(finding)
            continue
        fixes.append(Fix(document.path, finding.line or document.line_of(start), start, end, old,
                         new, finding.claim or "", finding.label))
    return fixes, left


def _restate_formula(finding: Finding, document: Document) -> Fix | None:
    """A contradicted formula with its wrong side put back as the claim's formula writes it
    (:func:`tmath.gate.meaning.restate`: kept only if it then reads as equivalent)."""
    if not finding.span or not finding.formula or not finding.recorded:
        return None
    start, end = finding.span
    old = document.text[start:end]
    new = restate_formula(old, finding.recorded)
    if new is None:
        return None
    return Fix(document.path, finding.line or document.line_of(start), start, end, old, new,
               finding.claim or "", "formula")


def restate(old: str, true: Sequence[float], tolerance: str = "") -> str | None:
    """``old`` (a figure as printed) with ``true`` in its place, or None when that cannot be
    said at the printed precision."""
    text = old
    if text.lstrip().startswith("["):
        new = _restate_list(text, true)
    elif len(true) != 1:
        return None
    elif _TEX_FRACTION.search(text) or "/" in text:
        new = _restate_fraction(text, true[0])
    else:
        new = _restate_number(text, true[0])
    if new is None:
        return None
    try:
        values = parse_printed(readable(new))
    except FigureSyntaxError:
        return None
    if judge(Figure("fix", new, lambda: 0), values, true).status != "accurate":
        return None
    return new


def _restate_list(text: str, true: Sequence[float]) -> str | None:
    open_at, close_at = text.index("["), text.rindex("]")
    entries = text[open_at + 1:close_at].split(",")
    if len(entries) != len(true):
        return None
    fixed = []
    for entry, value in zip(entries, true):
        try:
            ok = judge(Figure("entry", entry, lambda: 0), parse_printed(readable(entry)),
                       (value,)).status == "accurate"
        except FigureSyntaxError:
            return None
        new = entry if ok else _restate_number(entry, value)
        if new is None:
            return None
        fixed.append(new)
    return text[:open_at + 1] + ",".join(fixed) + text[close_at:]


def _restate_fraction(text: str, value: float) -> str | None:
    tex = _TEX_FRACTION.search(text)
    if tex:
        num, den = tex.group(2), tex.group(4)
    else:
        slash = text.index("/")
        num, den = text[:slash], text[slash + 1:]
    try:
        n, d = number_parts(num), number_parts(den)
    except FigureSyntaxError:
        return None
    if n.exact_integer and n.value == 1 and value:  # a reciprocal 1/n: restate n
        new_den = _restate_number(den, to_float(n.value / Fraction(value)))
        new_num = num
    else:
        new_num = _restate_number(num, to_float(Fraction(value) * d.value))
        new_den = den
    if new_num is None or new_den is None:
        return None
    if tex:
        return text[:tex.start(2)] + new_num + tex.group(3) + new_den + text[tex.end(4):]
    return f"{new_num}/{new_den}"  # the spaces around "/" stay with the two numbers


def _restate_number(text: str, value: float) -> str | None:
    """One number (no fraction, no list) restated: same decimals, unit, power of ten."""
    try:
        parts = number_parts(text)
    except FigureSyntaxError:
        return None
    match = _MANTISSA.search(text, parts.start)
    if not match:
        return None
    mantissa = value / to_float(parts.scale)
    decimals = len(match.group("dec") or "")
    shown = f"{abs(mantissa):.{decimals}f}"
    whole, _, fraction = shown.partition(".")
    if "," in match.group("int"):
        whole = f"{int(whole):,}"
    digits = whole + ("." + fraction if decimals else "")
    negative = mantissa < 0 and float(shown) != 0
    sign = (match.group("sign") if match.group("sign") in "-−" and match.group("sign") else "-") \
        if negative else ("+" if match.group("sign") == "+" else "")
    return text[:match.start()] + sign + digits + text[match.end():]


def apply(document: Document, fixes: Sequence[Fix]) -> str:
    """The file's text (as read: line endings kept) with ``fixes`` applied; a notebook's
    corrected Markdown cells are written back by nbformat (:func:`_apply_to_cells`)."""
    if document.cells:
        return _apply_to_cells(document, fixes)
    raw = document.raw or document.text
    edits = sorted(((document.raw_offset(f.start), document.raw_offset(f.end), f.old, f.new)
                    for f in fixes), reverse=True)
    for start, end, old, new in edits:
        if raw[start:end] != old:  # the mapping must land on the printed figure itself
            raise ValueError(f"{document.path}: the text at offset {start} is not {old!r}")
        raw = raw[:start] + new + raw[end:]
    return raw


def _apply_to_cells(document: Document, fixes: Sequence[Fix]) -> str:
    """A notebook with ``fixes`` applied to the Markdown cells they fall in."""
    from tmath.errors import UsageError
    from tmath.gate.readers.notebook import rewrite_cells

    if document.truncated_lines:
        raise UsageError(f"{document.path}: --fix cannot write this notebook (a cell has lines "
                         "longer than the gate reads); correct the cells by hand")
    text = document.text
    bounds = [document.line_starts[first - 1] for first, _ in document.cells] + [len(text) + 2]
    sources = [text[a:b - 2] for a, b in zip(bounds, bounds[1:])]
    for fix in sorted(fixes, key=lambda f: f.start, reverse=True):
        k = max(i for i, a in enumerate(bounds[:-1]) if a <= fix.start)
        at = fix.start - bounds[k]
        if sources[k][at:at + fix.end - fix.start] != fix.old:
            raise ValueError(f"{document.path}: the text at offset {fix.start} is not "
                             f"{fix.old!r}")
        sources[k] = sources[k][:at] + fix.new + sources[k][at + fix.end - fix.start:]
    return rewrite_cells(document.raw, document.path, document.cells, sources)


def unified_diff(document: Document, fixed: str) -> str:
    """The fix as a unified diff (``a/PATH`` → ``b/PATH``; an absolute path as it is)."""
    before = _lines(document.raw or document.text)
    after = _lines(fixed)
    path = document.path
    old, new = (path, path) if path.startswith("/") else (f"a/{path}", f"b/{path}")
    lines = difflib.unified_diff(before, after, old, new)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)


def _lines(text: str) -> list[str]:
    r"""The lines as ``patch`` and ``git apply`` count them: each ended by ``\n`` (kept, with a
    ``\r`` before it). ``str.splitlines`` also splits at U+2028, U+2029, NEL (U+0085), form
    feeds and lone ``\r`` inside paragraphs, and its diff would not apply."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    return lines + [parts[-1]] if parts[-1] else lines


def restate_formula(formula: str, recorded: str) -> str | None:
    """``formula`` (one equation ``a = b``) with its side that contradicts ``recorded`` put
    back as the claim's formula writes it, the other side kept as the document writes it; None
    unless the result then reads as equivalent to a relation of ``recorded``."""
    from tmath.meaning.compare import compare

    cuts = equals_at(formula)
    if len(cuts) != 1:
        return None
    left, right = formula[:cuts[0]], formula[cuts[0] + 1:]
    status, relations = forms_of(recorded)
    pieces = _pieces(recorded)
    if status != "parsed" or pieces is None or len(pieces) != len(relations) + 1:
        return None
    for k, (_, claimed) in enumerate(relations):
        if claimed is None:
            continue
        for candidate in (left + "=" + _spaced(pieces[k + 1], right),
                          _spaced(pieces[k], left) + "=" + right,
                          _spaced(pieces[k + 1], left) + "=" + right,     # sides swapped
                          left + "=" + _spaced(pieces[k], right)):
            state, found = forms_of(candidate)
            if state == "parsed" and len(found) == 1 and found[0][1] is not None \
                    and compare(found[0][1], claimed) == "equivalent" and candidate != formula:
                return candidate
    return None


def _pieces(latex: str) -> list[str] | None:
    """The sides of a chain of equations ``a = b = c`` (None for rows, lists or other
    relations: only a plain chain is restated)."""
    if "\\\\" in latex or "\\begin" in latex or "\\quad" in latex:
        return None
    cuts = equals_at(latex)
    bounds = [-1, *cuts, len(latex)]
    return [latex[a + 1:b].strip() for a, b in zip(bounds, bounds[1:])]


def _spaced(text: str, like: str) -> str:
    """``text`` with the spaces ``like`` has around it."""
    lead = like[:len(like) - len(like.lstrip())]
    trail = like[len(like.rstrip()):]
    return lead + text.strip() + trail
