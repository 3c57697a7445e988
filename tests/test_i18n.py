"""Translations live in gettext catalogs: complete for the built-in claims, in step with their
compiled form, loadable from a user's folder, and giving the Chinese tmath always gave."""

from __future__ import annotations

import gettext
import io
import re
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.defaults import DEFAULT_SEED
from tmath.engine.registry import builtin_claims_dir, load
from tmath.engine.runner import verify_one
from tmath.i18n import PACKAGE_DIR, Translator
from tmath.i18n.catalogs import Entry, compile_mo, read_po, write_po
from tmath.i18n.extract import claim_texts, merge

from conftest import die_claim

runner = CliRunner()
CHINESE = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


@pytest.fixture(scope="module")
def builtin_results():
    return [verify_one(spec, DEFAULT_SEED) for spec in load()]


def test_every_text_of_the_builtin_claims_has_a_chinese_entry(builtin_results):
    """Titles, summaries, statements, premises, foils, figure labels and every step label a
    proof writes have a zh translation in a catalog (test labels follow with the rewrite of
    the randomized checks; see README)."""
    tr = Translator("zh")
    by_module = claim_texts(builtin_results, tr)
    tests = {(r.info.id, t.label) for r in builtin_results for t in r.empirical.tests}
    infos = {r.info.id: r.info for r in builtin_results}
    missing = [f"{stem}.po [{e.msgctxt}] {e.msgid}" for stem, entries in by_module.items()
               for e in entries if (e.msgctxt, e.msgid) not in tests
               and tr.text(e.msgid, infos[e.msgctxt]) == e.msgid]
    assert not missing, "add to claims/locale/zh/LC_MESSAGES/:\n" + "\n".join(missing)


def test_titles_and_summaries_are_translated(builtin_results):
    tr = Translator("zh")
    for result in builtin_results:
        assert CHINESE.search(tr.title(result.info)), result.info.id
        assert CHINESE.search(tr.summary(result.info)), result.info.id


@pytest.mark.parametrize("claim_id, title, statement", [
    ("dot-product-variance", "点积 qᵀk 的均值为 0、方差为 d_k", "E[qᵀk] = 0，且 Var(qᵀk) = d_k"),
    ("softmax-temperature", "温度 T → 0 时 softmax 变成 argmax，T → ∞ 时变成均匀分布",
     "若 z 的最大值唯一，则 T → 0⁺ 时 softmax(z/T) → one-hot(argmax z)，T → ∞ 时趋于均匀分布 1/n"),
    ("product-term-moments", "每一项 q_i·k_i 的均值为 0、方差为 1", "E[q_i k_i] = 0，且 Var(q_i k_i) = 1"),
])
def test_the_same_chinese_as_before_catalogs(claim_id, title, statement):
    """These texts were written inline in the claims before the catalogs; they must read the same."""
    info = load().get(claim_id).info
    tr = Translator("zh")
    assert tr.title(info) == title
    assert tr.text(info.statement, info) == statement


def test_claim_modules_hold_no_translations():
    for path in builtin_claims_dir().glob("*.py"):
        source = path.read_text(encoding="utf-8")
        for keyword in ("title_zh", "summary_zh", "glossary_zh"):
            assert keyword not in source, f"{path.name} still has {keyword}: move it to a catalog"
        found = CHINESE.search(source)
        assert not found, (f"{path.name} has Chinese text ({found.group()!r}): a translation "
                           f"goes to a catalog, a term's rendering to locale/zh/glossary.json, "
                           f"and what the notes print to notes.json")


def test_compiled_catalogs_match_their_sources():
    roots = [PACKAGE_DIR, builtin_claims_dir()]
    pos = [po for root in roots for po in (root / "locale").glob("*/LC_MESSAGES/*.po")]
    assert len(pos) >= 16
    for po in pos:
        mo = po.with_suffix(".mo")
        assert mo.is_file(), f"run: python -m tmath.i18n compile ({mo} is missing)"
        fresh = compile_mo(read_po(po.read_text(encoding="utf-8"), str(po)))
        assert mo.read_bytes() == fresh, f"{mo} is stale: run python -m tmath.i18n compile"


