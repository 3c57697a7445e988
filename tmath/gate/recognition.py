"""The gate on a document no claim set is bound to: recognise what the built-in claims prove.

Every formula the document prints (display and inline) is read and compared with the
relations the claims were shown to mean when they verified (:func:`library`), under the
document's own names (:func:`tmath.meaning.recognise.infer_mapping`, reported):

* ``recognised`` (good): it means what a claim proves or defines;
* ``contradicts`` (an error): the near form of a claim's formula with another meaning,
  shown with the claim's form in the document's names;
* a relation between numbers only (``\\sqrt{64} = 8``, ``512/8 = 64``) is checked as
  arithmetic, to the precision it is printed with: ``inaccurate`` when it is false;
* a chain of equations ``a = b = c = d`` also says ``a = d``: where no link is recognised,
  its ends are judged too, on its first row (a derivation from a claim's one side to its
  other is that claim; its steps are not its near forms);
* anything else is not a finding: a document may say much the claims do not.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Sequence

from tmath.engine.info import ClaimInfo
from tmath.engine.results import PASSING
from tmath.gate.document import Document, Math
from tmath.gate.findings import Finding
from tmath.gate.meaning import claim_relations, gate_code
from tmath.gate.arithmetic import (Binding, bindings_of, false_relations, false_under, in_force,
                                   number)
from tmath.gate import complexity
from tmath.gate.divisors import Recognised, false_divisors, false_formula_divisors
from tmath.gate.prose_relations import Approximation, Root, approximations_said, roots_said, stated

if TYPE_CHECKING:   # the reading code imports SymPy: only when a formula is read
    from tmath.meaning.recognise import Chain, Read

NOT_KNOWN = frozenset({"arithmetic"})
"""Bound relations that are arithmetic identities: true of anything, they recognise nothing."""


@dataclass(frozen=True)
class Recognition:
    """What the gate recognised in one document."""

    findings: tuple[Finding, ...]
    mapping: tuple[tuple[str, str], ...]
    claims: tuple[str, ...]
    formulas: int
    places: tuple[tuple[str, int], ...] = ()
    """(claim, offset) of each formula recognised as, or contradicting, a claim's."""


def library(infos: Sequence[ClaimInfo], results: Mapping[str, Any],
            specs: Sequence[Any] = ()) -> list:
    """The relations the claims that verified were shown to mean, with their names; and of a
    recorded chain ``e₀ = e₁ = … = eₙ`` whose every link was shown, also ``eᵢ = eⱼ`` for any
    two of its members (equality is transitive: a document may skip the middle); and, of the
    claims in ``specs`` that record no formula, the statement they prove written as the reader
    reads it (:mod:`tmath.meaning.proved`)."""
    from tmath.meaning.recognise import Known, relations_of

    good = [i for i in infos if getattr(results.get(i.id), "verdict", None) in PASSING]
    known, links = [], {}
    for relation in claim_relations(good, results):
        read = relations_of(relation.formula or relation.recorded)
        if relation.index >= len(read):
            continue
        mine = read[relation.index]
        links.setdefault((relation.claim, relation.recorded), []).append((relation, mine))
        if relation.compared_with in NOT_KNOWN:
            continue
        known.append(Known(relation.claim, relation.recorded, relation.compared_with,
                           relation.form, mine.names, mine.functions, mine.lhs, mine.rhs))
    for (claim, recorded), chain in links.items():
        known += _across(claim, recorded, chain)
    return known + _proved(specs, {i.id for i in good})


def _proved(specs: Sequence[Any], verified: set[str]) -> list:
    from tmath.meaning.forms import form
    from tmath.meaning.proved import named_matrices, statement_relations
    from tmath.meaning.recognise import Known, vocabulary

    by_id = {spec.id: spec for spec in specs}
    mine = [s for s in specs if s.id in verified]
    found = []
    for source, relations in (("statement", statement_relations(mine, by_id)),
                              ("definition", named_matrices(mine, by_id))):
        for claim, text, lhs, rhs in relations:
            made = form(lhs, "=", rhs)
            if made is not None:
                names, functions = vocabulary(lhs, rhs)
                found.append(Known(claim, text, source, made, names, functions, lhs, rhs))
    return found


def _across(claim: str, recorded: str, chain: Sequence[tuple[Any, Any]]) -> list:
    """``eᵢ = eⱼ`` for members two or more links apart of a chain of shown equalities (each
    link's right side the next one's left side)."""
    from tmath.meaning.compare import Form
    from tmath.meaning.recognise import Known, linked, vocabulary

    found = []
    for a in range(len(chain)):
        for b in range(a + 1, len(chain)):
            (first, read_a), (last, read_b) = chain[a], chain[b]
            previous, read_p = chain[b - 1]
            if previous.index != last.index - 1 or not linked(read_p, read_b) or \
                    read_a.op != "=":
                break   # the chain is broken here: nothing further is related to a
            left, right = first.form.left, last.form.right
            gap = tuple(None if x is None or y is None else y - x for x, y in zip(left, right))
            names, functions = vocabulary(read_a.lhs, read_b.rhs)
            form = Form("=", left, right, gap, first.form.lhs_kind, last.form.rhs_kind,
                        tuple(sorted(set(first.form.names) | set(last.form.names))),
                        first.form.words or last.form.words)
            if form.identity:
                continue
            found.append(Known(claim, recorded, "chain", form, names, functions,
                               read_a.lhs, read_b.rhs))
    return found


def formulas_of(document: Document) -> list[Math]:
    """The display and inline formulas, in the order they appear."""
    return sorted([*document.formulas, *document.inline], key=lambda m: m.start)


@dataclass(frozen=True)
class Said:
    """A verdict on one relation of a formula, as stored (see :class:`~tmath.meaning.
    recognise.Verdict`)."""

    status: str
    claim: str
    recorded: str
    source: str
    shown: str
    detail: str
    index: int = 0
    """Which relation of the formula (its row in an environment of several)."""
    where: tuple[str, ...] = ()
    """What differs from the claim (:attr:`~tmath.meaning.recognise.Verdict.where`)."""
    case: int = -1
    """Its row in a definition by cases (:attr:`~tmath.meaning.recognise.Read.case`)."""


@dataclass(frozen=True)
class Facts:
    """What a formula is, whatever the document's names: its names, the renamings that make
    its relations a claim's (witnesses), its false arithmetic, its verdicts as written."""

    names: tuple[str, ...]
    votes: tuple[tuple[str, str], ...]
    arithmetic: tuple[tuple[str, float, float, float], ...]
    plain: tuple[Said, ...]
    relations: int = 0
    """How many relations the reader found in it."""
    defines: tuple[str, ...] = ()
    """Functions the formula defines, ``a(q, k_i) = qᵀk_i/√d``: the document's own names,
    put in where its other formulas use them."""
    binds: tuple[tuple[str, str], ...] = ()
    """The values it gives names, ``h = 8``: put in where the document's arithmetic uses them
    (:mod:`tmath.gate.arithmetic`)."""
    steps: tuple[tuple[int, str, float, float], ...] = ()
    """The false steps of its chains (:mod:`tmath.gate.steps`): index, shown, the sides."""
    shapes: tuple[tuple[str, ...], ...] = ()
    """The shapes it declares (``W^O \\in \\mathbb{R}^{hd_v \\times d}``): name, which relation,
    the sizes (rows, cols; or count, rows, cols of a batch)."""
    matrices: tuple[tuple[str, str], ...] = ()
    """The matrices it defines (``head_i = Attention(…)``): name, which relation."""
    products: bool = False
    """Whether it takes products of matrices (or states a product's shape): its shapes are
    checked (:mod:`tmath.gate.shapes`)."""
    unnormalised: tuple[tuple[int, str, str], ...] = ()
    """Exponential weights over a sum of other terms (:mod:`tmath.gate.normalised`): index,
    numerator, the sum's term at its index."""
    solves: tuple[str, ...] = ()
    """The names it states the values of, when that is all it does (``u_1 = \\cos(ωk)``):
    held to the equations above them (:mod:`tmath.gate.solutions`)."""
    claims_defines: tuple[str, ...] = ()
    """Functions the claims use that the formula defines (``PE(t, 2i) = \\sin(tω_i)``): put in
    where the formula is recognised (:func:`_claimed_definitions`)."""
    apart: tuple[tuple[str, ...], ...] = ()
    """The names of each relation that keeps them apart (:func:`_kept_apart`)."""


