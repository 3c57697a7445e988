"""Rewriting a document that was checked (``tmath check --fix --write``), losing nothing.

The corrections were computed from the text that was read; the file is replaced only if it is
still that text, in that file, at that path. Immediately before the rename, holding an
advisory lock (``flock``) on the document, the path is looked at again (``lstat``: the same
device, inode and kind; a symbolic link that appeared is refused, never written through) and
the file is read again and compared with the text that was checked. Any difference means
someone else changed it: nothing is written, and :class:`DocumentChanged` says so (exit 5).

The new text goes to a temporary file in the same folder that gets the document's owner,
group and permissions before it is renamed over the document (if the owner cannot be kept,
nothing is written). A document with several hard links is refused: a rename would give the
new text to one name only and leave the others with the old one.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tmath.cli.outputs import OutputError, describe, output_target
from tmath.errors import TmathError, UsageError

LOCK_WAIT = 10.0
"""Seconds to wait for another process's lock on the document before giving up."""


class DocumentChanged(TmathError):
    """A document changed, was replaced, became a symbolic link, or is locked by another
    process between the check and the write; nothing was written.

    Remedy: check it again (``tmath check DOC --fix --write``).
    """


@dataclass(frozen=True)
class Seen:
    """What the path and its file were when the document was read."""

    link: tuple[int, int, int]
    """(device, inode, file type) of the path itself (``lstat``)."""
    file: tuple[int, int]
    """(device, inode) of the file it names (``stat``: a symlink's target)."""


def seen(path: Path | str) -> Seen:
    """The identity of ``path`` now (call it when the document is read)."""
    link, file = os.lstat(path), os.stat(path)
    return Seen((link.st_dev, link.st_ino, stat.S_IFMT(link.st_mode)), (file.st_dev, file.st_ino))


def refuse_unwritable(path: Path | str) -> None:
    """Refuse, before anything is written, a document that cannot be replaced: what
    :func:`~tmath.cli.outputs.output_target` refuses, and a file with several hard links."""
    target, _ = output_target(Path(path))
    links = os.stat(target).st_nlink
    if links > 1:
        raise UsageError(f"cannot write {path}: it has {links} hard links, and replacing it "
                         "would leave the other names with the old text; apply the diff of "
                         "--fix with patch, or copy the file to break the links")


def still_as_checked(path: Path | str, checked: bytes, before: Seen) -> None:
    """Raise :class:`DocumentChanged` unless ``path`` is still the file seen at ``before`` and
    holds ``checked`` (looked at under the lock, so several documents can be vouched for
    before any is written)."""
    with _locked_as_checked(Path(path), checked, before):
        pass


def replace_checked(path: Path | str, checked: bytes, before: Seen, data: bytes) -> None:
    """Replace the document at ``path`` by ``data`` if it still is ``checked``, the file seen
    at ``before``; otherwise raise :class:`DocumentChanged` and write nothing."""
    path = Path(path)
    refuse_unwritable(path)
    with _locked_as_checked(path, checked, before) as (target, info):
        _write_beside(path, target, info, data, before)


@contextlib.contextmanager
def _locked_as_checked(path: Path, checked: bytes, before: Seen):
    """Hold the lock on the document while it is the file, and the text, that was checked."""
    _same_as_before(path, before)
    target = os.path.realpath(path)
    try:
        fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOENT):
            raise _changed(path, "was moved or replaced") from None
        raise
    try:
        _lock(fd, path)
        _same_as_before(path, before)  # the file we locked is still the one at the path
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != before.file:
            raise _changed(path, "was replaced by another file")
        if _read_all(fd) != checked:
            raise _changed(path, "was edited")
        yield target, info
    finally:
        os.close(fd)  # releases the lock


def _same_as_before(path: Path, before: Seen) -> None:
    try:
        now = seen(path)
    except FileNotFoundError:
        raise _changed(path, "was moved or deleted") from None
    if now.link != before.link:
        kind = "became a symbolic link" if stat.S_ISLNK(now.link[2]) and not \
            stat.S_ISLNK(before.link[2]) else "was replaced by another file"
        raise _changed(path, kind)
    if now.file != before.file:
        raise _changed(path, "now names another file")


def _changed(path: Path, how: str) -> DocumentChanged:
    return DocumentChanged(f"{path} {how} since it was checked; nothing was written (check it "
                           "again with --fix --write)")


def _lock(fd: int, path: Path) -> None:
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise DocumentChanged(f"{path} is locked by another process (another tmath "
                                      f"--write?) for over {LOCK_WAIT:.0f} s; nothing was "
                                      "written (check it again)") from None
            time.sleep(0.05)


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _write_beside(path: Path, target: str, info: os.stat_result, data: bytes,
                  before: Seen) -> None:
    """A temporary file beside the document, with its owner and mode, renamed over it."""
    folder = os.path.dirname(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmath-fix.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {describe(exc)} (in the folder {folder})") \
            from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            mine = os.fstat(handle.fileno())
            if (mine.st_uid, mine.st_gid) != (info.st_uid, info.st_gid):
                try:
                    os.fchown(handle.fileno(), info.st_uid, info.st_gid)
                except PermissionError:
                    raise OutputError(f"cannot write {path}: its owner or group "
                                      f"({info.st_uid}:{info.st_gid}) could not be kept; run "
                                      "as its owner, or apply the diff of --fix yourself") \
                        from None
            os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode))
            os.fsync(handle.fileno())
        _same_as_before(path, before)  # a last look, just before the rename
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {describe(exc)}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
