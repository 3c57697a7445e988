"""``tmath new --from DOC:LINE``: start a claim from what a document prints at a line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Optional

import typer

from tmath.cli.console import err
from tmath.cli.outputs import write_text
from tmath.errors import UsageError
from tmath.exitcodes import ExitCode

DEFAULT_FOLDER = Path("claims")
MAX_ID = 120
"""Characters of a claim id at most: its module's file name stays far below the 255 bytes
file systems allow, with room for the temporary file written first."""


def new(
    source: Annotated[str, typer.Option(
        "--from", metavar="DOC:LINE", show_default=False,
        help="The document and the line of the formula or figures to claim, e.g. "
             "notes.md:42.")],
    claim_id: Annotated[Optional[str], typer.Option(
        "--id", metavar="ID", help="The claim's id (kebab-case); default: from the document's "
                                   "name and the line, e.g. notes-line-42.")] = None,
    claims: Annotated[Optional[Path], typer.Option(
        "--claims", metavar="DIR", show_default=False,
        help="The claims folder to write the module into (created if missing); default: "
             "claims/ in the current folder, unless that is tmath's built-in one.")] = None,
) -> None:
    """Write the skeleton of a claim for the display formula or the figures at DOC:LINE.

    The formula is recorded verbatim (formulas=), each number printed on the line becomes a Figure with its anchor, and the symbols of the formula are declared for the Statement (read by a tokenizer, with the kinds tmath's reader gives them: entries of an IndexedBase, whole-number indices, functions; the document is never evaluated). A formula the reader does not read leaves the Statement for you to write, and says so (a NOT READ comment, a note on stderr). prove() and check() raise "not written yet", so until you write them the claim is an error, never a pass, and [bold]tmath check DOC --claims DIR[/bold] reports its formula as claimed-but-unverified (exit 1). An existing file is never overwritten.

    [bold]Examples[/bold]

    tmath new --from notes.md:42 --claims my_claims

    tmath new --from notes.md:42 --id attention-formula --claims my_claims

    Exit codes: 0 written · 2 usage error (bad DOC:LINE, a line past the end, nothing to claim there, an id or file that exists) · 4 the file could not be written.
    """
    from tmath.gate.document import read_document
    from tmath.gate.skeleton import at_line, claim_source, unread_reason

    path, line = _parse_source(source)
    claims = claims if claims is not None else _default_folder()
    document = read_document(path)
    count = line_count(document.text)
    if line > count:
        raise UsageError(f"{path} has {count} line{'s' if count != 1 else ''}; line {line} is "
                         "past its end")
    content = at_line(document, line)
    if content.formula is None and not content.figures:
        raise UsageError(f"{path}:{line} prints no display formula and no number to claim"
                         + _nearest(document, line))
    claim_id = claim_id or _default_id(path, line)
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", claim_id):
        raise UsageError(f"--id {claim_id!r} is not kebab-case (e.g. attention-formula)")
    if len(claim_id) > MAX_ID:
        raise UsageError(f"the claim id {claim_id[:20]}… has {len(claim_id)} characters; "
                         f"a claim id has at most {MAX_ID} (pass a shorter --id)")
    _check_folder(claims)
    _refuse_known_id(claim_id, claims)
    target = claims / f"{claim_id.replace('-', '_')}.py"
    if target.exists() or target.is_symlink():
        raise UsageError(f"{target} exists; tmath new never overwrites a file (choose another "
                         "--id or remove it)")
    try:
        claims.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise UsageError(f"--claims {claims}: a part of that path is a file, not a folder; "
                         "name a folder") from None
    write_text(target, claim_source(content, claim_id, f"{path.name}:{line}"), inputs=[path],
               exclusive=True)
    what = ", ".join(p for p in (
        "its display formula" if content.formula else "",
        f"{len(content.figures)} figure(s)" if content.figures else "") if p)
    err.print(f"wrote {target}: claim {claim_id} ({what}, §{content.section}); write its "
              f"statement, prove() and check(). Until then `tmath check {path} --claims "
              f"{claims}` reports it as unverified.", highlight=False, markup=False)
    unread = unread_reason(content.formula) if content.formula is not None else None
    if unread:
        err.print(f"note: the formula at {path}:{line} was not read ({unread}); its Statement "
                  "is left for you to write (see the NOT READ comment in the module).",
                  highlight=False, markup=False)
    raise typer.Exit(ExitCode.OK)


def line_count(text: str) -> int:
    """Lines as an editor and ``wc -l`` count them: a final newline ends the last line, it
    does not start another (the document's line table keeps that empty tail as a line)."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _parse_source(source: str) -> tuple[Path, int]:
    document, sep, number = source.rpartition(":")
    if not sep or not document:
        raise UsageError(f"--from takes DOC:LINE, e.g. notes.md:42 (got {source!r})")
    # ASCII digits only: str.isdigit() accepts "²", which int() refuses
    if not re.fullmatch(r"[0-9]{1,9}", number) or int(number) < 1:
        shown = source if len(source) <= 60 else source[:57] + "…"
        raise UsageError(f"--from {shown!r}: the line must be a positive whole number of at "
                         "most 9 digits, as in notes.md:42")
    path = Path(document)
    if not path.exists():
        raise UsageError(f"document not found: {path}")
    return path, int(number)


def _check_folder(folder: Path) -> None:
    """The claims folder is a folder or does not exist yet (a file there is a usage error)."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--claims {folder} is a file; name a folder (it is created if "
                         "missing)")


def _default_folder() -> Path:
    """claims/ here, unless it is the built-in folder (a checkout of tmath): then ask."""
    from tmath.engine.registry import builtin_claims_dir

    if DEFAULT_FOLDER.is_dir() and DEFAULT_FOLDER.resolve() == builtin_claims_dir().resolve():
        raise UsageError("claims/ here is tmath's built-in claims folder; name the folder to "
                         "write to with --claims DIR (--claims claims to add a built-in claim)")
    return DEFAULT_FOLDER


def _default_id(path: Path, line: int) -> str:
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "document"
    return f"{stem}-line-{line}"


def _nearest(document, line: int) -> str:
    if not document.formulas:
        return ""
    nearest = min(document.formulas, key=lambda m: min(abs(m.line - line), abs(m.end_line - line)))
    return f" (the nearest display formula is at line {nearest.line})"


def _refuse_known_id(claim_id: str, folder: Path) -> None:
    """An id the built-in claims or the folder's claims already use is refused."""
    from tmath.engine.registry import catalog

    folders = [folder] if folder.is_dir() else []
    known = catalog(folders)
    if claim_id in known.claims:
        info = known.claims[claim_id]
        raise UsageError(f"claim id {claim_id!r} is already defined in {info.path}:{info.line}; "
                         "pass another --id")