class _Cache:
    """Facts and verdicts of formulas kept on disk, addressed by the formula, the claims'
    relations and the reading code, so a warm check reads no formula again."""

    def __init__(self, known: Sequence, enabled: bool) -> None:
        from tmath.engine.cache import Store

        self.store = Store("recognition", enabled)
        self.library = tuple((k.claim, k.recorded, k.source) for k in known)

    def key(self, *parts: Any):
        from tmath.engine.cache import make_key

        return make_key("recognition", "", (), None, FORMAT, _CODE, self.library, *parts)

    def get(self, hint: Any, *parts: Any) -> Any:
        return self.store.get(self.key(*parts), hint)

    def put(self, value: Any, hint: Any, *parts: Any) -> None:
        self.store.put(self.key(*parts), value, hint)


FORMAT = 14
"""The version of :class:`Facts` and :class:`Said` as stored."""
_CODE = gate_code()
"""The gate's code is in the key too (:func:`tmath.gate.meaning.gate_code`)."""
USE_CACHE = True
"""Off with ``tmath check --no-cache`` (:func:`tmath.gate.meaning.use_cache`)."""


def recognise(document: Document, known: Sequence, verified: Collection[str] = ()
              ) -> Recognition:
    """Findings for every formula of ``document`` that means, or nearly means, a claim's
    (and, for the claims in ``verified``, what the document states in words that they
    prove: self-attention's cost, :mod:`tmath.gate.complexity`)."""
    from tmath.gate import meaning

    cache = _Cache(known, meaning.STORED.enabled)
    formulas = formulas_of(document)
    texts = _expanded(document, formulas)
    facts = [_facts(text, known, cache) for text in texts]
    used = {n for f in facts for n in f.names}
    from tmath.meaning.recognise import choose_mapping, written_out_names

    mapping = choose_mapping([v for f in facts for v in f.votes], used, known)
    defining = written_out_names(known)
    definitions = _definitions(formulas, facts, texts)
    vouched = {t for t, f in zip(texts, facts) if any(v.status == "recognised" for v in f.plain)}
    bindings = [Binding(name, value, math.start, math.line)
                for math, fact in zip(formulas, facts) for name, value in fact.binds]
    findings, places, recognised = [], [], []
    from tmath.gate.subterms import known_softmaxes

    softmaxes = known_softmaxes(known)

    def judged_as_read(math: Math, text: str, fact: Facts) -> tuple[tuple, tuple]:
        """The verdicts on a formula as written and with the document's names and
        definitions in force."""
        mine = tuple(sorted((k, v) for k, v in mapping.items() if k in fact.names))
        defined = _in_force(definitions, fact.names, math)
        called = _called(document, math, defining) if fact.relations else ()
        plain = _verdicts(text, known, (), cache, (), called) if called else fact.plain
        if not (mine or defined):
            return plain, plain
        if _contradicts(plain):   # the contradiction stands, unless the relation is a claim's
            if not defined or not all(latex in vouched for _, latex in defined):
                return plain, plain   # once the claims' own definitions (ω_i = …) are put in
            read = _verdicts(text, known, mine, cache, defined, called, vouched)
            right = {v.index for v in read if v.status == "recognised"}
            mended = not _contradicts(read) and all(
                v.index in right for v in plain if v.status == "contradicts")
            return plain, read if mended else plain
        return plain, _verdicts(text, known, mine, cache, defined, called, vouched)

    claimed = _claimed_definitions(formulas, texts, facts, known, judged_as_read)
    library_rules = _library_rules(tuple(known))
    apart = _kept_apart(facts)
    for math, text, fact in zip(formulas, texts, facts):
        defined = _in_force(definitions, fact.names, math)
        plain, verdicts = judged_as_read(math, text, fact)
        if apart:
            verdicts = _names_kept_apart(text, verdicts, known, mapping, apart,
                                         lambda: _called(document, math, defining))
        everything = tuple(sorted({*defined, *_in_force(claimed, fact.names, math)}))
        meant = _meant(fact.names, definitions, claimed, library_rules, mapping)
        if (everything or meant[0]) and _contradicts(verdicts):
            verdicts = _true_by_definitions(text, verdicts, everything, cache, meant,
                                            library_rules)
        section = document.section_at(math.start)
        common = dict(kind="formula", document=document.path,
                      section=section.number if section else None, line=math.line,
                      column=document.column_of(math.start), formula=math.latex)
        wrong = next((v for v in verdicts if v.status == "contradicts"), None)
        common["line"] = line_of(document, math, wrong.index if wrong else 0,
                                 fact.relations, wrong.where if wrong else (),
                                 wrong.case if wrong else -1) \
            if fact.relations else math.line
        judged = _judgement(verdicts, mapping, common, "this formula reads")
        if judged is None and softmaxes and "softmax" in text.lower():
            judged = _softmax_judged(document, math, text, fact, softmaxes, mapping, common)
        steps = fact.steps + (_steps_defined(text, everything, fact, cache, meant, library_rules)
                              if everything or meant[0] else ())
        findings += [f for step in steps for f in _false_step(document, math, fact, step, common)]
        if judged is None or judged.status != "contradicts":   # else that finding says it
            findings += [_unnormalised(document, math, fact, found, common)
                         for found in fact.unnormalised]
        if judged is None:
            findings += [_false(math, shown, computed, printed, tolerance, common)
                         for shown, computed, printed, tolerance in fact.arithmetic]
            if not fact.arithmetic and fact.names and not fact.defines:
                findings += _false_when_bound(document, math, text, fact, bindings, cache,
                                              common)
            continue
        blamed = []
        if judged.status == "contradicts" and defined and \
                not _contradicts(plain):
            blamed = _definitions_blamed(document, definitions, defined, math, judged, vouched)
            lines = ", ".join(document.where(b.line) for b in blamed)
            judged = replace(judged, detail=f"{judged.detail}; read with the definitions on "
                                            f"{lines}") if blamed else judged
        findings += [judged, *blamed]
        places += [(claim, math.start) for claim in judged.claims]
        if judged.status == "recognised":
            recognised.append(Recognised(text, math.start, math.line))
    for said in stated(document):
        fact = _facts(said.latex, known, cache)
        mine = tuple(sorted((k, v) for k, v in mapping.items() if k in fact.names))
        verdicts = _verdicts(said.latex, known, mine, cache) if mine else fact.plain
        section = document.section_at(said.start)
        common = dict(kind="formula", document=document.path,
                      section=section.number if section else None, line=said.line,
                      column=document.column_of(said.start), formula=said.latex)
        judged = _judgement(verdicts, mapping, common, "the sentence states")
        if judged is not None:
            findings.append(judged)
            places += [(claim, said.start) for claim in judged.claims]
    findings += _unsolved(document, formulas, texts, facts, cache)
    findings += _misfits(document, formulas, texts, facts, cache)
    from tmath.gate.sizes import contradictions

    findings += contradictions(document, formulas, texts)
    findings += [_root_false(document, root) for root in roots_said(document)
                 if not _root_holds(root)]
    if complexity.CLAIM in verified:
        for cost in complexity.costs_said(document) + complexity.costs_in_tables(document):
            judged = complexity.judged(document, cost)
            if judged is not None:
                findings.append(judged)
                places.append((complexity.CLAIM, cost.math.start))
    findings += [f for said in approximations_said(document)
                 for f in _approximation_false(document, said)]
    findings += false_divisors(document, recognised)
    findings += false_formula_divisors(document, recognised)
    claims = [claim for claim, _ in places]
    return Recognition(tuple(findings), tuple(sorted(mapping.items())),
                       tuple(dict.fromkeys(claims)), len(formulas), tuple(places))


