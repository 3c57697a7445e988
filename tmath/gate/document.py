"""Reading a document for the gate: its lines, sections, math and claim anchors.

A document is UTF-8 text, read by its suffix: Markdown (``.md``, ``.markdown``), LaTeX
(``.tex``) and Jupyter notebooks (``.ipynb``) by the readers of :mod:`tmath.gate.readers`,
anything else as plain text, below. Every reader's regions become the same :class:`Document`
(:func:`assemble`). In plain text, sections come from three kinds of headings:

* Chinese-numeral headings at the start of a line (``三、…``) open top-level section 3;
* decimal sub-headings (``3.2 …``) open section 3.2 inside section 3;
* Markdown headings (``## …``): numbered by their own text ("2.", "2.1", "§2", "二、") when the
  document numbers its headings, otherwise by their order and level.

Math is ``$…$`` (inline, on one line) and ``$$…$$`` (display, possibly over several lines, and
possibly glued: ``$$a$$$$b$$`` is two formulas). ``<!-- tmath: claim-id -->`` pins the text
that follows it, up to the next pin or heading, to one or more claims.

The document is only read, never executed or evaluated. Every scan is linear in the size of
the text (no regular expression here can backtrack catastrophically), lines longer than
:data:`MAX_LINE` characters are cut, at most :data:`MAX_FORMULAS` display formulas are judged
(a document with more fails the gate and says so), and files larger than :data:`MAX_BYTES` are
refused. Text in UTF-16 or UTF-32 (with or without a byte-order mark) is recognised and the
user is told how to convert it.
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from tmath.errors import UsageError

if TYPE_CHECKING:
    from tmath.gate.readers.regions import Regions

MAX_BYTES = 5 * 1024 * 1024
"""Largest document the gate reads (5 MB)."""
MAX_LINE = 10_000
"""Characters of a line the gate looks at; the rest of a longer line is ignored."""
MAX_FORMULA = 20_000
"""Longest display formula; an unclosed ``$$`` further than this is left as text."""
MAX_FORMULAS = 1_000
"""Display formulas judged per document; a document with more fails the gate and says so."""

CHINESE_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
                  "七": 7, "八": 8, "九": 9}
CHINESE_NUMERALS = set(CHINESE_DIGITS) | {"十", "百"}
_DECIMAL_HEADING = re.compile(r"(\d{1,3})\.(\d{1,3})[ \t\u3000]+(\S.*)")
_NUMBERED_TITLE = re.compile(r"(?:§[ \t]*)?(\d{1,3}(?:\.\d{1,3}){0,2})\.?(?:[ \t\u3000]+|$)")
_CLAIM_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def chinese_number(text: str) -> int | None:
    """一 → 1, 十 → 10, 十五 → 15, 二十一 → 21, 一百 → 100; None if ``text`` is not a numeral."""
    if not text or len(text) > 6 or any(c not in CHINESE_NUMERALS for c in text):
        return None
    total, current = 0, 0
    for char in text:
        if char in CHINESE_DIGITS:
            current = CHINESE_DIGITS[char]
        else:
            unit = 10 if char == "十" else 100
            total += (current or 1) * unit
            current = 0
    return total + current


@dataclass(frozen=True)
class Section:
    """A heading and the text it governs.

    ``number`` is "3" or "3.2" (None for an unnumbered heading such as a title); ``start`` and
    ``end`` are character offsets of the section's text (heading included) in the document.
    """

    number: str | None
    title: str
    line: int
    start: int
    end: int

    @property
    def top(self) -> str | None:
        return self.number.split(".")[0] if self.number else None

    @property
    def depth(self) -> int:
        return self.number.count(".") + 1 if self.number else 0


@dataclass(frozen=True)
class Math:
    """A formula as written between its delimiters, where it starts and ends.

    ``start``/``end`` are the offsets of the opening and after the closing delimiter;
    ``inner`` is the offset of ``latex``'s first character in the document's text.
    """

    latex: str
    line: int
    end_line: int
    start: int
    display: bool
    end: int = -1
    inner: int = -1


@dataclass(frozen=True)
class Pin:
    """``<!-- tmath: ids -->``: the claims the following text (start..end) belongs to."""

    claims: tuple[str, ...]
    line: int
    start: int
    end: int


@dataclass
class Document:
    """A document read for the gate. Offsets index :attr:`text` (lines joined by "\\n")."""

    path: str
    text: str
    line_starts: list[int]
    sections: tuple[Section, ...] = ()
    formulas: tuple[Math, ...] = ()
    pins: tuple[Pin, ...] = ()
    truncated_lines: tuple[int, ...] = ()
    unclosed_math: tuple[int, ...] = ()
    masked: str = ""
    """The text with headings' numbers and anchor comments blanked out: where figures are read."""
    raw: str = ""
    """The decoded file as it is (line endings kept): what ``--fix`` edits."""
    bom: bool = False
    skipped_formulas: int = 0
    """Display formulas beyond :data:`MAX_FORMULAS` (not judged; the gate fails)."""
    kind: str = "text"
    """How it was read: ``text``, ``markdown``, ``latex`` or ``notebook``."""
    cells: tuple[tuple[int, int], ...] = ()
    """A notebook's Markdown cells: (first line in :attr:`text`, cell number) of each."""
    file_lines: tuple[int, ...] = ()
    """A notebook's line in the ``.ipynb`` file of each line of :attr:`text` (0: not known)."""
    notes: tuple[str, ...] = ()
    """What the reader could not read, in one line each (e.g. an ``\\input`` not followed)."""
    _display: tuple[array, array] = field(default_factory=lambda: (array("q"), array("q")),
                                          repr=False)
    _raw_starts: list[int] | None = field(default=None, repr=False)
    _inline: tuple[Math, ...] | None = field(default=None, repr=False)

    @property
    def lines(self) -> int:
        return len(self.line_starts)

    @property
    def inline(self) -> tuple[Math, ...]:
        """Inline formulas: as the reader found them (Markdown, LaTeX, notebooks), or ``$…$``
        found again on demand in plain text."""
        if self._inline is not None:
            return self._inline
        lines = self.text.split("\n")
        scan = _math(self.text, self.line_starts, _fenced_lines(lines), keep_inline=True)
        starts, ends = scan.inline_starts, scan.inline_ends
        return tuple(Math(self.text[a + 1:b - 1], self.line_of(a), self.line_of(a), a, False,
                          b, a + 1) for a, b in zip(starts, ends))

    def in_display(self, offset: int) -> bool:
        """Whether ``offset`` lies inside a display formula (its delimiters included)."""
        starts, ends = self._display
        k = bisect.bisect_right(starts, offset) - 1
        return k >= 0 and offset < ends[k]

    def line_of(self, offset: int) -> int:
        """1-based line number of a character offset."""
        return bisect.bisect_right(self.line_starts, offset)

    def column_of(self, offset: int) -> int:
        """1-based column of a character offset."""
        return offset - self.line_starts[self.line_of(offset) - 1] + 1

    def cell_of(self, line: int) -> tuple[int, int] | None:
        """(cell number, line in the cell) of a line of a notebook's text; None otherwise."""
        from tmath.gate.readers.regions import cell_at

        return cell_at(self.cells, line)

    def where(self, line: int) -> str:
        """Where a line is, as a reader of the file finds it: "line 12", "cell 4, line 2"."""
        cell = self.cell_of(line)
        return f"cell {cell[0]}, line {cell[1]}" if cell else f"line {line}"

    def line_text(self, line: int) -> str:
        start = self.line_starts[line - 1]
        end = self.line_starts[line] - 1 if line < len(self.line_starts) else len(self.text)
        return self.text[start:end]

    def raw_offset(self, offset: int) -> int:
        """Where a :attr:`text` offset is in :attr:`raw` (the line endings as in the file)."""
        if self._raw_starts is None:
            starts, at = [0], 0
            for match in _LINE_END.finditer(self.raw):
                at = match.end()
                starts.append(at)
            self._raw_starts = starts
        line = self.line_of(offset)
        return self._raw_starts[line - 1] + offset - self.line_starts[line - 1]

    def section(self, number: str) -> Section | None:
        """The first section with this number."""
        for section in self.sections:
            if section.number == number:
                return section
        return None

    def section_at(self, offset: int) -> Section | None:
        """The innermost numbered section containing ``offset``."""
        best = None
        for section in self.sections:
            if section.number and section.start <= offset < section.end:
                if best is None or section.depth >= best.depth:
                    best = section
        return best

    def top_sections(self) -> list[Section]:
        return [s for s in self.sections if s.number and s.depth == 1]


