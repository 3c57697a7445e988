"""Writing ``--output`` and ``--plot`` files without ever destroying one.

A file is written to a temporary file in the same folder and renamed over the target, so
readers never see half a file, and the temporary file is removed whatever happens (a full
disk included). Before anything is written, the target is checked (:func:`output_target`):

* one of the command's inputs (a document, a claims file: same resolved path or same file),
  a folder, a device, a FIFO or a socket is refused (a usage error, exit 2);
* an existing read-only file is refused, never silently replaced (exit 2); a file on a
  read-only file system is the environment's doing (exit 4);
* a symbolic link is written through: its target gets the new content, the link stays;
* an existing file keeps its permissions.

What the system refuses (a read-only folder or file system, permission denied, no space
left) is an :class:`OutputError`: one line, exit 4.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path
from typing import Iterable, Optional

from tmath.errors import TmathError, UsageError

ENVIRONMENT_ERRNOS = {errno.ENOSPC: "no space left on the device",
                      errno.EDQUOT: "the disk quota is exceeded",
                      errno.EROFS: "the file system is read-only",
                      errno.EACCES: "permission denied",
                      errno.EPERM: "the operation is not permitted",
                      errno.EIO: "an input/output error occurred",
                      errno.EFBIG: "the file is too large for the file system",
                      errno.EMFILE: "too many open files",
                      errno.ENFILE: "too many open files in the system",
                      errno.ENOMEM: "out of memory",
                      errno.EAGAIN: "the system refused to start another process (a limit on "
                                    "processes; try fewer --jobs)"}
"""errno values that are the environment's doing, not a mistake in tmath or in the command."""


class OutputError(TmathError):
    """The system refused to write an output (permissions, read-only, disk full).

    Remedy: the message names the path and the reason; free space, fix permissions, or
    choose another path.
    """


def describe(exc: OSError) -> str:
    """The reason of an OSError for people ("no space left on the device")."""
    return ENVIRONMENT_ERRNOS.get(exc.errno or 0) or exc.strerror or str(exc)


def write_text(path: Optional[Path], text: str, inputs: Iterable[os.PathLike | str] = (),
               exclusive: bool = False) -> None:
    """Write a report to ``path`` (if given) as UTF-8, atomically; never over an input (with
    ``exclusive``, never over anything: see :func:`write_bytes`)."""
    if path is not None:
        write_bytes(path, text.encode("utf-8"), inputs=inputs, exclusive=exclusive)


def write_bytes(path: Path, data: bytes, inputs: Iterable[os.PathLike | str] = (),
                exclusive: bool = False) -> None:
    """A temporary file in the target's folder, then a rename: readers never see half a
    file, and nothing is left behind when writing fails. With ``exclusive`` the temporary
    file is linked to the name instead, which fails if anything appeared there meanwhile
    (a UsageError): a new file never replaces one."""
    target, mode = output_target(path, inputs)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:40]}.", suffix=".tmp",
                                   dir=target.parent)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {describe(exc)} "
                          f"(in the folder {target.parent})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if exclusive:
            _link_new(tmp, path)
        else:
            os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {describe(exc)}") from None
        raise


def _link_new(tmp: str, path: Path) -> None:
    """``tmp`` under the name ``path`` only if nothing (not even a symlink) is there."""
    try:
        os.link(tmp, path)  # never follows or replaces what is at ``path``
    except FileExistsError:
        raise UsageError(f"cannot write {path}: a file of that name appeared meanwhile, and "
                         "it is never overwritten") from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        if os.path.lexists(path):  # a file system without hard links: look, then rename
            raise UsageError(f"cannot write {path}: a file of that name appeared meanwhile, "
                             "and it is never overwritten") from None
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def output_target(path: Path, inputs: Iterable[os.PathLike | str] = ()) -> tuple[Path, int]:
    """Where writing ``path`` would put the bytes (a symlink's target) and the permissions
    the file should get; UsageError when the path must not be written."""
    path = Path(path)
    if str(path) in ("", "-"):
        raise UsageError(f"cannot write {str(path)!r}: give a file name (the report is "
                         "printed on stdout anyway)")
    target = Path(os.path.realpath(path))
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UsageError(f"cannot write {path}: it is a loop of symbolic links") from None
        if exc.errno == errno.ENOTDIR:
            raise UsageError(f"cannot write {path}: a part of the path is a file, not a "
                             "folder") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise UsageError(f"cannot write {path}: the file name is too long") from None
        raise OutputError(f"cannot write {path}: {describe(exc)}") from None
    except ValueError as exc:  # an embedded NUL byte
        raise UsageError(f"cannot write {path!s}: {exc}") from None
    if info is None:
        folder = target.parent
        if not folder.is_dir():
            shown = path.parent if str(path.parent) not in ("", ".") else folder
            raise UsageError(f"cannot write {path}: the folder {shown} does not exist")
        return target, 0o666 & ~_umask()
    if stat.S_ISDIR(info.st_mode):
        raise UsageError(f"cannot write {path}: it is a folder; give a file name")
    if not stat.S_ISREG(info.st_mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(info.st_mode) else "a socket"
                if stat.S_ISSOCK(info.st_mode) else "a device")
        raise UsageError(f"cannot write {path}: it is {kind}, not a regular file; tmath only "
                         "writes regular files (the report is printed on stdout anyway)")
    for source in inputs:
        if _same_file(target, info, source):
            raise UsageError(f"cannot write {path}: it is one of the inputs ({source}); "
                             "choose another output file")
    if _read_only_file_system(target):
        raise OutputError(f"cannot write {path}: {ENVIRONMENT_ERRNOS[errno.EROFS]}")
    if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
        raise UsageError(f"cannot write {path}: the file is read-only, and tmath does not "
                         "replace a read-only file; make it writable or choose another path")
    return target, stat.S_IMODE(info.st_mode)


def _same_file(target: Path, info: os.stat_result, source: os.PathLike | str) -> bool:
    if os.path.realpath(source) == str(target):
        return True
    try:
        other = os.stat(source)
    except (OSError, ValueError):
        return False
    return (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino)  # a hard link too


def _read_only_file_system(path: Path) -> bool:
    """Whether ``path`` is on a file system mounted read-only (the environment's doing, exit
    4), as opposed to a file whose own mode is read-only (the user's choice, exit 2)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