def _judgement(verdicts: Sequence[Said], mapping: Mapping[str, str], common: dict,
               reads: str) -> Finding | None:
    """``contradicts`` (the first relation that does) or ``recognised`` (naming every claim
    recognised); None when no relation was either."""
    wrong = next((v for v in verdicts if v.status == "contradicts"), None)
    if wrong is not None:
        return Finding(status="contradicts", claim=wrong.claim, claims=(wrong.claim,),
                       recorded=wrong.recorded, meaning="contradicts",
                       compared_with=(wrong.source,),
                       detail=(f"claim {wrong.claim} proves {in_names(wrong.recorded, mapping)}; "
                               f"{reads} {wrong.shown}, another relation"
                               + (f" ({wrong.detail})" if wrong.detail else "")), **common)
    if not verdicts:
        return None
    ids = tuple(dict.fromkeys(v.claim for v in verdicts))
    return Finding(status="recognised", claim=ids[0], claims=ids, meaning="equivalent",
                   compared_with=tuple(v.source for v in verdicts), **common)


def _facts(latex: str, known: Sequence, cache: _Cache) -> Facts:
    found = cache.get(Facts, latex)
    if found is None:
        from tmath.gate.normalised import unnormalised
        from tmath.gate.shapes import facts_of
        from tmath.gate.solutions import stated_values
        from tmath.gate.steps import false_steps
        from tmath.meaning.recognise import defined_function, relations_of, witnesses

        relations = relations_of(latex)
        names = sorted({n for r in relations for n in r.names | r.functions})
        votes = tuple(v for r in relations for v in witnesses(r, known))
        every = [d for d in map(defined_function, relations) if d is not None]
        defines = tuple(d for d in every if not _library_function(d[0], len(d[1]), known))
        claims_defines = tuple(sorted({d[0] for d in every if d not in defines}))
        found = Facts(tuple(names), votes, false_relations(latex, relations),
                      _judged(relations, known, {}), len(relations),
                      tuple(d[0] for d in defines), bindings_of(relations),
                      false_steps(relations), *facts_of(relations),
                      unnormalised(relations),
                      tuple(sorted({str(getattr(v.name, "base", v.name))
                                    for v in stated_values(relations, 0)})), claims_defines,
                      _apart(relations))
        cache.put(found, Facts, latex)
    return found


def _library_function(name: str, arity: int, known: Sequence) -> bool:
    """Whether a function a document defines is one the claims use: by name for a function
    the reader knows (softmax), by name and number of arguments for one a claim names itself
    (a claim's distribution ``p(x)`` is not the document's encoding ``p_{i,2j}``)."""
    return (name, arity) in _library_arities(tuple(known)) or \
        name in {f for k in known for f in k.functions} - \
        {n for n, _ in _library_arities(tuple(known))}


@functools.lru_cache(maxsize=4)
def _library_arities(known: tuple) -> frozenset[tuple[str, int]]:
    import sympy as sp

    return frozenset((type(a).__name__, len(a.args)) for k in known for side in (k.lhs, k.rhs)
                     if isinstance(side, sp.Basic)
                     for a in side.atoms(sp.core.function.AppliedUndef))


def _expanded(document: Document, formulas: Sequence[Math]) -> list[str]:
    """Each formula as read: in a LaTeX source, its comments left out (a row the author
    commented out, ``% \\mathrm{where} …``, is not part of the formula) and its own macros
    (``\\dmodel``) put in; in any document, a name it defines as a function (``m_z(x) = …``)
    applied as one wherever it is followed by a parenthesis (:func:`_as_functions`)."""
    texts = [math.latex for math in formulas]
    if document.kind == "latex":
        from tmath.gate.readers.macros import expand, macros

        defined = macros(document.raw)
        texts = [expand(_COMMENT.sub("", text), defined) for text in texts]
    return _as_functions(texts)


_NAME = r"(?<![A-Za-z\\])([A-Za-z])_(\{[A-Za-z0-9]+\}|[A-Za-z0-9])"
_DEFINES = re.compile(rf"(?:^|\\\\|&|\\quad)\s*{_NAME}\s*\(\s*[A-Za-z](?:\s*,\s*[A-Za-z])*\s*\)"
                      rf"\s*&?\s*(?:=|:=|\\coloneqq)", re.M)


def _as_functions(texts: Sequence[str]) -> list[str]:
    """``m_z(i-j)`` is m_z applied to i − j, not m_z times it, in a document that defines
    ``m_z(x) = …`` (a subscripted letter, on the left of a definition, applied to names):
    each such name followed by ``(`` is written ``\\operatorname{m_z}(`` for the reader."""
    names = {(m.group(1), m.group(2).strip("{}")) for text in texts for m in _DEFINES.finditer(text)}
    if not names:
        return list(texts)

    def applied(match: re.Match) -> str:
        letter, sub = match.group(1), match.group(2).strip("{}")
        return f"\\operatorname{{{letter}_{sub}}}(" if (letter, sub) in names else match.group()

    pattern = re.compile(rf"{_NAME}\s*\(")
    return [pattern.sub(applied, text) for text in texts]


_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
"""A TeX comment: from an unescaped ``%`` to the end of its line (the line itself stays, so
the formula's rows keep their lines)."""


def _definitions(formulas: Sequence[Math], facts: Sequence[Facts], texts: Sequence[str]
                 ) -> dict[str, list]:
    """Where the document defines each function: (offset, formula), in reading order."""
    seen: dict[str, list[tuple[int, str]]] = {}
    for math, fact, text in zip(formulas, facts, texts):
        for name in fact.defines:
            seen.setdefault(name, []).append((math.start, text))
    return seen


def _root_holds(root: Root) -> bool:
    """√B is A: exactly when √B is a whole number, else to the half unit of A's last digit
    (in exact arithmetic: a radicand of any size is no overflow)."""
    from fractions import Fraction

    of, printed = Fraction(root.of), Fraction(root.root)
    if of.denominator == 1 and math.isqrt(of.numerator) ** 2 == of.numerator:
        return printed == math.isqrt(of.numerator)
    half = Fraction(1, 2 * 10 ** len(root.root.partition(".")[2]))
    low = max(printed - half, Fraction(0))
    return low * low <= of <= (printed + half) ** 2


def _root_false(document: Document, root: Root) -> Finding:
    from decimal import Context, Decimal

    section = document.section_at(root.start)
    true = Decimal(root.of).sqrt(Context(prec=12))
    return Finding(status="inaccurate", kind="figure", label="arithmetic",
                   document=document.path, section=section.number if section else None,
                   line=root.line, column=document.column_of(root.start), printed=root.root,
                   expected=(float(true),), detail=f"the text says {root.root} is the square "
                                                   f"root of {root.of}, which is {true:.6g}")


def _approximation_false(document: Document, said: Approximation) -> list[Finding]:
    """"~N" printed for an exact expression, held to it at N's printed precision (the last
    non-zero digit of a whole number: ~63,000 is 63,000 ± 500)."""
    from tmath.meaning.recognise import relations_of

    latex = f"{said.latex} \\approx {said.printed.replace(',', '')}"
    false = false_relations(latex, relations_of(latex))
    if not false:
        return []
    _, computed, printed, tolerance = false[0]
    section = document.section_at(said.start)
    lines = dict.fromkeys(line for line in (said.line, said.expression_line) if line)
    return [Finding(status="inaccurate", kind="figure", label="arithmetic",
                    document=document.path, section=section.number if section else None,
                    line=line, column=document.column_of(said.start), printed=said.printed,
                    expected=(computed,) if isinstance(computed, float) else None,
                    tolerance=f"±{tolerance:g}",
                    detail=f"the text gives {said.printed} for {said.latex.strip()}, which is "
                           f"{number(computed)}" + (
                               "" if line == said.line else
                               f" (the number is on {document.where(said.line)}; either may "
                               f"be the misprint)"))
            for line in lines]


def _false_when_bound(document: Document, math: Math, text: str, fact: Facts,
                      bindings: Sequence[Binding], cache: _Cache, common: dict) -> list[Finding]:
    """The formula's arithmetic once the values the document gives its names are put in
    (``d_{model}/h = 64`` with ``h = 8`` and ``d_{model} = 512`` stated elsewhere). A false
    one is reported on its line and on each binding's: the value or the relation is wrong."""
    used = in_force(bindings, fact.names, math.start, document.text)
    if not used:
        return []
    values = tuple(sorted((name, b.value) for name, b in used.items()))
    false = cache.get(_BOUND, "bound", text, values)
    if false is None:
        from tmath.meaning.recognise import relations_of

        false = false_under(text, relations_of(text), dict(values))
        cache.put(false, _BOUND, "bound", text, values)
    found = []
    for shown, left, right, tolerance, named in false:
        stated = ", ".join(f"{name} = {value}" for name, value in values if name in named)
        found.append(replace(_false(math, shown, left, right, tolerance, common),
                             detail=f"{shown} is false with {stated}: the left side is "
                                    f"{number(left)}"))
        for name, binding in sorted(used.items()):
            if name not in named:
                continue
            section = document.section_at(binding.offset)
            found.append(Finding(
                status="inaccurate", kind="figure", label="arithmetic", document=document.path,
                section=section.number if section else None, line=binding.line,
                column=document.column_of(binding.offset), printed=binding.value,
                detail=f"with {name} = {binding.value} as stated here, {shown} on "
                       f"{document.where(math.line)} is false (the left side is "
                       f"{number(left)}): this value or that relation is wrong"))
    return found