_LINE_END = re.compile(r"\r\n|\r|\n")
_BOMS = ((b"\x00\x00\xfe\xff", "UTF-32BE"), (b"\xff\xfe\x00\x00", "UTF-32LE"),
         (b"\xfe\xff", "UTF-16BE"), (b"\xff\xfe", "UTF-16LE"))


def read_document(path: Path | str, max_bytes: int = MAX_BYTES) -> Document:
    """Read and parse a document file; a path that is not a readable UTF-8 text file is a
    :class:`UsageError` that says what to do."""
    path = Path(path)
    if not path.exists():
        raise UsageError(f"document not found: {path}")
    if path.is_dir():
        raise UsageError(f"{path} is a folder; pass the document file itself (e.g. {path}/notes.md)")
    if not path.is_file():
        raise UsageError(f"{path} is not a regular file")
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise UsageError(_too_large(path, size, max_bytes))
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise UsageError(_too_large(path, len(data), max_bytes))
    text, bom = decode(data, path)
    document = parse_as(path.suffix.lower(), text, str(path))
    document.raw, document.bom = text, bom
    return document


MARKDOWN_SUFFIXES = (".md", ".markdown")
LATEX_SUFFIXES = (".tex",)
NOTEBOOK_SUFFIXES = (".ipynb",)
MAX_PARSED = 500_000
"""Characters of Markdown (or a notebook's Markdown cells) read by its parser; a longer text is
read as plain text, and a note says so (markdown-it reads about 0.5 MB of prose a second and
0.25 MB of hostile input, such as a sea of ``$a$``: this keeps the gate's bound on a 5 MB
document)."""
MAX_PARSED_LATEX = 150_000
"""Characters of a LaTeX source read by pylatexenc (about 150 KB a second on a quiet machine,
30 KB under load: a 50 KB paper takes 0.3 s to 1.7 s); a longer source is read as plain text,
and a note says so."""


