"""The frequency of a sinusoid that fills a pair of encoding dimensions, held to the claim.

Claim ``sinusoidal-frequency-period`` proves that pair k of the sinusoidal encoding (the
dimensions 2k and 2k+1) turns at ω_k = 10000^(−2k/d). Documents print that frequency inside
formulas the library does not define as a whole: an encoding of two positions joined
(``\\sin(i/10000^{2δ'/d}) \\oplus \\sin(t/10000^{2δ'/d})`` if δ = 2δ'), a renamed function,
a vector of rows. A formula is read when

* it defines an entry of a function (or array) at a dimension given as ``2k`` or ``2k+1`` of
  a name k: in its left side (``PE(pos, 2i)``) or in the condition of its case (if δ = 2δ'),
  which the reader puts into the left side;
* the sinusoids of its right side divide (or multiply) their argument by a power of a number
  of at least :data:`SMALLEST_BASE`, whose exponent uses k.

The exponent must then be 2k over a width (``2k/d``, ``2δ'/d_{model}``): one with another
factor of k (``k/d``, ``4k/d``) contradicts the claim, and so does a cosine in the row of
dimension 2k or a sine in that of 2k+1 (the claim's premise: sin, then cos of one frequency). An exponent in which k does not
appear on its own (``(2i+1)/d``) is not judged.
"""

from __future__ import annotations

from dataclasses import dataclass

from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding

CLAIM = "sinusoidal-frequency-period"
SMALLEST_BASE = 100
"""The smallest number read as the base of the frequencies (the paper's is 10000)."""


@dataclass(frozen=True)
class WrongFrequency:
    """A sinusoid whose exponent is not 2k/d for the pair k its row fills, or whose kind is
    not its dimension's (sin for 2k, cos for 2k+1)."""

    math: Math
    index: int          # the relation
    relations: int      # how many the formula has
    case: int           # its row in a definition by cases
    pair: str
    exponent: str


def wrong_frequencies(document: Document) -> list[WrongFrequency]:
    """Every formula row whose sinusoid's exponent is not 2k/d for its pair k."""
    from tmath.gate.formula_relations import relations_in

    return [WrongFrequency(math, index, count, relation.case, *wrong)
            for math, index, count, relation in relations_in(
                document, lambda t: "sin" in t or "cos" in t)
            for wrong in [_wrong(relation)] if wrong is not None]


def _wrong(relation) -> tuple[str, str] | None:
    """(the pair's name, the exponent) when the relation's sinusoids turn at another rate."""
    import sympy as sp
    from sympy.core.function import AppliedUndef

    if relation.op != "=" or not isinstance(relation.rhs, sp.Basic) or \
            not isinstance(relation.lhs, (AppliedUndef, sp.Indexed)):
        return None
    arguments = relation.lhs.args if isinstance(relation.lhs, AppliedUndef) \
        else relation.lhs.indices
    pairs = [k for a in arguments for k in [_pair(a)] if k is not None]
    if len(pairs) != 1:
        return None
    pair, odd = pairs[0]
    for wave in relation.rhs.atoms(sp.sin, sp.cos):
        for power in wave.args[0].atoms(sp.Pow):
            if not (power.base.is_Integer and power.base >= SMALLEST_BASE) or \
                    pair not in power.exp.free_symbols:
                continue
            if isinstance(wave, sp.cos) != odd:
                dimension = f"2{_spelt(pair)}" + ("+1" if odd else "")
                return _spelt(pair), f"{'cos' if odd else 'sin'} (dimension {dimension}), " \
                                     f"not {'sin' if odd else 'cos'}"
            exponent = -power.exp if power.exp.could_extract_minus_sign() else power.exp
            ratio = sp.cancel(exponent / pair)   # simplify only where cancel leaves k
            ratio = sp.simplify(exponent / pair) if pair in ratio.free_symbols else ratio
            if pair in ratio.free_symbols or not ratio.free_symbols:
                continue   # k not a plain factor, or no width: not read
            numerator, _ = sp.fraction(sp.together(ratio))
            coefficient = numerator.as_coeff_Mul()[0]
            if coefficient != 2:
                return _spelt(pair), _spelt(exponent)
    return None


def _spelt(expr) -> str:
    """An expression on one line, its Greek names as letters (``δ'/d``)."""
    import sympy as sp

    def letter(name: str) -> str:
        stem = name.rstrip("'")
        return sp.pretty(sp.Symbol(stem), use_unicode=True) + name[len(stem):]

    return str(expr.xreplace({s: sp.Symbol(letter(s.name)) for s in expr.free_symbols}))


def _pair(argument):
    """(k, whether odd) of a dimension printed 2k or 2k+1; None otherwise."""
    import sympy as sp

    for offset in (0, 1):
        rest = sp.expand(argument - offset)
        if isinstance(rest, sp.Mul) and len(rest.args) == 2 and rest.args[0] == 2 and \
                isinstance(rest.args[1], sp.Symbol):
            return rest.args[1], bool(offset)
    return None


def judged(document: Document, wrong: WrongFrequency) -> Finding:
    from tmath.gate.recognition import line_of

    section = document.section_at(wrong.math.start)
    line = line_of(document, wrong.math, wrong.index, wrong.relations, case=wrong.case)
    return Finding(
        kind="formula", status="contradicts", meaning="contradicts", document=document.path,
        section=section.number if section else None, line=line,
        column=document.column_of(wrong.math.start), formula=wrong.math.latex, claim=CLAIM,
        claims=(CLAIM,), compared_with=(CLAIM,),
        detail=f"claim {CLAIM} proves that pair {wrong.pair} (dimensions 2{wrong.pair} and "
               f"2{wrong.pair}+1) turns at 10000^(−2{wrong.pair}/d) as sin(pos·ω) and "
               f"cos(pos·ω): " + (f"this row should be {wrong.exponent}" if "dimension" in
                                  wrong.exponent else f"the exponent is 2{wrong.pair}/d; this "
                                                      f"row's is {wrong.exponent}"))