def _definitions_blamed(document: Document, definitions: Mapping[str, list], defined: tuple,
                        use: Math, judged: Finding, vouched: set[str] = frozenset()
                        ) -> list[Finding]:
    """A use that contradicts a claim only once the document's own definitions are put in:
    the use and the definitions disagree, and either may be the one that is wrong, so each
    definition it read is reported on its own line too, naming the use; except a definition
    that is itself a claim's relation (``vouched``: ω_k = 1/10000^{2k/d}), which is right."""
    found = []
    for name, latex in defined:
        at = next((a for a, text in definitions.get(name, ()) if text == latex), None)
        if at is None or latex in vouched:
            continue
        section = document.section_at(at)
        found.append(Finding(
            status="contradicts", kind="formula", document=document.path,
            section=section.number if section else None, line=document.line_of(at),
            column=document.column_of(at), claim=judged.claim, claims=judged.claims,
            formula=latex, recorded=judged.recorded, meaning="contradicts",
            compared_with=judged.compared_with,
            detail=f"with {name} as defined here, the formula on {document.where(use.line)} "
                   f"contradicts claim {judged.claim}: this definition or that formula is wrong"))
    return found


def _in_force(definitions: Mapping[str, list], names: Sequence[str], math: Math) -> tuple:
    """The definitions a formula reads with: of each function it uses, the last one before it
    (a document may define a function again), or else the first after it ("where a(q, k) =
    …"); never the formula's own."""
    found = []
    for name in names:
        places = [(at, latex) for at, latex in definitions.get(name, ()) if at != math.start]
        before = [p for p in places if p[0] < math.start]
        chosen = before[-1] if before else places[0] if places else None
        if chosen is not None:
            found.append((name, chosen[1]))
            found += [(name, latex) for latex in _other_residues(name, chosen[1], before[::-1]
                                                                  + places[len(before):])]
    return tuple(sorted(found))


def _other_residues(name: str, chosen: str, places: Sequence[tuple[int, str]]) -> list[str]:
    """The formulas that define the rest of a definition by parity that ``chosen`` starts
    (``PE(t, 2i) = …`` in one formula, ``PE(t, 2i+1) = …`` in the next), nearest first."""
    from tmath.meaning.recognise import residue

    covered = {r[1] for r in _rules(name, chosen)}
    if not any(residue(p) for pattern in covered for p in pattern):
        return []
    more = []
    for _, latex in places:
        patterns = {r[1] for r in _rules(name, latex)} - covered
        if patterns and latex not in more:
            more.append(latex)
            covered |= patterns
    return more


def _contradicts(verdicts: Sequence[Said]) -> bool:
    return any(v.status == "contradicts" for v in verdicts)


_OPENING = re.compile(r"\\begin\{[^{}]*\}|\$\$|\$|\\\[|\\\(|\s")
"""What may stand between a paragraph break and a display formula's content."""
CONTEXT = 1_500
"""Characters of the text before a formula searched for what it is called."""


