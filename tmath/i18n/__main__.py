"""Maintain translation catalogs.

    python -m tmath.i18n extract [--lang zh] [--claims DIR]   update the .po catalogs
    python -m tmath.i18n compile [--claims DIR]               .po -> .mo
    python -m tmath.i18n check [--lang zh]                     exit 1 if a text is untranslated
    (extract and check take --only MODULE to work on one claims module)

``extract`` writes the interface catalog (tmath/locale/<lang>/LC_MESSAGES/tmath.po, only
without ``--claims``) and one catalog per claims module (<folder>/locale/<lang>/LC_MESSAGES/<module>.po), keeping every
existing translation; a translator fills in the empty ``msgstr`` lines, then runs
``compile``. Without ``--claims`` the built-in claims are used. A new language is a new
``--lang``: no claim changes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tmath.i18n import PACKAGE_DIR, Translator
from tmath.i18n.catalogs import compile_mo, read_po, write_po
from tmath.i18n.extract import claim_texts, interface_texts, merge


def _folders(claims: list[str]) -> list[Path]:
    if claims:
        return [Path(c) for c in claims]
    from tmath.engine.registry import builtin_claims_dir

    return [builtin_claims_dir()]


def _catalog_path(root: Path, lang: str, domain: str) -> Path:
    return root / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


def _results(folder: Path, only: list[str] = ()):
    from tmath.defaults import DEFAULT_SEED
    from tmath.engine.registry import load
    from tmath.engine.runner import verify_one

    registry = load([folder], builtin=False)
    for error in registry.errors:
        print(f"load error: {error}", file=sys.stderr)
    return [verify_one(spec, DEFAULT_SEED) for spec in registry
            if not only or Path(spec.path).stem in only]


def _plan(lang: str, claims: list[str], only: list[str] = ()) -> list[tuple[Path, object]]:
    """(catalog path, merged catalog) for the interface and every claims module (or only the
    modules named in ``only``, by file stem)."""
    plans = []
    if not claims and not only:  # the interface is tmath's own: kept with the built-in claims
        path = _catalog_path(PACKAGE_DIR, lang, "tmath")
        plans.append((path, merge(interface_texts(), _read(path), keep_unused=True)))
    tr = Translator(lang)
    for folder in _folders(claims):
        for stem, needed in sorted(claim_texts(_results(folder, only), tr).items()):
            if only and stem not in only:
                continue
            path = _catalog_path(folder, lang, stem)
            plans.append((path, merge(needed, _read(path))))
        titles = _section_titles(folder)
        if titles and not only:
            path = _catalog_path(folder, lang, "sections")
            plans.append((path, merge(titles, _read(path))))
    return plans


def _section_titles(folder: Path) -> list:
    """The titles of the folder's ``sections.json``, as entries with the context "section"."""
    import json

    from tmath.i18n.catalogs import Entry

    try:
        data = json.loads((folder / "sections.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [Entry(str(title), msgctxt="section") for title in (data.get("sections") or {}).values()]


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def extract(lang: str, claims: list[str], only: list[str] = ()) -> int:
    for path, merged in _plan(lang, claims, only):
        path.parent.mkdir(parents=True, exist_ok=True)
        project = "tmath interface" if path.stem == "tmath" else f"claims: {path.stem}"
        path.write_text(write_po(merged.entries, lang, project), encoding="utf-8")
        print(f"{path}: {len(merged.entries)} texts, {len(merged.added)} new, "
              f"{len(merged.untranslated)} untranslated, {len(merged.dropped)} no longer used")
    return 0


def check(lang: str, claims: list[str], only: list[str] = ()) -> int:
    missing = [(path, e) for path, merged in _plan(lang, claims, only)
               for e in merged.untranslated]
    for path, entry in missing:
        context = f" [{entry.msgctxt}]" if entry.msgctxt else ""
        print(f"{path}: untranslated{context}: {entry.msgid}")
    return 1 if missing else 0


def compile_catalogs(claims: list[str]) -> int:
    roots = [PACKAGE_DIR, *_folders(claims)]
    for root in roots:
        for po in sorted((root / "locale").glob("*/LC_MESSAGES/*.po")):
            po.with_suffix(".mo").write_bytes(compile_mo(read_po(po.read_text("utf-8"), str(po))))
            print(f"compiled {po.with_suffix('.mo')}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tmath.i18n", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("extract", "compile", "check"))
    parser.add_argument("--lang", default="zh")
    parser.add_argument("--claims", action="append", default=[], metavar="DIR")
    parser.add_argument("--only", action="append", default=[], metavar="MODULE",
                        help="only this claims module (file stem, e.g. s01_scaled_dot_product)")
    args = parser.parse_args(argv)
    if args.command == "extract":
        return extract(args.lang, args.claims, args.only)
    if args.command == "check":
        return check(args.lang, args.claims, args.only)
    return compile_catalogs(args.claims)


if __name__ == "__main__":
    sys.exit(main())
