"""Message catalogs: GNU gettext ``.po`` files read and written, compiled to ``.mo``, loaded
with the standard library's :mod:`gettext`.

Catalogs live under ``locale/<lang>/LC_MESSAGES/`` next to what they translate: the
interface's in the tmath package (domain ``tmath``), a claims folder's in the folder itself
(one catalog per claims module, named after it). A claim's own texts carry the claim id as
their context (``msgctxt``); texts shared by several claims of a module may have none.

A ``.mo`` file is used when it is at least as new as its ``.po``; otherwise the ``.po`` is
compiled in memory, so a user's folder may ship either. No third-party package is needed.
"""

from __future__ import annotations

import ast
import gettext
import io
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

CONTEXT_SEPARATOR = "\x04"
HEADER = ("Content-Type: text/plain; charset=UTF-8\n"
          "Content-Transfer-Encoding: 8bit\n")


@dataclass(frozen=True)
class Entry:
    """One message: its context (or None), English text and translation ("" = untranslated)."""

    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    comments: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return self.msgid if self.msgctxt is None else f"{self.msgctxt}{CONTEXT_SEPARATOR}{self.msgid}"


class CatalogSyntaxError(ValueError):
    """A ``.po`` file that does not follow the gettext format (line number in the message)."""


def read_po(text: str, source: str = "<po>") -> list[Entry]:
    """Entries of a ``.po`` file, header excluded (plural forms are not used by tmath)."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    comments: list[str] = []
    current: str | None = None

    def flush() -> None:
        nonlocal fields, comments, current
        if "msgid" in fields and fields["msgid"]:
            entries.append(Entry(fields["msgid"], fields.get("msgstr", ""), fields.get("msgctxt"),
                                 tuple(comments)))
        fields, comments, current = {}, [], None

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("#~"):
            continue  # obsolete entries are kept by translators' tools, not used
        elif line.startswith("#"):
            if current is not None:
                flush()
            comments.append(line)
        elif line.startswith('"'):
            if current is None:
                raise CatalogSyntaxError(f"{source}:{number}: a string outside a message")
            fields[current] += _unquote(line, source, number)
        else:
            keyword, _, rest = line.partition(" ")
            if keyword not in ("msgctxt", "msgid", "msgstr"):
                raise CatalogSyntaxError(f"{source}:{number}: unknown keyword {keyword!r}")
            if keyword in fields or (keyword == "msgctxt" and "msgid" in fields):
                flush()
            current = keyword
            fields[keyword] = _unquote(rest.strip(), source, number)
    flush()
    return entries


def _unquote(token: str, source: str, number: int) -> str:
    if not (len(token) >= 2 and token.startswith('"') and token.endswith('"')):
        raise CatalogSyntaxError(f"{source}:{number}: expected a quoted string")
    try:
        return ast.literal_eval(token)
    except (ValueError, SyntaxError):
        raise CatalogSyntaxError(f"{source}:{number}: bad string escape") from None


def _quote(text: str) -> str:
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
               .replace("\r", "\\r"))
    lines = escaped.split("\n")
    if len(lines) == 1:
        return f'"{escaped}"'
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return '""\n' + "\n".join(f'"{p}"' for p in parts)


def write_po(entries: Iterable[Entry], language: str, project: str) -> str:
    """A ``.po`` file for ``entries`` (in the given order)."""
    out = [f"# {project} — {language} translations.", "msgid \"\"",
           "msgstr " + _quote(f"Project-Id-Version: {project}\nLanguage: {language}\n" + HEADER), ""]
    for entry in entries:
        out.extend(entry.comments)
        if entry.msgctxt is not None:
            out.append(f"msgctxt {_quote(entry.msgctxt)}")
        out.append(f"msgid {_quote(entry.msgid)}")
        out.append(f"msgstr {_quote(entry.msgstr)}")
        out.append("")
    return "\n".join(out)


def compile_mo(entries: Iterable[Entry]) -> bytes:
    """The GNU ``.mo`` bytes of the translated entries (the format :mod:`gettext` reads)."""
    messages = {"": HEADER}
    messages.update({e.key: e.msgstr for e in entries if e.msgstr})
    keys = sorted(messages)
    ids = [k.encode("utf-8") for k in keys]
    strs = [messages[k].encode("utf-8") for k in keys]
    count = len(keys)
    header_size = 7 * 4
    ids_table, strs_table = header_size, header_size + count * 8
    offset = strs_table + count * 8
    id_entries, str_entries, blob = [], [], b""
    for data in ids:
        id_entries.append((len(data), offset + len(blob)))
        blob += data + b"\0"
    for data in strs:
        str_entries.append((len(data), offset + len(blob)))
        blob += data + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, count, ids_table, strs_table, 0, 0)
    out += b"".join(struct.pack("<2I", *e) for e in id_entries)
    out += b"".join(struct.pack("<2I", *e) for e in str_entries)
    return out + blob


def catalog_files(root: Path, language: str) -> list[Path]:
    """The ``.po``/``.mo`` catalogs of ``root/locale/<language>/LC_MESSAGES``, one per domain
    (the ``.mo`` when it is at least as new as its ``.po``)."""
    folder = root / "locale" / language / "LC_MESSAGES"
    if not folder.is_dir():
        return []
    chosen = []
    for po in sorted(folder.glob("*.po")):
        mo = po.with_suffix(".mo")
        fresh = mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime
        chosen.append(mo if fresh else po)
    chosen += [mo for mo in sorted(folder.glob("*.mo")) if not mo.with_suffix(".po").exists()]
    return chosen


def load(root: Path, language: str) -> gettext.NullTranslations:
    """All catalogs of ``root`` for ``language``, chained (the first that knows a text wins).
    A catalog that cannot be read is skipped: an untranslated text stays English."""
    chained: gettext.NullTranslations = gettext.NullTranslations()
    for path in reversed(catalog_files(root, language)):
        try:
            data = path.read_bytes() if path.suffix == ".mo" else \
                compile_mo(read_po(path.read_text(encoding="utf-8"), str(path)))
            translations = gettext.GNUTranslations(io.BytesIO(data))
        except (OSError, ValueError, UnicodeDecodeError, struct.error):
            continue
        translations.add_fallback(chained)
        chained = translations
    return chained


def languages(root: Path) -> list[str]:
    """Languages with a catalog under ``root/locale``."""
    folder = root / "locale"
    return sorted(p.name for p in folder.iterdir() if (p / "LC_MESSAGES").is_dir()) \
        if folder.is_dir() else []