def _called(document: Document, math: Math, defining: Sequence[str]) -> tuple[str, ...]:
    """Which of ``defining`` the words call this formula: named as a word in the formula's
    own text (``\\text{; the softmax of the scores}``) or in the prose before it, back to
    the start of the paragraph that introduces it (the one before, when the formula opens
    its own)."""
    if not defining:
        return ()
    text = document.text
    start = text.rfind("\n\n", max(0, math.start - CONTEXT), math.start)
    if start >= 0 and not _OPENING.sub("", text[start:math.start]):
        start = text.rfind("\n\n", max(0, start - CONTEXT), start)
    context = text[max(start, math.start - CONTEXT, 0):math.start] + " " + math.latex
    return tuple(name for name in defining
                 if re.search(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", context, re.I))


def _verdicts(latex: str, known: Sequence, mine: tuple, cache: _Cache,
              defined: tuple = (), called: tuple[str, ...] = (),
              vouched: frozenset[str] = frozenset()) -> tuple[Said, ...]:
    """The verdicts on a formula's relations, read with the document's definitions in force
    (``defined``) put in. A relation that is a claim's as written keeps that verdict when
    every definition put in is ``vouched`` (itself a claim's relation); with a definition of
    the document's own, the two readings disagree, and the contradiction stands (the
    definition is then reported with it, :func:`_definitions_blamed`)."""
    trusted = all(latex_ in vouched for _, latex_ in defined)
    found = cache.get(tuple[Said, ...], latex, mine, defined, called, trusted)
    if found is None:
        from tmath.meaning.recognise import relations_of

        written = relations_of(latex)
        relations = _put_in_all(latex, defined)
        found = _judged(relations, known, dict(mine), frozenset(called))
        if relations != written:
            as_written = _judged(written, known, dict(mine), frozenset(called))
            found = _recognised_as_written(found, as_written) if trusted or \
                not _contradicts(found) else found
        cache.put(found, tuple[Said, ...], latex, mine, defined, called, trusted)
    return found


def _steps_defined(latex: str, defined: tuple, fact: Facts, cache: _Cache,
                   meant: _Meant = ((), ()), rules: Mapping[str, tuple] = {}) -> tuple:
    """The false steps (:func:`tmath.gate.steps.false_steps`) of a formula's chains that only
    show once the document's definitions in force (and the library's of the functions it
    uses without defining them, ``meant``) are put in: ``p_{i+δ,2j}`` beside
    ``\\sin((i+δ)ω_j)`` is a step once p and ω are the document's sines and frequencies."""
    found = cache.get(_STEPS, "steps", latex, defined, meant)
    if found is None:
        from tmath.gate.steps import false_steps

        relations = _put_in_all(latex, defined, meant, rules)
        seen = {step[0] for step in fact.steps}
        found = tuple(step for step in false_steps(relations) if step[0] not in seen)
        cache.put(found, _STEPS, "steps", latex, defined, meant)
    return found


_Meant = tuple[tuple[str, ...], tuple[tuple[str, str], ...]]
"""The library functions a formula uses without the document defining them, and the
document's names renamed to the library's (:func:`_meant`)."""


@functools.lru_cache(maxsize=4)
def _library_rules(known: tuple) -> dict[str, tuple]:
    """The claims' own definitions of functions (``PE(pos, 2i) = \\sin(pos/10000^{2i/d})``,
    one rule per parity) and of families (``ω_i = 10000^{-2i/d}``) whose bodies are plain
    numbers: by name, each rule (parameters, body). A name two claims define differently
    is left out."""
    import sympy as sp

    from tmath.meaning.recognise import NAMING, Read, defined_function

    bodies: dict[str, dict[tuple, set]] = {}
    for k in known:
        if k.source not in NAMING or k.lhs is None or k.rhs is None:
            continue
        found = defined_function(Read(k.lhs, "=", k.rhs, frozenset(), frozenset(), k.recorded))
        if found is None or isinstance(k.rhs, sp.MatrixBase) or not k.rhs.is_commutative or \
                k.rhs.atoms(sp.core.function.AppliedUndef, sp.Sum, sp.Product) or \
                any(type(f).__name__ == "SumOver" for f in k.rhs.atoms(sp.Function)):
            continue
        name, parameters, body = found
        bodies.setdefault(name, {}).setdefault(parameters, set()).add(body)
    return {name: tuple((parameters, next(iter(b))) for parameters, b in rules.items())
            for name, rules in bodies.items() if all(len(b) == 1 for b in rules.values())}


def _meant(names: Sequence[str], definitions: Mapping[str, list], claimed: Mapping[str, list],
           rules: Mapping[str, tuple], mapping: Mapping[str, str]) -> _Meant:
    """The library's functions a formula uses that the document never defines (``PE`` of a
    text that takes the standard encoding as known), with the document's mapping of names
    to the library's (d ↔ d_model; all of it: a definition put in may bring in a name):
    their claims' definitions are what the names mean."""
    used = tuple(sorted(n for n in names if n in rules and n not in definitions
                        and n not in claimed))
    if not used:
        return (), ()
    return used, tuple(sorted(mapping.items()))


def _claimed_definitions(formulas: Sequence[Math], texts: Sequence[str], facts: Sequence[Facts],
                         known: Sequence, judged: Callable) -> dict[str, list]:
    """Where the document defines a function the claims use (``PE(t, 2i) = \\sin(tω_i)``) in
    a formula recognised as the claims' and contradicting none (``judged``: its verdicts as
    written and as read): (offset, formula) by name, as :func:`_definitions`. Such a
    definition is the library's, in the document's names."""
    from tmath.meaning.recognise import defined_function, relations_of

    seen: dict[str, list[tuple[int, str]]] = {}
    for math, text, fact in zip(formulas, texts, facts):
        if not fact.claims_defines:
            continue
        plain, verdicts = judged(math, text, fact)
        if _contradicts(plain) or _contradicts(verdicts) or \
                not any(v.status == "recognised" for v in verdicts):
            continue
        for name in fact.claims_defines:
            seen.setdefault(name, []).append((math.start, text))
    return seen


MAX_APART_NAMES = 32
"""Names of one relation paired at most (a relation of more is no statement of sizes, and its
pairs would grow as the square of its names)."""


def _apart(relations: Sequence[Read]) -> tuple[tuple[str, ...], ...]:
    """The names of each relation other than ``a = b``, if it has at most
    :data:`MAX_APART_NAMES`: the relation keeps them apart (``d_k = d_{model}/h`` says that
    d_k is not d_model)."""
    import sympy as sp

    return tuple(tuple(sorted(r.names)) for r in relations
                 if not (isinstance(r.lhs, sp.Symbol) and isinstance(r.rhs, sp.Symbol))
                 and len(r.names) <= MAX_APART_NAMES)


def _kept_apart(facts: Sequence[Facts]) -> frozenset:
    """Pairs of names the document keeps apart: two names in one relation (:func:`_apart`)."""
    return frozenset(frozenset(p) for fact in facts for names in fact.apart
                     for p in itertools.combinations(names, 2))


def _names_kept_apart(latex: str, verdicts: tuple, known: Sequence, mapping: Mapping[str, str],
                      apart: frozenset, called: Callable[[], tuple[str, ...]]) -> tuple:
    """``verdicts`` with each relation recognised only by renaming, in this formula alone, one
    of the document's names onto another it keeps ``apart`` judged again without that
    renaming (:func:`tmath.meaning.recognise.judge`): √d_model where a claim has √d_k, in a
    document that says d_k = d_model/h, is that claim's near form."""
    from tmath.meaning.recognise import judge, relations_of

    if not any(v.status == "recognised" for v in verdicts):
        return verdicts   # nothing recognised: nothing to judge again (and nothing read)
    relations = relations_of(latex)
    kept = []
    for v in verdicts:
        relation = relations[v.index] if v.index < len(relations) else None
        if v.status != "recognised" or relation is None or \
                not any(len(p & relation.names) == 1 for p in apart):
            kept.append(v)
            continue
        mine = {k: m for k, m in mapping.items() if k in relation.names | relation.functions}
        words = frozenset(called())   # what the words call it: read only when needed
        again = judge(relation, known, mine, words, apart)
        if again is None or again.status == "recognised" or \
                judge(relation, known, mine, words) is None:
            kept.append(v)   # recognised without a merge, or the verdict of its chain's ends
            continue
        k = again.known
        kept.append(Said(again.status, k.claim, k.recorded, k.source, again.shown,
                         again.detail, v.index, again.where, relation.case))
    return tuple(kept)


def _put_in_all(latex: str, defined: tuple, meant: _Meant = ((), ()),
                rules: Mapping[str, tuple] = {}) -> list:
    """A formula's relations with each definition in ``defined`` put in, then, renamed to
    the library's names, the library's definitions (``rules``) of the functions in
    ``meant``."""
    from tmath.meaning.recognise import Read, put_in, relations_of, rename, vocabulary

    relations = relations_of(latex)
    for name, definition in defined:
        for rule in _rules(name, definition):   # one, or one per parity
            relations = [put_in(r, *rule) for r in relations]
    used, renames = meant
    if used:
        mapping = dict(renames)
        relations = [Read(lhs, r.op, rhs, *vocabulary(lhs, rhs), r.text, r.case)
                     for r in relations
                     for lhs, rhs in [(rename(r.lhs, mapping), rename(r.rhs, mapping))]]
        for name in used:
            for parameters, body in rules.get(name, ()):
                relations = [put_in(r, name, parameters, body) for r in relations]
    return relations


def _true_by_definitions(latex: str, verdicts: tuple, defined: tuple, cache: _Cache,
                         meant: _Meant = ((), ()), rules: Mapping[str, tuple] = {}) -> tuple:
    """``verdicts`` without a contradiction on a relation that is an identity once the
    document's definitions in force (and the library's, ``meant``) are put in
    (:func:`tmath.gate.steps.holds`), its chain's ends too: ``\\sin((t+k)ω_i) = PE(t+k, 2i)``
    is the definition at t+k, not a near form of the shift rotation."""
    true = cache.get(tuple[int, ...], "true", latex, defined, meant)
    if true is None:
        from tmath.gate.steps import holds
        from tmath.meaning.recognise import chains_of

        relations = _put_in_all(latex, defined, meant, rules)
        ends = {k: chain.ends for chain in chains_of(relations)
                for k in range(chain.first, chain.last + 1)}
        true = tuple(k for k, r in enumerate(relations)
                     if holds(r) and (k not in ends or holds(ends[k])))
        cache.put(true, tuple[int, ...], "true", latex, defined, meant)
    return tuple(v for v in verdicts if v.status != "contradicts" or v.index not in true)


def _rules(name: str, definition: str) -> list[tuple]:
    """The rules by which a formula defines ``name``: its first definition of it, or, for a
    definition by parity (``p_{i,2j} = \\sin …``, ``p_{i,2j+1} = \\cos …``), one for each
    residue (:func:`tmath.meaning.recognise.put_in` applies each where it matches)."""
    import sympy as sp

    from tmath.meaning.recognise import defined_function, relations_of

    rules = [d for d in map(defined_function, relations_of(definition))
             if d is not None and d[0] == name]
    by_parity = [r for r in rules if not all(isinstance(p, (sp.Symbol, sp.Indexed))
                                             for p in r[1])]
    if not by_parity:
        return rules[:1]
    kept: dict = {}
    for rule in by_parity:
        kept.setdefault(rule[1], rule)
    return list(kept.values())


def _recognised_as_written(expanded: Sequence[Said], written: Sequence[Said]
                           ) -> tuple[Said, ...]:
    """The verdicts with the document's definitions put in, except on a relation that is a
    claim's as written (``M_{φ,k}`` in terms of ``ω_k``, as the claim writes it): there the
    definition is not needed, and the relation is recognised."""
    right = {s.index for s in written if s.status == "recognised"}
    kept = [s for s in expanded if s.index not in right]
    return tuple(sorted(kept + [s for s in written if s.index in right],
                        key=lambda s: s.index))


def _judged(relations: Sequence, known: Sequence, mapping: Mapping[str, str],
            called: frozenset[str] = frozenset()) -> tuple[Said, ...]:
    """The verdicts on each relation, then on the ends of each chain of them
    (:func:`_by_ends`)."""
    from tmath.meaning.recognise import chains_of

    said = [v for index, relation in enumerate(relations)
            for v in _said(relation, known, mapping, index, called)]
    for chain in chains_of(relations):
        said = _by_ends(chain, said, known, mapping, called, relations)
    return tuple(said)


def _said(relation: Read, known: Sequence, mapping: Mapping[str, str], index: int,
          called: frozenset[str] = frozenset()) -> list[Said]:
    """The verdict on one relation, as stored (none if it is not a claim's or near one)."""
    from tmath.meaning.recognise import judge

    verdict = judge(relation, known, mapping, called)
    if verdict is None:
        return []
    k = verdict.known
    return [Said(verdict.status, k.claim, k.recorded, k.source, verdict.shown,
                 verdict.detail, index, verdict.where, relation.case)]


def _by_ends(chain: Chain, said: list[Said], known: Sequence, mapping: Mapping[str, str],
             called: frozenset[str] = frozenset(), relations: Sequence = ()) -> list[Said]:
    """``said`` with the verdict on a chain's ends ``a = d`` (at its first link's row) where no
    link is recognised: when the ends are a claim's relation, the links' near forms of that
    claim are the steps from one of its sides to the other, not findings (except a link that
    contradicts a definition at its own argument, ``softmax(x/d) = exp(x/√d)/Σ…``: a right
    step there equals the definition, whatever the ends say); when the ends are
    its near form, that is the finding, put first (unless a link is that claim's near form
    too: the link says on which row the chain goes wrong; so does the one link that is not
    seen to hold when every other one is, :func:`_broken_link`)."""
    links = [s for s in said if chain.first <= s.index <= chain.last]
    if any(s.status == "recognised" for s in links):
        return said
    ends = _said(chain.ends, known, mapping, chain.first, called)
    if not ends:
        return said
    if ends[0].status == "recognised":   # a definition at a link's own argument is no step
        said = [s for s in said if s not in links or s.claim != ends[0].claim
                or (s.status == "contradicts" and s.source == "definition")]
    elif any(s.status == "contradicts" and s.claim == ends[0].claim for s in links):
        return said
    else:
        ends = [replace(ends[0], index=_broken_link(chain, relations))]
    at = next((k for k, s in enumerate(said) if s.index >= ends[0].index), len(said))
    return said[:at] + ends + said[at:]


def _broken_link(chain: Chain, relations: Sequence) -> int:
    """The link of a chain whose ends are false that breaks it: the only one not seen to hold
    (:func:`tmath.gate.steps.holds`) when every other is an identity evaluated true; else the
    first link, where the chain starts (nothing tells which link breaks it)."""
    from tmath.gate.steps import holds

    links = range(chain.first, chain.last + 1)
    unseen = [k for k in links if k < len(relations) and not holds(relations[k])]
    return unseen[0] if len(unseen) == 1 and len(relations) > chain.last else chain.first


_WRAPPING = re.compile(r"\\(?:begin|end)\{[^{}]*\}|\\(?:label|tag)\{[^{}]*\}")
_ENVIRONMENT = re.compile(r"\\(begin|end)\{[^{}]*\}")


def _inner_blanked(latex: str) -> str:
    """``latex`` with the row breaks ``\\\\`` of every environment inside the outermost one
    (a matrix in an ``aligned`` row) blanked out, so that only the formula's own rows split."""
    stripped = latex.strip()
    outer = 1 if stripped.startswith("\\begin{") and "\\end{" in stripped and \
        stripped.endswith("}") else 0   # the formula is one environment: its rows are ours
    chars, depth, opened = list(latex), 0, 0
    for match in _ENVIRONMENT.finditer(latex):
        if match.group(1) == "begin":
            depth += 1
            if depth == outer + 1:
                opened = match.end()
        else:
            if depth == outer + 1:
                inner = latex[opened:match.start()].replace("\\\\", "  ")
                chars[opened:match.start()] = inner
            depth = max(0, depth - 1)
    return "".join(chars)


def line_of(document: Document, math: Math, index: int, relations: int,
            where: Sequence[str] = (), case: int = -1, own_rows: bool = False) -> int:
    """The line of a formula's ``index``-th relation: the row of its ``case`` in a definition by
    cases; its row when the formula has one row per relation (an align), else where the formula's first content is (below a lone ``\\[``);
    within a row over several lines, the one line that holds most of ``where`` (the names
    that differ from a claim, then the function above them). ``own_rows``: a matrix's rows
    inside the formula are not the formula's rows (a step of a derivation is on its own)."""
    if math.inner < 0:
        return math.line
    from tmath.gate.formulas import _top_level

    row = _case_row(math.latex, case) if case >= 0 else None
    if row is not None:
        return document.line_of(math.inner + row)

    source = _inner_blanked(math.latex) if own_rows else math.latex
    source = _COMMENT.sub(lambda m: " " * len(m.group()), source)   # a commented-out row
    body = _WRAPPING.sub(lambda m: " " * len(m.group()), source)
    cuts = [0] + [k + 2 for k in _top_level(body, "\\\\")]
    rows = [(a, body[a:b]) for a, b in zip(cuts, cuts[1:] + [len(body) + 2])
            if _SPACING.sub("", body[a:b]).replace("\\\\", "").strip()]   # \quad alone: no row
    one_each = len(rows) == relations and index < len(rows)
    at, row = rows[index] if one_each else (rows[0] if rows else (0, body))
    first = document.line_of(math.inner + at + len(row) - len(row.lstrip()))
    entry = _matrix_row(math.latex, (at, at + len(row)) if one_each else (0, len(body)), where)
    if entry is not None:
        return document.line_of(math.inner + entry)
    if not one_each:   # which row holds which relation is not known: look in them all
        holding = _holding(body, where)
        if holding is not None:
            return document.line_of(math.inner) + holding
        counted = _row_by_equals(rows, relations, index) if own_rows else None
        if counted is not None:   # a relation of its own (a step): count each row's "="
            at, row = counted
            return document.line_of(math.inner + at + len(row) - len(row.lstrip()))
        return first
    holding = _holding(row, where)
    return first if holding is None else document.line_of(math.inner + at) + holding


def _matrix_row(body: str, span: tuple[int, int], where: Sequence[str]) -> int | None:
    """Where, in ``body``, the row named by ``where``'s ``row:r/R`` starts: row r of the one
    matrix within ``span`` printed with R rows (of several, the one whose row r alone holds
    the most of ``where``'s names); None when that is not one place."""
    from tmath.latex.split import MATRIX, rows

    token = next((w[4:] for w in where if w.startswith("row:")), None)
    if token is None:
        return None
    r, count = map(int, token.split("/"))
    names = [w for w in where if ":" not in w]
    found = []
    for match in MATRIX.finditer(body, *span):
        printed = rows(match.group(2))
        if len(printed) == count:
            at, text = printed[r]
            plain = _plain_names(text)
            found.append((sum(_has(plain, n) for n in names), match.start(2) + at))
    if not found:
        return None
    best = max(score for score, _ in found)
    places = [at for score, at in found if score == best]
    return places[0] if len(places) == 1 else None


def _new_side(formulas: Sequence[Math], k: int) -> tuple[int, int] | None:
    """The span of the one side of formula ``k``'s equation that no formula before it prints
    (``A x = …`` after ``A x = b``: the step is on the right); None if that is not one side."""
    from tmath.gate.formulas import equals_at

    latex = formulas[k].latex
    equals = equals_at(latex)
    if len(equals) != 1:
        return None
    before = {re.sub(r"\s+", "", formulas[j].latex) for j in range(k)}
    sides = [(0, equals[0]), (equals[0] + 1, len(latex))]
    new = [(a, b) for a, b in sides
           if not any(re.sub(r"\s+", "", latex[a:b]) in text for text in before)]
    return new[0] if len(new) == 1 else None


def _row_by_equals(rows: Sequence[tuple[int, str]], relations: int, index: int
                   ) -> tuple[int, str] | None:
    """The row that holds relation ``index`` when each relation is one ``=`` and the rows'
    ``=`` add up to the relations; None otherwise."""
    from tmath.gate.formulas import equals_at

    counts = [len(equals_at(text)) for _, text in rows]
    if len(rows) < 2 or sum(counts) != relations or index >= relations:
        return None
    return rows[[k for k, count in enumerate(counts) for _ in range(count)][index]]


_SPACING = re.compile(r"\\(?:quad|qquad|[,;:! ]|hspace\*?\{[^}]*\}|vspace\*?\{[^}]*\})|~")
"""Spacing commands: a row made of them alone is no row of the formula's relations."""


def _case_row(latex: str, case: int) -> int | None:
    """Where, in ``latex``, the ``case``-th row of its one ``cases`` environment starts."""
    from tmath.gate.formulas import _top_level

    opening, closing = latex.find("\\begin{cases}"), latex.find("\\end{cases}")
    if opening < 0 or closing < opening or latex.find("\\begin{cases}", opening + 1) >= 0:
        return None
    start = opening + len("\\begin{cases}")
    body = latex[start:closing]
    cuts = [0] + [k + 2 for k in _top_level(body, "\\\\")]
    if case >= len(cuts):
        return None
    row = body[cuts[case]:]
    return start + cuts[case] + len(row) - len(row.lstrip())


def _holding(row: str, where: Sequence[str]) -> int | None:
    """Which line of ``row`` (counted from 0) holds most of the names in ``where``, the
    function breaking a tie (or alone, when only a function differs: ``max`` for ``min``);
    None unless exactly one line holds the most, and some name or that function."""
    lines = row.split("\n")
    if len(lines) < 2 or not where:
        return None
    names = [w for w in where if not w.startswith("fn:")]
    functions = [w[3:].lower() for w in where if w.startswith("fn:")]
    scores = []
    for line in lines:
        plain = _plain_names(line)
        scores.append((sum(_has(plain, n) for n in names),
                       sum(_has(plain.lower(), f) for f in functions)))
    best = max(scores)
    return scores.index(best) if (best[0] or not names and best[1]) and \
        scores.count(best) == 1 else None


def _plain_names(line: str) -> str:
    """A line of LaTeX with its wrappers and braces gone, so names read as the reader spells
    them: ``d_{\\text{model}}`` → ``d_model``, ``\\omega`` → ``omega``, ``warmup\\_steps`` →
    ``warmup_steps``."""
    line = re.sub(r"\\(?:text|mathrm|mathbf|boldsymbol|operatorname|mathit|bm)\s*", "", line)
    line = re.sub(r"\\([A-Za-z]+)", r" \1", line.replace("\\_", "_"))   # \frac\log: two words
    return re.sub(r"[{}\\]", "", line)


def _has(plain: str, name: str) -> bool:
    """``name`` written in ``plain``; a family's ``e_`` as the start of ``e_{ij}``."""
    end = "" if name.endswith("_") else r"(?![A-Za-z0-9_'])"
    return re.search(rf"(?<![A-Za-z_']){re.escape(name)}{end}", plain) is not None


def in_names(recorded: str, mapping: Mapping[str, str]) -> str:
    """A claim's formula in the document's names (``d_k`` → ``d`` where the document
    writes d)."""
    text = recorded
    for mine, theirs in sorted(mapping.items(), key=lambda kv: -len(kv[1])):
        for spelling in _spellings(theirs):
            text = re.sub(rf"(?<![A-Za-z\\]){re.escape(spelling)}(?![A-Za-z_])", mine, text)
    return text


def _spellings(name: str) -> list[str]:
    """How a name is written in LaTeX: ``d_k``, ``d_{k}``, ``\\text{Attention}``…"""
    if "_" in name:
        base, sub = name.split("_", 1)
        return [f"{base}_{{{sub}}}", f"{base}_{{\\text{{{sub}}}}}", name]
    return [f"\\text{{{name}}}", f"\\mathrm{{{name}}}", f"\\operatorname{{{name}}}", name]


_STEPS = tuple[tuple[int, str, float, float], ...]
"""How the false steps of a formula with the document's definitions put in are stored."""
_BOUND = tuple[tuple[str, float | str, float | str, float, tuple[str, ...]], ...]
"""How the false arithmetic of a formula with the document's values put in is stored."""
_MISFIT = tuple[tuple[int, str, str, str, tuple[str, ...]], ...]
"""How a formula's first misfit of shapes is stored (none: an empty tuple)."""
SHAPES_REACH = 800
"""How far after a formula (in characters) a declaration of its names' shapes may come
("… = \\mathrm{Concat}(…)W^O, where W^O ∈ …")."""


def _declared_in_force(document: Document, formulas: Sequence[Math], facts: Sequence[Facts],
                       k: int, field: str) -> dict[str, tuple[int, tuple]]:
    """For each name, the formula (index) whose ``field`` (shapes or matrices) gives it in
    force at formula ``k``: its own, the nearest above in its section, else the first in the
    next SHAPES_REACH characters."""
    section = document.section_at(formulas[k].start)
    chosen: dict[str, tuple[int, tuple]] = {}
    order = [k] + list(range(k - 1, -1, -1)) + list(range(k + 1, len(formulas)))
    for j in order:
        if document.section_at(formulas[j].start) != section:
            continue
        if j > k and formulas[j].start - formulas[k].end > SHAPES_REACH:
            break
        for item in getattr(facts[j], field):
            chosen.setdefault(item[0], (j, item[1:]))
    return chosen


def _misfits(document: Document, formulas: Sequence[Math], texts: Sequence[str],
             facts: Sequence[Facts], cache: _Cache) -> list[Finding]:
    """Products whose factors' declared shapes do not fit (:mod:`tmath.gate.shapes`): on the
    formula's row and on each declaration that took part (the two disagree; either may be
    the wrong one)."""
    if not any(f.shapes for f in facts):
        return []
    findings = []
    for k, fact in enumerate(facts):
        if not fact.products:
            continue
        shapes = _declared_in_force(document, formulas, facts, k, "shapes")
        defined = _declared_in_force(document, formulas, facts, k, "matrices")
        if not shapes:
            continue
        names = _names_reached(fact, defined, facts)
        given = tuple(sorted((name, dims[1:]) for name, (_, dims) in shapes.items()
                             if _base_name(name) in names))
        bodies = tuple(sorted((name, texts[j], int(at[0])) for name, (j, at) in defined.items()))
        stored = cache.get(_MISFIT, "shapes", texts[k], given, bodies)
        if stored is None:
            found = _misfit(texts[k], given, bodies)
            stored = (found,) if found else ()
            cache.put(stored, _MISFIT, "shapes", texts[k], given, bodies)
        if not stored:
            continue
        index, what, a, b, names = stored[0]
        a, b = a.replace("*", "·"), b.replace("*", "·")
        here = line_of(document, formulas[k], index, fact.relations, own_rows=True)
        places = sorted({_declaration_line(document, formulas[shapes[n][0]],
                                           int(shapes[n][1][0]), facts[shapes[n][0]].relations):
                         shapes[n][0] for n in names if n in shapes}.items())
        lines = ", ".join(document.where(line) for line, _ in places)
        section = document.section_at(formulas[k].start)
        for j, line, detail in [(k, here, f"{what}: {a} ≠ {b}, with the shapes declared on "
                                          f"{lines}"),
                                *[(j, line, f"the shape declared here does not fit "
                                            f"the product on {document.where(here)}"
                                            f" ({what}: {a} ≠ {b})")
                                  for line, j in places if line != here]]:
            findings.append(Finding(
                kind="formula", document=document.path,
                section=section.number if section else None, line=line,
                column=document.column_of(formulas[j].start), formula=formulas[j].latex,
                status="contradicts", meaning="contradicts", compared_with=("shapes",),
                detail=detail))
    return findings


def _base_name(key: str) -> str:
    """The name a shape key belongs to: ``W`` of ``W[·,q]`` and ``W**Q``, ``sublayer`` of the
    value ``sublayer(x)``."""
    return key.split("[")[0].split("**")[0].split("(")[0]


def _names_reached(fact: Facts, defined: Mapping[str, tuple[int, tuple]],
                   facts: Sequence[Facts]) -> set[str]:
    """The names a formula uses, with those the definitions in force of its names use
    (``Q = XW^q`` brings X and W), as far as they reach."""
    names, seen = set(fact.names), set()
    while True:
        more = [j for name, (j, _) in defined.items()
                if _base_name(name) in names and j not in seen]
        if not more:
            return names
        for j in more:
            seen.add(j)
            names.update(facts[j].names)


def _declaration_line(document: Document, math: Math, index: int, relations: int) -> int:
    """The line where a formula's ``index``-th relation prints its shape
    (``\\mathbb{R}^{…}``): in the row of that relation, when each row's relations can be
    counted, else the formula's first shape."""
    if math.inner < 0:
        return math.line
    from tmath.latex.split import rows
    from tmath.meaning.recognise import relations_of

    start, seen = 0, 0
    cut = rows(math.latex)
    if len(cut) > 1 and sum(len(relations_of(text)) for _, text in cut) == relations:
        for offset, text in cut:
            seen += len(relations_of(text))
            if index < seen:
                start = offset
                break
    at = math.latex.find("\\mathbb", start)
    at = at if at >= 0 else math.latex.find("\\mathbb")
    return document.line_of(math.inner + at) if at >= 0 else math.line


_SREPR_CLASSES = ("Symbol", "Integer", "Rational", "Half", "One", "Zero", "NegativeOne",
                  "Mul", "Add", "Pow", "IndexedBase", "Indexed", "Tuple")
"""What a stored size may be built of: names, numbers and their arithmetic."""


@functools.lru_cache(maxsize=4096)
def _size(srepr: str):
    """A declared size, rebuilt from its ``srepr`` once, without evaluating the text (it comes
    from the cache on disk): only :data:`_SREPR_CLASSES` called with literals are built;
    anything else raises ValueError."""
    import ast

    import sympy as sp

    def build(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, str, bool)):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and \
                isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, int):
            return -node.operand.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in _SREPR_CLASSES:
            return getattr(sp, node.func.id)(*map(build, node.args),
                                             **{k.arg: build(k.value) for k in node.keywords})
        raise ValueError(f"not a stored size: {ast.dump(node)[:60]}")

    return build(ast.parse(srepr, mode="eval").body)