def parse_as(suffix: str, text: str, path: str = "<text>") -> Document:
    """Read ``text`` as the format its file's ``suffix`` names (plain text if none)."""
    if suffix in MARKDOWN_SUFFIXES:
        from tmath.gate.readers.markdown import read_markdown

        if len(text) > MAX_PARSED:
            return _as_plain_text(text, path, "Markdown", MAX_PARSED)
        return parse_document(text, path, read_markdown, "markdown")
    if suffix in LATEX_SUFFIXES:
        from tmath.gate.readers.latex import UnreadableSource, read_latex

        if len(text) > MAX_PARSED_LATEX:
            return _as_plain_text(text, path, "LaTeX", MAX_PARSED_LATEX)
        try:
            return parse_document(text, path, read_latex, "latex")
        except UnreadableSource as exc:
            document = parse_document(text, path)
            document.notes = (f"could not be read as LaTeX ({exc}); it was read as plain text",)
            return document
    if suffix in NOTEBOOK_SUFFIXES:
        from tmath.gate.readers.markdown import read_markdown
        from tmath.gate.readers.notebook import markdown_cells

        cells = markdown_cells(text, path)
        if len(cells.text) > MAX_PARSED:
            document = _as_plain_text(cells.text, path, "Markdown cells", MAX_PARSED)
            document.kind = "notebook"
        else:
            document = parse_document(cells.text, path, read_markdown, "notebook")
        document.cells, document.file_lines = cells.starts, cells.file_lines
        return document
    return parse_document(text, path)


def _as_plain_text(text: str, path: str, what: str, limit: int) -> Document:
    document = parse_document(text, path)
    document.notes = (f"{what} longer than {limit:,} characters: read as plain text (code is "
                      "told apart only by its fences); check it in parts to have it parsed",)
    return document