def test_po_round_trip_through_gettext():
    entries = [Entry('say "hi"\tthere', "说\u201c你好\u201d", "ctx"),
               Entry("two\nlines", "两\n行"), Entry("untranslated")]
    text = write_po(entries, "zh", "test")
    assert read_po(text) == entries
    catalog = gettext.GNUTranslations(io.BytesIO(compile_mo(entries)))
    assert catalog.pgettext("ctx", 'say "hi"\tthere') == "说\u201c你好\u201d"
    assert catalog.gettext("two\nlines") == "两\n行"
    assert catalog.gettext("untranslated") == "untranslated"
    assert catalog.gettext("") != ""  # the header, which the Translator never returns


def test_merge_keeps_translations_and_reports_new_and_unused():
    old = write_po([Entry("kept", "保留", "a"), Entry("shared", "共享"), Entry("gone", "走了", "a")],
                   "zh", "t")
    merged = merge([Entry("kept", msgctxt="a"), Entry("shared", msgctxt="b"),
                    Entry("new", msgctxt="a")], old)
    assert [(e.msgid, e.msgstr) for e in merged.entries] == [("kept", "保留"), ("shared", "共享"),
                                                              ("new", "")]
    assert [e.msgid for e in merged.added] == ["new"]
    assert [e.msgid for e in merged.dropped] == ["gone"]


def _user_folder_with_catalog(claims_dir, language: str, title: str) -> Path:
    folder = claims_dir({"dice.py": die_claim()})
    po = folder / "locale" / language / "LC_MESSAGES" / "dice.po"
    po.parent.mkdir(parents=True)
    po.write_text(textwrap.dedent(f'''
        msgctxt "die-mean"
        msgid "A fair die has mean 7/2"
        msgstr "{title}"
        '''), encoding="utf-8")
    return folder


def test_a_users_folder_ships_its_own_catalog(claims_dir):
    folder = _user_folder_with_catalog(claims_dir, "zh", "公平骰子的均值是 7/2")
    result = runner.invoke(app, ["list", "--claims", str(folder), "--lang", "zh", "-s", "1.1"])
    assert result.exit_code == 0, result.output
    assert "公平骰子的均值是 7/2" in result.output


def test_a_third_language_needs_no_change_to_a_claim(claims_dir):
    folder = _user_folder_with_catalog(claims_dir, "fr", "Un dé équilibré a pour moyenne 7/2")
    spec = next(s for s in load([folder]) if s.id == "die-mean")
    assert Translator("fr").title(spec.info) == "Un dé équilibré a pour moyenne 7/2"
    assert Translator("zh").title(spec.info) == "A fair die has mean 7/2"  # no zh catalog


def test_extract_writes_a_template_and_check_finds_the_gaps(claims_dir):
    from tmath.i18n.__main__ import main

    folder = claims_dir({"dice.py": die_claim()})
    assert main(["extract", "--lang", "fr", "--claims", str(folder)]) == 0
    po = folder / "locale" / "fr" / "LC_MESSAGES" / "dice.po"
    entries = read_po(po.read_text(encoding="utf-8"))
    assert {"A fair die has mean 7/2", "X is uniform on 1..6"} <= {e.msgid for e in entries}
    assert all(e.msgctxt == "die-mean" and not e.msgstr for e in entries)
    assert main(["check", "--lang", "fr", "--claims", str(folder)]) == 1


def test_section_titles_have_chinese_entries():
    """The report's table of contents reads sections.json; extract puts its titles in a
    ``sections`` catalog (context "section") and every one is translated."""
    import json

    folder = builtin_claims_dir()
    titles = json.loads((folder / "sections.json").read_text(encoding="utf-8"))["sections"]
    tr = Translator("zh")
    for title in titles.values():
        assert CHINESE.search(tr.section_title(title, folder)), title