def _misfit(text: str, given: Sequence, bodies: Sequence) -> tuple:
    """(relation index, what, one size, the other, declared names that took part) of the
    first product of ``text`` whose shapes do not fit; () when they fit or cannot be read."""
    import sympy as sp

    from tmath.gate.shapes import mismatch
    from tmath.meaning.recognise import relations_of

    try:
        shapes = {name: tuple(_size(d) for d in dims) for name, dims in given}
        defined = {}
        for name, source, index in bodies:
            read = relations_of(source)
            if index < len(read):
                defined[name] = read[index].rhs
        wrong = mismatch(relations_of(text), shapes, defined)
    except (TypeError, ValueError, AttributeError, ArithmeticError, NotImplementedError,
            RecursionError, sp.SympifyError):
        return ()   # a size or a body SymPy will not build: nothing is said of it
    if wrong is None:
        return ()
    return (wrong.index, wrong.what, str(wrong.a), str(wrong.b), tuple(sorted(wrong.names)))


SOLVED_FROM = 6
"""How many formulas before stated values (the nearest, in their section, that share a name
with them) are held to them: a derivation solves what it has just written."""


def _unsolved(document: Document, formulas: Sequence[Math], texts: Sequence[str],
              facts: Sequence[Facts], cache: _Cache) -> list[Finding]:
    """Values a derivation states that the equations above them, in their section, do not
    give; or one of those equations that is false with values the others uphold."""
    from tmath.gate.solutions import Unsolved, equation, stated_values, unsolved
    from tmath.meaning.recognise import relations_of

    def line(k: int, index: int, name: str = "") -> int:
        side = _new_side(formulas, k) if name.startswith("row:") else None
        entry = _matrix_row(formulas[k].latex, side, (name,)) if side else None
        if entry is not None and formulas[k].inner >= 0:
            return document.line_of(formulas[k].inner + entry)
        return line_of(document, formulas[k], index, facts[k].relations, (name,) if name else (),
                       own_rows=True)

    read: dict[int, list] = {}

    def relations(j: int) -> list:
        if j not in read:
            read[j] = relations_of(texts[j])
        return read[j]

    findings = []
    for k, fact in enumerate(facts):
        if not fact.solves:
            continue
        section = document.section_at(formulas[k].start)
        before = list(itertools.islice(
            (j for j in range(k - 1, -1, -1) if not facts[j].solves
             and set(facts[j].names) & set(fact.solves)
             and document.section_at(formulas[j].start) == section), SOLVED_FROM))
        key = ("solved", k, texts[k], tuple((j, texts[j]) for j in before))
        results = cache.get(tuple[Unsolved, ...], *key)
        if results is None:
            equations = [e for j in sorted(before) for i, r in enumerate(relations(j))
                         for e in [equation(r, j, i)] if e]
            results = tuple(unsolved(equations, stated_values(relations(k), k)))
            cache.put(results, tuple[Unsolved, ...], *key)
        for found in results:
            detail = re.sub(r"\{(\d+):(\d+)\}", lambda m: document.where(
                line(int(m.group(1)), int(m.group(2)))), found.detail)
            math = formulas[k] if found.name else formulas[found.formula]
            at = line(found.formula, found.index, found.name or found.row)
            findings.append(Finding(
                kind="formula", document=document.path,
                section=section.number if section else None, line=at,
                column=document.column_of(math.start), formula=math.latex,
                status="contradicts", meaning="contradicts", compared_with=("identity",),
                detail=detail))
    return findings


