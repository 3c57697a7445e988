"""A number a sentence says something is divided by, held to the formula it explains.

"Every head has $d_k = 64$, so the scores are divided by 8": where the document's section has
a formula recognised as what a claim proves that divides by an expression of names
(``\\sqrt{d_k}``; not one inside an exponent, which divides the exponent), and the
sentence's paragraph gives every one of those names a value, the number said must be what
that expression is worth (one beyond a float's range is no divisor anyone prints). It is
judged at the precision it is printed with (a whole number for a value that is not whole is a
rounding: half a unit). The sentence is wrong only when the number is none of the divisors
the section's recognised formulas use: a sentence may mean any of them.

Nothing is said when the section recognises no formula or when no divisor has all its names
given values. A divisor said as a formula, "we scale the dot products by
$\\frac{1}{\\sqrt{d_k}}$", "divided by $\\sqrt{d_k}$", "a scaling factor of $1/\\sqrt{d_k}$"
(scaling or multiplying by x is dividing by 1/x)
(:func:`false_formula_divisors`), is compared with those expressions themselves: it is wrong
when one of them uses the same names and none is it. Where no recognised formula says so, it
is compared with the display formula the sentence introduces (the next one, close by): when
they disagree, both lines are reported (either may be the wrong one). A value is
``name = number`` written in the paragraph up to the sentence's end, in a formula or in plain
text; the reader reads the name, so ``d_{k}`` and ``d_k`` are one name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from tmath.gate.document import Document
from tmath.gate.findings import Finding
from tmath.gate.prose_relations import Divisor, divisors_said

_NAME = r"[A-Za-z](?:_(?:\{\\(?:text|mathrm)\{\w+\}\}|\{\\?\w+\}|\w))?"
_VALUE = re.compile(rf"(?<![\w\\{{])(?P<name>{_NAME})\s*=\s*(?P<value>\d+(?:\.\d+)?)(?![\d.]*\d)")


@dataclass(frozen=True)
class Recognised:
    """A formula of the document recognised as what a claim proves."""

    latex: str
    start: int
    line: int


def false_divisors(document: Document, recognised: Sequence[Recognised]) -> list[Finding]:
    """An ``inaccurate`` figure for each number a sentence divides by that is none of the
    divisors of the formulas recognised in its section, with the values its paragraph gives."""
    found = []
    for said in divisors_said(document):
        section = document.section_at(said.start)
        formulas = [f for f in recognised if document.section_at(f.start) == section]
        if not formulas:
            continue
        values = _values(document, said)
        worth = [(d, v, f) for f in formulas for d, v in _divisors(f.latex, values)]
        if worth and not any(_holds(said.divisor, v[0]) for _, v, _ in worth):
            found.append(_finding(document, said, worth, values, section))
    return found


def false_formula_divisors(document: Document, recognised: Sequence[Recognised]
                           ) -> list[Finding]:
    """A ``contradicts`` finding for each divisor said as a formula (:func:`formula_divisors`)
    that is none of the divisors of the formulas recognised in its section, while one of
    those uses the same names; else, the same held to the display formula the sentence
    introduces (the next one, close by), on both lines."""
    found = []
    for said in formula_divisors(document):
        section = document.section_at(said.start)
        formulas = [f for f in recognised if document.section_at(f.start) == section]
        wrong = _disagreeing(said, formulas)
        if wrong is not None:   # the text against a formula that means a claim's
            divisor, formula = wrong
            found.append(_divisor_finding(document, said, said.line, said.start, said.latex,
                                          f"the text divides by {said.divisor}; the formula on "
                                          f"{document.where(formula.line)} divides by "
                                          f"{divisor}"))
            continue
        introduced = _introduced(document, said, {f.start for f in recognised})
        wrong = _disagreeing(said, [introduced]) if introduced is not None else None
        if wrong is not None:   # the text and the formula it introduces: either may be wrong
            divisor, formula = wrong
            found += [
                _divisor_finding(document, said, said.line, said.start, said.latex,
                                 f"the text divides by {said.divisor}; the formula it "
                                 f"introduces, on {document.where(formula.line)}, divides by "
                                 f"{divisor}"),
                _divisor_finding(document, said, formula.line, formula.start, formula.latex,
                                 f"this formula divides by {divisor}; the text that introduces "
                                 f"it, on {document.where(said.line)}, divides by "
                                 f"{said.divisor}")]
    return found


INTRODUCED_WITHIN = 600
"""How far after the sentence (in characters) the display formula it introduces may start."""


def _introduced(document: Document, said: "FormulaDivisor", recognised: set[int]
                ) -> Recognised | None:
    """The first display formula after the sentence, in its section and close to it, that is
    not already one recognised (the formula the sentence leads to: "… by $1/\\sqrt{d}$. We
    arrive at: $$a = q^\\top k / \\sqrt{d}$$")."""
    section = document.section_at(said.start)
    after = [m for m in document.formulas if m.start > said.start]
    if not after:
        return None
    first = min(after, key=lambda m: m.start)
    if first.start - said.start > INTRODUCED_WITHIN or first.start in recognised or \
            document.section_at(first.start) != section:
        return None
    return Recognised(first.latex, first.start, first.line)


def _disagreeing(said: "FormulaDivisor", formulas: Sequence[Recognised]):
    """(divisor, formula) of a divisor with the said one's names, when none of the formulas'
    divisors is the said one; None otherwise."""
    import sympy as sp

    divisors = [(d, f) for f in formulas for d in _expressions(f.latex)]
    same = [(d, f) for d, f in divisors if d.free_symbols == said.divisor.free_symbols]
    if not same or any(sp.simplify(d - said.divisor) == 0 for d, _ in divisors):
        return None
    return same[0]


def _divisor_finding(document: Document, said: "FormulaDivisor", line: int, start: int,
                     latex: str, detail: str) -> Finding:
    section = document.section_at(start)
    return Finding(status="contradicts", kind="formula", document=document.path,
                   section=section.number if section else None, line=line,
                   column=document.column_of(start), formula=latex, meaning="contradicts",
                   compared_with=("divisor",), detail=detail)


def _expressions(latex: str) -> list:
    """Each expression of names the formula divides by (outside exponents)."""
    import sympy as sp

    from tmath.meaning.recognise import relations_of

    found = []
    for relation in relations_of(latex):
        for side in (relation.lhs, relation.rhs):
            if isinstance(side, sp.Basic):
                found += [node.base ** -node.exp for node in _outside_exponents(side)
                          if isinstance(node, sp.Pow) and node.exp.is_negative
                          and node.base.free_symbols]
    return list(dict.fromkeys(found))


@dataclass(frozen=True)
class FormulaDivisor:
    """"divided by $\\sqrt{d_k}$" or "scaled by $1/\\sqrt{d_k}$": what the text divides by."""

    divisor: object
    latex: str
    start: int
    line: int


_BY_FORMULA = re.compile(
    r"\b(?P<verb>divid(?:e|es|ed|ing)|(?:re)?scal(?:e|es|ed|ing)(?:\s+down)?|"
    r"multipl(?:y|ies|ied|ying))\b[^.;:!?\d⟨]{0,60}?\bby\s+⟨(?P<k>\d+)⟩"
    r"|\bscal(?:e|ing)\s+factor\s+(?:of|is)\s+⟨(?P<f>\d+)⟩", re.I)


def formula_divisors(document: Document) -> list[FormulaDivisor]:
    """Every divisor the prose says as an inline formula of names."""
    import sympy as sp

    from tmath.gate.prose_relations import sentences_with_math, with_placeholders
    from tmath.latex import read

    found = []
    for text, start, end, maths in sentences_with_math(document):
        if not maths:
            continue
        spelt, places = with_placeholders(text, start, end, maths)
        for match in _BY_FORMULA.finditer(spelt):
            math = maths[int(match.group("k") or match.group("f"))]
            reading = read(math.latex)
            if not reading.parsed or reading.relations or len(reading.expressions) != 1:
                continue
            value = reading.expressions[0]
            if not isinstance(value, sp.Expr) or not value.free_symbols or value.is_zero:
                continue
            dividing = match.group("verb") and match.group("verb").lower().startswith("divid")
            found.append(FormulaDivisor(value if dividing else 1 / value, math.latex,
                                        math.start, math.line))
    return found


def _values(document: Document, said: Divisor) -> dict[str, str]:
    """``name = number`` in the paragraph, from its start to the sentence's end (the last one
    for each name), as the reader names it."""
    from tmath.gate.arithmetic import bindings_of
    from tmath.meaning.recognise import relations_of

    text = document.masked or document.text
    begin, end = said.sentence
    paragraph = text.rfind("\n\n", 0, begin) + 1
    values: dict[str, str] = {}
    for match in _VALUE.finditer(text, paragraph, end):
        for name, value in bindings_of(relations_of(f"{match['name']} = {match['value']}")):
            values[name] = value
    return values


def _divisors(latex: str, values: dict[str, str]
              ) -> list[tuple[str, tuple[float, tuple[str, ...]]]]:
    """Each expression the formula divides by whose names all have values, with its worth and
    those names."""
    import sympy as sp

    from tmath.meaning.recognise import relations_of

    found = []
    for relation in relations_of(latex):
        for side in (relation.lhs, relation.rhs):
            if not isinstance(side, sp.Basic):
                continue
            for node in _outside_exponents(side):
                if not (isinstance(node, sp.Pow) and node.exp.is_negative):
                    continue
                divisor = node.base ** -node.exp
                names = {s.name for s in divisor.free_symbols}
                if names and names <= set(values):
                    put = sp.N(divisor.xreplace({s: sp.Rational(values[s.name])
                                                 for s in divisor.free_symbols}), 30)
                    if put.is_number and put.is_extended_real and put.is_finite and \
                            abs(put) < 1e300:   # beyond a float no printed divisor is meant
                        found.append((str(divisor), (float(put), tuple(sorted(names)))))
    return list(dict.fromkeys(found))


def _outside_exponents(expr):
    """Every node of ``expr`` but those inside an exponent: ``10000^{2i/d}`` divides by a
    power of 10000, not by d."""
    yield expr
    args = expr.args[:1] if expr.is_Pow else expr.args
    for arg in args:
        yield from _outside_exponents(arg)


def _holds(printed: str, value: float) -> bool:
    """``printed`` is ``value`` at the precision it shows (a whole number exactly, if the
    value is whole)."""
    places = len(printed.partition(".")[2])
    if places == 0 and float(value).is_integer():
        return float(printed) == value
    return abs(float(printed) - value) <= 0.5 * 10 ** -places


def _finding(document: Document, said: Divisor, worth: list, values: dict[str, str],
             section) -> Finding:
    divisor, (value, names), formula = worth[0]
    given = ", ".join(f"{name} = {values[name]}" for name in names)
    return Finding(status="inaccurate", kind="figure", label="arithmetic",
                   document=document.path, section=section.number if section else None,
                   line=said.line, column=document.column_of(said.start), printed=said.divisor,
                   expected=tuple(v for _, (v, _), _ in worth),
                   detail=f"the text divides by {said.divisor}; the formula on "
                          f"{document.where(formula.line)} divides by {divisor}, which is "
                          f"{value:.6g} with {given}")
