"""Collecting the texts a translator translates, and keeping catalogs in step with them.

* Interface texts are found in tmath's source without running it: string literals passed to
  ``ui(...)`` / ``tr.ui(...)`` or marked with :func:`tmath.i18n.markers.N_`, the composed
  templates of :data:`tmath.i18n.TEMPLATES`, and the names of SymPy methods.
* A claims folder's texts are found by running its claims once (titles, summaries,
  statements, premises, foils, figure labels, and the step and test labels the proofs and
  checks write, which may be built at run time).

:func:`merge` keeps every existing translation, adds new texts untranslated and reports the
texts no claim uses any more.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from tmath.i18n import METHOD_CONTEXT, PACKAGE_DIR, TEMPLATES, Translator
from tmath.i18n.catalogs import Entry, read_po

if TYPE_CHECKING:
    from tmath.engine.results import ClaimResult

WORD = re.compile(r"(?<![A-Za-z_\\])[A-Za-z]{3,}(?![A-Za-z_(])")
"""A text worth translating has an English word in it, not just a function name such as
Var( or softmax( (pure formulas stay as they are)."""
MARKERS = {"ui", "N_"}


def interface_texts(root: Path = PACKAGE_DIR) -> list[Entry]:
    """Every interface text in tmath's source, in first-seen order."""
    found: dict[tuple[str | None, str], Entry] = {}
    for path in sorted(root.rglob("*.py")):
        if "_builtin_claims" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            first = node.args[0]
            if name in MARKERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                where = f"#: {path.relative_to(root.parent)}:{node.lineno}"
                found.setdefault((None, first.value), Entry(first.value, comments=(where,)))
    for template, _ in TEMPLATES:
        found.setdefault((None, template), Entry(template, comments=("#. a composed text",)))
    from tmath.engine.proof import SIMPLIFIERS  # the engine names its methods

    for method in SIMPLIFIERS:
        found.setdefault((METHOD_CONTEXT, method), Entry(method, msgctxt=METHOD_CONTEXT))
    return list(found.values())


def result_texts(result: ClaimResult) -> list[str]:
    """The texts of one claim that a page shows: metadata first, then what its run wrote."""
    info = result.info
    texts = [info.title, info.summary, info.statement, *info.premises]
    texts += [getattr(info, "reason", None) or "", getattr(info, "reported", "")]
    texts += [why for _, why in getattr(info, "not_in", ())]
    texts += [t for foil in info.foils for t in (foil.text, foil.why)]
    texts += [f.label for f in info.figures]
    for step in result.proof.steps:
        head = re.fullmatch(r"(.*?)(?: \[SymPy[^\]]*\])?", step.why, flags=re.S).group(1)
        texts.append(step.chain)
        if step.kind != "lemma":  # "by claim <id>": an id is not translated
            texts.append(head.removeprefix("premise: "))
    texts += [test.label for test in result.empirical.tests]
    return [t for t in dict.fromkeys(texts) if t and WORD.search(t)]


def claim_texts(results: Iterable[ClaimResult], translator: Translator | None = None
                ) -> dict[str, list[Entry]]:
    """Per claims module (file stem): the entries its claims need, with the claim id as
    context, leaving out what the interface catalog already translates."""
    tr = translator or Translator("en")
    modules: dict[str, list[Entry]] = {}
    for result in results:
        stem = Path(result.info.path).stem
        entries = modules.setdefault(stem, [])
        for text in result_texts(result):
            if tr.lang != "en" and tr.text(text) != text:
                continue  # the interface's catalog or a composed template covers it
            entries.append(Entry(text, msgctxt=result.info.id))
    return modules


@dataclass(frozen=True)
class Merged:
    entries: tuple[Entry, ...]
    added: tuple[Entry, ...]
    dropped: tuple[Entry, ...]

    @property
    def untranslated(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if not e.msgstr)


def merge(needed: Iterable[Entry], existing_po: str | None, keep_unused: bool = False) -> Merged:
    """The catalog ``needed`` calls for, keeping the translations of ``existing_po``: an
    entry without context in the old catalog serves every claim that uses its text.
    ``keep_unused`` keeps old entries nobody asked for (interface words chosen at run time,
    such as a verdict, are not literals the extractor can see)."""
    old = read_po(existing_po) if existing_po else []
    by_key = {(e.msgctxt, e.msgid): e for e in old}
    shared = {e.msgid: e for e in old if e.msgctxt is None}
    entries, added, used = [], [], set()
    for want in needed:
        if want.msgid in shared:
            key = (None, want.msgid)
            if key not in used:
                used.add(key)
                entries.append(shared[want.msgid])
            continue
        key = (want.msgctxt, want.msgid)
        if key in used:
            continue
        used.add(key)
        have = by_key.get(key)
        entry = Entry(want.msgid, have.msgstr if have else "", want.msgctxt,
                      have.comments if have else want.comments)
        entries.append(entry)
        if have is None:
            added.append(entry)
    dropped = tuple(e for e in old if (e.msgctxt, e.msgid) not in used)
    if keep_unused:
        entries, dropped = entries + list(dropped), ()
    return Merged(tuple(entries), tuple(added), dropped)