def _softmax_judged(document: Document, math: Math, text: str, fact: Facts, softmaxes: Sequence,
                    mapping: Mapping[str, str], common: dict) -> Finding | None:
    """A softmax with the names of a claim's and another argument (:mod:`tmath.gate.subterms`),
    on its row; None when there is none."""
    from tmath.gate.subterms import contradicted

    found = contradicted(text, softmaxes, mapping)
    if found is None:
        return None
    index, claim, argument = found
    return Finding(**{**common, "line": line_of(document, math, index, fact.relations,
                                                ("fn:softmax",), own_rows=True)},
                   status="contradicts", claim=claim.claim, claims=(claim.claim,),
                   recorded=claim.recorded, meaning="contradicts", compared_with=("subterm",),
                   detail=f"claim {claim.claim} proves {in_names(claim.recorded, mapping)}; this "
                          f"softmax of the same names is softmax({argument}), another argument")


def _unnormalised(document: Document, math: Math, fact: Facts, found: tuple[int, str, str],
                  common: dict) -> Finding:
    """Weights whose sum is not 1: the numerator is not the denominator's term."""
    index, numerator, term = found
    return Finding(**{**common, "line": line_of(document, math, index, fact.relations,
                                                ("fn:sum_", "fn:sum"), own_rows=True)},
                   status="contradicts", meaning="contradicts", compared_with=("normalisation",),
                   detail=f"these weights do not sum to 1: the numerator is {numerator}, but "
                          f"the sum below it adds up {term} (softmax divides each term by the "
                          f"sum of the same terms)")