def decode(data: bytes, path: Path) -> tuple[str, bool]:
    """UTF-8 text (a UTF-8 byte-order mark is dropped); anything else is a UsageError that
    names the encoding when it is recognisable and says how to convert it."""
    wide = _wide_encoding(data)
    if wide:
        raise UsageError(f"{path} is {wide} text; tmath check reads UTF-8: convert it first, "
                         f"e.g. iconv -f {wide.split()[0]} -t UTF-8 {path} > "
                         f"{path.stem}.utf8{path.suffix}")
    if b"\x00" in data:
        raise UsageError(f"{path} is not a text file (it contains NUL bytes); "
                         "tmath check reads UTF-8 plain text or Markdown")
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8-sig"), bom
    except UnicodeDecodeError as exc:
        raise UsageError(
            f"{path} is not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            f"convert it first, e.g. iconv -f GB18030 -t UTF-8 {path} > {path.stem}.utf8"
            f"{path.suffix}") from None


def _wide_encoding(data: bytes) -> str | None:
    """"UTF-16LE" etc. when the bytes start with its byte-order mark or look like it: most
    code units of mostly-ASCII text have a zero high byte."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return f"{name} (it starts with a byte-order mark)"
    sample = data[:4096]
    n = len(sample) - len(sample) % 4
    if n < 8 or b"\x00" not in sample:
        return None
    zero = [sample[r:n:4].count(0) / (n / 4) for r in range(4)]
    if zero[2] > 0.9 and zero[3] > 0.9 and zero[0] < 0.5:  # code points below U+10000
        return "UTF-32LE"
    if zero[0] > 0.9 and zero[1] > 0.9 and zero[3] < 0.5:
        return "UTF-32BE"
    even, odd = (zero[0] + zero[2]) / 2, (zero[1] + zero[3]) / 2
    if odd > 0.3 and even < 0.05:
        return "UTF-16LE"
    if even > 0.3 and odd < 0.05:
        return "UTF-16BE"
    return None


def _too_large(path: Path, size: int, limit: int) -> str:
    return (f"{path} is {size / 2**20:.1f} MB, larger than the {limit / 2**20:g} MB tmath check "
            "reads; check the document in parts")


def parse_document(text: str, path: str = "<text>",
                   reader: Callable[[str], Regions] | None = None, kind: str = "text") -> Document:
    """Split ``text`` into lines, sections, formulas and pins: as plain text, or by
    ``reader`` (one of :mod:`tmath.gate.readers`) when given."""
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    truncated = tuple(i + 1 for i, line in enumerate(raw_lines) if len(line) > MAX_LINE)
    lines = [line[:MAX_LINE] for line in raw_lines] if truncated else raw_lines
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    body = "\n".join(lines)
    if reader is not None:
        document = Document(path=path, text=body, line_starts=starts, truncated_lines=truncated,
                            raw=text, kind=kind)
        return assemble(document, lines, reader(body))
    fences = _fenced_lines(lines)
    headings, blank = _headings(lines, fences)
    document = Document(path=path, text=body, line_starts=starts, truncated_lines=truncated,
                        raw=text)
    document.sections = _sections(headings, starts, len(body))
    document.pins, comments = _pins(lines, starts, document.sections, len(body))
    scan = _math(body, starts, fences)
    document.formulas = tuple(scan.display[:MAX_FORMULAS])
    document.skipped_formulas = max(0, len(scan.display) - MAX_FORMULAS) + scan.skipped
    document.unclosed_math = tuple(scan.unclosed)
    document._display = (scan.display_starts, scan.display_ends)
    document.masked = _mask(body, [(starts[i] + a, starts[i] + b) for i, a, b in blank] + comments)
    return document


def assemble(document: Document, lines: list[str], regions: "Regions") -> Document:
    """Fill ``document`` (its text and lines set) from what a reader found in it."""
    starts, body = document.line_starts, document.text
    given = {h.line: h for h in regions.headings}
    headings, blank = _headings(lines, regions.skip_lines, given, regions.plain_headings)
    document.sections = _sections(headings, starts, len(body))
    found = [(p.claims, p.line, p.end) for p in sorted(regions.pins, key=lambda p: p.start)]
    document.pins = _pin_objects(found, document.sections, len(body))
    formulas = sorted(regions.formulas, key=lambda f: f.start)
    document.formulas = tuple(
        Math(f.latex, document.line_of(f.start), document.line_of(max(f.start, f.end - 1)),
             f.start, True, f.end, f.inner) for f in formulas[:MAX_FORMULAS])
    document.skipped_formulas = max(0, len(formulas) - MAX_FORMULAS) + regions.uncounted
    document.unclosed_math = tuple(sorted({document.line_of(at) for at in regions.unclosed}))
    document._display = (array("q", [f.start for f in formulas]),
                         array("q", [f.end for f in formulas]))
    spans = [(starts[i] + a, starts[i] + b) for i, a, b in blank] + regions.hidden \
        + [(p.start, p.end) for p in regions.pins]
    document.masked = _mask(body, spans)
    document.notes = tuple(regions.notes)
    document._inline = tuple(
        Math(f.latex, document.line_of(f.start), document.line_of(max(f.start, f.end - 1)),
             f.start, False, f.end, f.inner) for f in sorted(regions.inline, key=lambda f: f.start))
    return document


def _fenced_lines(lines: list[str]) -> set[int]:
    """Indices of lines inside Markdown code fences (``` or ~~~), fences included."""
    inside, fence, result = False, "", set()
    for i, line in enumerate(lines):
        stripped = line.lstrip(" ")
        marker = stripped[:3]
        if marker in ("```", "~~~"):
            if not inside:
                inside, fence = True, marker
                result.add(i)
                continue
            if marker == fence:
                inside = False
                result.add(i)
                continue
        if inside:
            result.add(i)
    return result


@dataclass
class _Heading:
    index: int          # line index
    rank: int           # 1 = top; Markdown: its level
    title: str
    number: str | None  # explicit number, if the heading states one
    markdown: bool
    numbered: bool = True  # False: a heading its format leaves unnumbered (\\section*)


def _headings(lines: list[str], fences: set[int], given: dict | None = None,
              plain: bool = True) -> tuple[list[_Heading], list[tuple[int, int, int]]]:
    """Find headings; also return (line index, start, end) of each heading number to blank.

    ``given`` holds the headings a reader found, by line (then no line is read as a Markdown
    heading by itself); ``plain`` also reads plain-text headings (``三、…``, ``3.2 …``)."""
    headings: list[_Heading] = []
    blank: list[tuple[int, int, int]] = []
    top = 0       # the current top-level number seen in plain-text headings
    minor = 0
    for i, line in enumerate(lines):
        if given is not None and i in given:
            heading = given[i]
            number, used = _title_number(heading.title)
            if number and "." not in number:
                top, minor = int(number), 0
            if used:
                blank.append((i, 0, min(len(line), heading.title_at + used)))
            if number is None and heading.numbered:
                number = heading.number
            headings.append(_Heading(i, heading.level, heading.title, number, True,
                                     heading.numbered))
            continue
        if i in fences or not line.strip() or not plain:
            continue
        md = _markdown_heading(line) if given is None else None
        if md is not None:
            level, title, title_at = md
            number, used = _title_number(title)
            if number and "." not in number:
                top, minor = int(number), 0
            headings.append(_Heading(i, level, title, number, True))
            blank.append((i, 0, title_at + used))
            continue
        if len(line) > 200:
            continue
        stripped = line.lstrip(" \t\u3000")
        lead = len(line) - len(stripped)
        cn = _chinese_prefix(stripped)
        if cn is not None:
            value, used = cn
            if value > top:
                top, minor = value, 0
                headings.append(_Heading(i, 1, stripped[used:].strip(), str(value), False))
                blank.append((i, lead, lead + used))
            continue
        match = _DECIMAL_HEADING.match(stripped)
        if match and top and int(match.group(1)) == top and int(match.group(2)) > minor \
                and len(stripped) <= 80:
            minor = int(match.group(2))
            headings.append(_Heading(i, 2, match.group(3).strip(), f"{top}.{minor}", False))
            blank.append((i, lead, lead + match.start(3)))
    return headings, blank


def _markdown_heading(line: str) -> tuple[int, str, int] | None:
    """(level, title, offset of the title) of an ATX heading ``## Title``, else None."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3 or not stripped.startswith("#"):
        return None
    level = len(stripped) - len(stripped.lstrip("#"))
    rest = stripped[level:]
    if level > 6 or (rest and rest[0] not in " \t"):
        return None
    title = rest.strip().rstrip("#").rstrip()
    title_at = len(line) - len(rest) + (len(rest) - len(rest.lstrip()))
    return level, title, title_at


def _chinese_prefix(text: str) -> tuple[int, int] | None:
    """(value, characters used incl. "、") for a heading like ``十五、…``."""
    end = 0
    while end < len(text) and end < 6 and text[end] in CHINESE_NUMERALS:
        end += 1
    if end == 0 or end >= len(text) or text[end] != "、":
        return None
    value = chinese_number(text[:end])
    return (value, end + 1) if value else None


def _title_number(title: str) -> tuple[str | None, int]:
    """The number a Markdown heading's title states, and how many characters it takes."""
    cn = _chinese_prefix(title)
    if cn is not None:
        return str(cn[0]), cn[1]
    match = _NUMBERED_TITLE.match(title)
    if match:
        return ".".join(str(int(p)) for p in match.group(1).split(".")), match.end()
    return None, 0


def _sections(headings: list[_Heading], starts: list[int], length: int) -> tuple[Section, ...]:
    numbers = _numbering(headings)
    sections = []
    for k, (heading, number) in enumerate(zip(headings, numbers)):
        end = length
        for later in headings[k + 1:]:
            if later.rank <= heading.rank:
                end = starts[later.index]
                break
        sections.append(Section(number, heading.title, heading.index + 1, starts[heading.index], end))
    return tuple(sections)


def _numbering(headings: list[_Heading]) -> list[str | None]:
    """Explicit numbers when the document numbers its headings; otherwise by order and level."""
    if any(h.number for h in headings) or not headings:
        numbers: list[str | None] = [h.number for h in headings]
        return numbers
    unnumbered = [h for h in headings if not h.numbered]
    if unnumbered:
        numbered = iter(_numbering([h for h in headings if h.numbered]))
        return [next(numbered) if h.numbered else None for h in headings]
    levels = sorted({h.rank for h in headings})
    first = headings[0]
    if len(levels) > 1 and sum(h.rank == levels[0] for h in headings) == 1 and first.rank == levels[0]:
        levels = levels[1:]  # a single top heading first is the document's title
    top_level = levels[0]
    sub_level = levels[1] if len(levels) > 1 else None
    numbers, top, sub = [], 0, 0
    for h in headings:
        if h.rank == top_level:
            top, sub = top + 1, 0
            numbers.append(str(top))
        elif h.rank == sub_level and top:
            sub += 1
            numbers.append(f"{top}.{sub}")
        else:
            numbers.append(None)
    return numbers


def _pins(lines: list[str], starts: list[int], sections: tuple[Section, ...],
          length: int) -> tuple[tuple[Pin, ...], list[tuple[int, int]]]:
    """Claim anchors and the spans of their comments (blanked before figures are read)."""
    found: list[tuple[tuple[str, ...], int, int]] = []
    comments: list[tuple[int, int]] = []
    for i, line in enumerate(lines):
        at = line.find("<!--")
        while at >= 0:
            close = line.find("-->", at + 4, at + 1004)
            if close < 0:
                break
            inner = line[at + 4:close].strip()
            if inner.startswith("tmath:"):
                ids = tuple(p for p in re.split(r"[\s,]+", inner[len("tmath:"):].strip()) if p)
                if ids:
                    found.append((ids, i, starts[i] + close + 3))
                    comments.append((starts[i] + at, starts[i] + close + 3))
            at = line.find("<!--", close + 3)
    return _pin_objects(found, sections, length), comments


def _pin_objects(found: list[tuple[tuple[str, ...], int, int]], sections: tuple[Section, ...],
                 length: int) -> tuple[Pin, ...]:
    """Pins from (claims, line index, end of the comment): each governs the text after its
    comment, up to the next pin or heading."""
    heading_starts = sorted(s.start for s in sections)
    pins = []
    for k, (ids, index, begin) in enumerate(found):
        end = found[k + 1][2] if k + 1 < len(found) else length
        h = bisect.bisect_right(heading_starts, begin)
        if h < len(heading_starts):
            end = min(end, heading_starts[h])
        pins.append(Pin(ids, index + 1, begin, end))
    return tuple(pins)


def valid_claim_id(text: str) -> bool:
    return bool(_CLAIM_ID.fullmatch(text))


@dataclass
class _MathScan:
    display: list[Math] = field(default_factory=list)
    display_starts: array = field(default_factory=lambda: array("q"))
    display_ends: array = field(default_factory=lambda: array("q"))
    inline_starts: array = field(default_factory=lambda: array("q"))
    inline_ends: array = field(default_factory=lambda: array("q"))
    unclosed: list[int] = field(default_factory=list)
    skipped: int = 0


_DOLLARS = re.compile(r"\$+")
_INLINE = re.compile(r"\$[^$\n]+\$")
_INLINE_RUN = re.compile(r"(?:\$[^$\n]+\$[^$\n]*)*")


def _math(body: str, starts: list[int], fences: set[int], keep_inline: bool = False) -> _MathScan:
    """Display and inline formulas, scanning left to right once.

    A run of four or more ``$`` is a row of empty display formulas (``$$$$``): skipped in one
    step, so a line of dollars costs as much as a line of letters. Empty formulas are not
    kept (there is nothing in them to check). Inline formulas are skipped over, and kept
    only when asked (``keep_inline``): the gate needs them only to pair the ``$``.
    """
    fence_spans = sorted(_fence_spans(fences, starts, len(body)))
    scan = _MathScan()
    i = 0

    def line(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    def in_fence(offset: int) -> bool:
        k = bisect.bisect_right(fence_spans, (offset, len(body) + 1)) - 1
        return k >= 0 and fence_spans[k][0] <= offset < fence_spans[k][1]

    while True:
        j = body.find("$", i)
        if j < 0:
            break
        if (j > 0 and body[j - 1] == "\\") or in_fence(j):
            i = j + 1
            continue
        run = _DOLLARS.match(body, j).end() - j
        if run >= 4:
            j += run - run % 4  # pairs of "$$$$": empty display formulas
            if run % 4 == 0:
                i = j
                continue
        if body.startswith("$$", j):
            k = body.find("$$", j + 2, j + 2 + MAX_FORMULA)
            if k < 0:
                scan.unclosed.append(line(j))
                i = j + 2
                continue
            latex = body[j + 2:k]
            stripped = latex.strip()
            if stripped and len(scan.display) >= MAX_FORMULAS:
                # too many to judge: the gate fails and says so; the rest is only counted
                scan.skipped += 1 + body.count("$$", k + 2) // 2
                break
            if stripped:
                inner = j + 2 + (len(latex) - len(latex.lstrip()))
                scan.display.append(Math(stripped, line(j), line(k), j, True, k + 2, inner))
            scan.display_starts.append(j)
            scan.display_ends.append(k + 2)
            i = k + 2
            continue
        run = _INLINE_RUN.match(body, j)  # "$a$ and $b$ …": consecutive inline formulas
        if run.end() == j:
            i = j + 1  # a lone "$" (a price, say)
            continue
        if keep_inline:
            for inline in _INLINE.finditer(body, j, run.end()):
                if not inline.group()[1:-1].isspace():
                    scan.inline_starts.append(inline.start())
                    scan.inline_ends.append(inline.end())
        i = run.end()
    return scan


def _fence_spans(fences: set[int], starts: list[int], length: int) -> list[tuple[int, int]]:
    spans = []
    for index in sorted(fences):
        end = starts[index + 1] if index + 1 < len(starts) else length
        if spans and spans[-1][1] == starts[index]:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((starts[index], end))
    return spans


def _mask(body: str, spans: list[tuple[int, int]]) -> str:
    """``body`` with each span replaced by spaces (same length, so offsets still hold)."""
    if not spans:
        return body
    pieces, last = [], 0
    for start, end in sorted(spans):
        start = max(start, last)
        if end <= start:
            continue
        pieces.append(body[last:start])
        pieces.append(" " * (end - start))
        last = end
    pieces.append(body[last:])
    return "".join(pieces)
