"""The messages the engine composes (a foil's proof failure, a test's summary, a check's
headline), read back into their parts so a page can show them in the reader's language.

Each message is matched against the template the engine writes it with; the template is an
interface text (translated by the catalog), its mathematical parts are kept, and its parts in
words (a chain's name, a test's inputs) are looked up in the claim's catalog. A message that
matches no template is shown as it is. Numbers and formulas get the minus sign −.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tmath.i18n.markers import N_
from tmath.render.minus import minus_signs_in_text

if TYPE_CHECKING:
    from tmath.engine.results import EmpiricalResult, TestResult
    from tmath.i18n import Translator

NUMERIC = re.compile(r"numerically (?P<a>.+) ≠ (?P<b>.+) at (?P<point>.+)")
DERIVED = re.compile(r"(?P<chain>.*?): derived (?P<derived>.+), stated (?P<stated>.+?); "
                     r"(?P<rest>numerically .+)", re.S)
STATISTICAL = re.compile(r"(?P<estimate>\S+) vs (?P<expected>\S+) \(±(?P<half>\S+), "
                         r"p=(?P<p>[^,]+), n=(?P<n>[^ ]+?)(?: of (?P<planned>\S+))?\)")
DETERMINISTIC = re.compile(r"(?P<bound>max \|Δ\|(?:/tol)? \S+ [≤>] (?:tol )?\S+)"
                           r"(?: on (?P<inputs>.+?))?"
                           r"(?: \((?P<below>\d+) of (?P<nonzero>\d+) nonzero entries below "
                           r"tol, not resolved\))?")
TEMPLATES = (N_("numerically {a} ≠ {b} at {point}"), N_("every point"),
             N_("{chain}: derived {derived}, stated {stated}; {rest}"),
             N_("{estimate} vs {expected} (±{half}, p={p}, n={n})"), N_("{n} of {planned}"),
             N_(" on {inputs}"), N_("{below} of {nonzero} nonzero entries below tol, not resolved"),
             N_("(+{count} more)"), N_("{label} at {point}"))


def proof_message(text: str, tr: Translator, info: Any = None) -> str:
    """A proof's failure reason in the reader's language (see the module)."""
    found = DERIVED.fullmatch(text)
    if found:
        return tr.ui(TEMPLATES[2]).format(chain=tr.text(found["chain"], info),
                                          derived=found["derived"], stated=found["stated"],
                                          rest=proof_message(found["rest"], tr, info))
    found = NUMERIC.fullmatch(text)
    if found:
        point = found["point"]
        point = tr.ui(TEMPLATES[1]) if point == "every point" else point
        return minus_signs_in_text(tr.ui(TEMPLATES[0]).format(a=found["a"], b=found["b"],
                                                              point=point))
    return minus_signs_in_text(tr.text(text, info))


def summary_text(test: TestResult, tr: Translator, info: Any = None) -> str:
    """What a test found, in the reader's language."""
    found = STATISTICAL.fullmatch(test.summary)
    if found:
        n = found["n"] if not found["planned"] else \
            tr.ui(TEMPLATES[4]).format(n=found["n"], planned=found["planned"])
        return minus_signs_in_text(tr.ui(TEMPLATES[3]).format(
            estimate=found["estimate"], expected=found["expected"], half=found["half"],
            p=found["p"], n=n))
    found = DETERMINISTIC.fullmatch(test.summary)
    if found:
        shown = found["bound"]
        if found["inputs"]:
            shown += tr.ui(TEMPLATES[5]).format(inputs=tr.text(found["inputs"], info))
        if found["below"]:
            shown += " (" + tr.ui(TEMPLATES[6]).format(below=found["below"],
                                                       nonzero=found["nonzero"]) + ")"
        return minus_signs_in_text(shown)
    return minus_signs_in_text(tr.text(test.summary, info))


def point_text(test: TestResult, tr: Translator, info: Any = None) -> str:
    """Where a test ran (``d_k=64, laws of q, k=Gaussian × uniform``), names and values in
    words looked up in the claim's catalog."""
    from tmath.engine.results import _short

    return minus_signs_in_text(", ".join(
        f"{tr.text(name, info)}={tr.text(_short(value), info)}" for name, value in test.parameters))


def check_headline(empirical: EmpiricalResult, tr: Translator, info: Any = None) -> str:
    """The test a check is summed up by (its first failing one), where it ran, what it found,
    and how many more tests there were."""
    if empirical.reason or not empirical.tests:
        return minus_signs_in_text(tr.text(empirical.headline, info))
    failed = [t for t in empirical.tests if not t.passed]
    shown = (failed or list(empirical.tests))[0]
    point = point_text(shown, tr, info)
    more = len(empirical.tests) - 1
    label = tr.text(shown.label, info)
    title = tr.ui(TEMPLATES[8]).format(label=label, point=point) if point else label
    return (title + ": " + summary_text(shown, tr, info)
            + (" " + tr.ui(TEMPLATES[7]).format(count=more) if more else ""))