def _false_step(document: Document, math: Math, fact: Facts,
                step: tuple[int, str, float, float], common: dict) -> list[Finding]:
    """A link of the formula's chain that is false as an identity: on the lines where its
    two members start (either may be the wrong one), else on its row."""
    index, shown, left, right = step
    lines = _link_lines(document, math, index, fact.relations) or \
        [line_of(document, math, index, fact.relations, own_rows=True)]
    return [Finding(**{**common, "line": line}, status="contradicts", meaning="contradicts",
                    compared_with=("identity",),
                    detail=f"a step of this derivation does not hold: at a random point its "
                           f"left side is {number(left)} and its right side {number(right)}")
            for line in lines]


def _link_lines(document: Document, math: Math, index: int, relations: int) -> list[int]:
    """The lines where the two members of link ``index`` of a formula that is one chain of
    ``=`` start (each member after its ``=``); [] when the formula is not one such chain."""
    from tmath.gate.formulas import equals_at

    if math.inner < 0:
        return []
    body = _inner_blanked(math.latex)
    equals = equals_at(body)
    if len(equals) != relations or index >= len(equals):
        return []
    starts = [equals[index - 1] + 1 if index else 0, equals[index] + 1]
    lines = []
    for at in starts:
        while at < len(body) and (body[at].isspace() or body[at] == "&"):
            at += 1
        lines.append(document.line_of(math.inner + at))
    return list(dict.fromkeys(lines))


def _false(math: Math, shown: str, computed: float, printed: float, tolerance: float,
           common: dict) -> Finding:
    return Finding(status="inaccurate", label="arithmetic", printed=number(printed),
                   expected=(computed,) if isinstance(computed, float) else None,
                   tolerance=f"±{tolerance:g}" if tolerance else "exact",
                   detail=f"{math.latex.strip()} is false: it prints {number(printed)} for "
                          f"{number(computed)}",
                   **{**common, "kind": "figure"})
