"""Translations of the interface and of claims (``--lang zh`` or ``TMATH_LANG=zh``).

English is written in the code and is the message id; other languages live in standard GNU
gettext catalogs (see :mod:`tmath.i18n.catalogs`):

* the interface and the texts the engine writes (headers, rule names, "matches the
  statement"): ``tmath/locale/<lang>/LC_MESSAGES/tmath.po``;
* a claims folder's texts (titles, summaries, premises, step labels, test labels):
  ``<folder>/locale/<lang>/LC_MESSAGES/<module>.po``, with the claim id as ``msgctxt``.

``python -m tmath.i18n extract`` writes the templates a translator fills in; adding a language
needs no change to any claim. Claims written before catalogs existed may still pass
``title_zh=``/``summary_zh=``/``glossary_zh=``; those texts are used when no catalog has one.
"""

from __future__ import annotations

import os
import re
from gettext import NullTranslations
from pathlib import Path
from typing import TYPE_CHECKING

from tmath.i18n import catalogs

if TYPE_CHECKING:
    from tmath.engine.info import ClaimInfo

PACKAGE_DIR = Path(__file__).resolve().parents[1]
LANGUAGES = tuple(["en"] + [lang for lang in catalogs.languages(PACKAGE_DIR) if lang != "en"])

# Texts the engine composes from parts: each part is translated, then put into the template.
# (English template, pattern that recognises it). The templates are msgids of the interface.
TEMPLATES = (
    ("premise: {rest}", re.compile(r"premise: (?P<rest>.+)", re.S)),
    ("by claim {rest}", re.compile(r"by claim (?P<rest>.+)", re.S)),
    ("limit {rest}", re.compile(r"limit (?P<rest>.+)", re.S)),
    ("part {number} of the value × 1.05", re.compile(r"part (?P<number>\d+) of the value × 1\.05")),
    ("{percent}% of the stated value", re.compile(r"(?P<percent>.+)% of the stated value")),
    ("SymPy doit + {method}", re.compile(r"SymPy doit \+ (?P<method>\w+)")),
    ("SymPy {method}", re.compile(r"SymPy (?P<method>\w+)")),
)
VERBATIM_PARTS = {"number", "percent"}  # numbers are not looked up
METHOD_CONTEXT = "SymPy method"


def language(explicit: str | None = None) -> str:
    """The language asked for: ``--lang``, else ``TMATH_LANG``, else English."""
    lang = (explicit or os.environ.get("TMATH_LANG") or "en").lower().split("_")[0]
    return lang if lang in LANGUAGES else "en"


class Translator:
    """Translate interface words and a claim's own texts into the chosen language."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self._interface: NullTranslations | None = None
        self._folders: dict[Path, NullTranslations] = {}

    # -- catalogs ------------------------------------------------------------------------------
    @property
    def interface(self) -> NullTranslations:
        if self._interface is None:
            self._interface = catalogs.load(PACKAGE_DIR, self.lang) if self.lang != "en" \
                else NullTranslations()
        return self._interface

    def _claims_catalog(self, info: ClaimInfo) -> NullTranslations:
        folder = Path(info.path).parent
        if folder not in self._folders:
            self._folders[folder] = catalogs.load(folder, self.lang)
        return self._folders[folder]

    def _claim_text(self, text: str, info: ClaimInfo | None) -> str | None:
        """The claim catalog's translation (with the claim's context, then without), or the
        legacy in-code glossary's, or None."""
        if info is None or self.lang == "en" or not text:
            return None
        catalog = self._claims_catalog(info)
        for found in (catalog.pgettext(info.id, text), catalog.gettext(text)):
            if found != text:
                return found
        if self.lang == "zh":
            legacy = dict(info.glossary_zh)
            if text in legacy:
                return legacy[text]
        return None

    # -- what renderers call -------------------------------------------------------------------
    def ui(self, text: str) -> str:
        # gettext("") is the catalog's header, never a translation
        return self.interface.gettext(text) if self.lang != "en" and text else text

    def section_title(self, title: str, folder: Path) -> str:
        """A section's title from a claims folder's ``sections.json`` (msgctxt "section")."""
        if self.lang == "en" or not title:
            return title
        if folder not in self._folders:
            self._folders[folder] = catalogs.load(folder, self.lang)
        found = self._folders[folder].pgettext("section", title)
        return found if found != title else self.interface.pgettext("section", title)

    def title(self, info: ClaimInfo) -> str:
        found = self._claim_text(info.title, info)
        if found is None and self.lang == "zh" and info.title_zh:
            return info.title_zh
        return found or info.title

    def summary(self, info: ClaimInfo) -> str:
        if not info.summary:
            return ""
        found = self._claim_text(info.summary, info)
        if found is None and self.lang == "zh" and info.summary_zh:
            return info.summary_zh
        return found or info.summary

    def text(self, text: str, info: ClaimInfo | None = None) -> str:
        """A claim's text or an engine justification, translated where a translation exists.

        Justifications look like "why [SymPy method]"; each part is looked up on its own:
        first in the claim's catalog, then in the interface's. Unknown text stays English.
        """
        if self.lang == "en" or not text:
            return text
        match = re.fullmatch(r"(.*?)(?: \[(SymPy[^\]]*)\])?", text, flags=re.S)
        head, tail = match.group(1), match.group(2)
        head = self._phrase(head, info)
        return f"{head} [{self._phrase(tail, info)}]" if tail else head

    def _phrase(self, text: str, info: ClaimInfo | None) -> str:
        if not text:
            return text
        found = self._claim_text(text, info)
        if found is not None:
            return found
        translated = self.interface.gettext(text)
        if translated != text:
            return translated
        for template, pattern in TEMPLATES:
            match = pattern.fullmatch(text)
            if match:
                parts = {name: value if name in VERBATIM_PARTS else self._part(name, value, info)
                         for name, value in match.groupdict().items()}
                return self.interface.gettext(template).format(**parts)
        return text

    def _part(self, name: str, value: str, info: ClaimInfo | None) -> str:
        if name == "method":
            return self.interface.pgettext(METHOD_CONTEXT, value)
        return self._claim_text(value, info) or self.interface.gettext(value)
