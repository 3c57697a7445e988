"""The one place where errors become exit codes (typer itself exits 2 on bad options).

Every command runs inside :func:`boundary`: SIGINT and SIGTERM end it like Ctrl-C (exit 130
and 143, the results so far shown); a user's mistake is one line and exit 2; what the system
refuses (a full disk, a read-only folder, permission denied, no memory) is one line and exit
4; a reader that went away (``tmath verify -f json | head -1``) ends quietly with 141, as a
shell reports SIGPIPE; a stdout closed from the start (``tmath verify >&-``) is refused before
anything runs, one line and exit 4. Only a bug in tmath is an "internal error" (exit 3).
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from typing import Callable

import typer
from rich.markup import escape

from tmath.cli.console import err
from tmath.cli.outputs import ENVIRONMENT_ERRNOS, OutputError, describe
from tmath.cli.replace import DocumentChanged
from tmath.engine import interrupts
from tmath.errors import TmathError, UsageError
from tmath.exitcodes import ExitCode


def boundary(command: Callable) -> Callable:
    """Wrap a command so that every error it raises ends as one line and its exit code."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        if not stdout_usable():
            _say(f"[bold red]error:[/] {STDOUT_CLOSED}")
            raise typer.Exit(ExitCode.ENVIRONMENT)
        _tolerant_streams()
        with interrupts.handled():
            code = _run(command, args, kwargs)
        raise typer.Exit(_flushed(code))

    return wrapper


def _run(command: Callable, args, kwargs) -> int:
    try:
        command(*args, **kwargs)
        code = ExitCode.OK
    except typer.Exit as exc:
        code = exc.exit_code
    except BrokenPipeError:
        _silence_stdout()
        return ExitCode.BROKEN_PIPE
    except UsageError as exc:
        _say(f"[bold red]error:[/] {escape(str(exc))}")
        return ExitCode.USAGE
    except OutputError as exc:
        _say(f"[bold red]error:[/] {escape(str(exc))}")
        return ExitCode.ENVIRONMENT
    except DocumentChanged as exc:
        _say(f"[bold red]error:[/] {escape(str(exc))}")
        return ExitCode.CHANGED
    except TmathError as exc:
        _say(f"[bold red]error:[/] {escape(str(exc))}")
        return ExitCode.LOAD_ERROR
    except KeyboardInterrupt:
        code = interrupts.exit_code() or ExitCode.INTERRUPTED
        _say("[bold red]terminated[/]" if code == ExitCode.TERMINATED else
             "[bold red]interrupted[/]")
        return code
    except MemoryError:
        _say("[bold red]error:[/] out of memory (a claim's worker is limited by --max-memory; "
             "this was tmath itself)")
        return ExitCode.ENVIRONMENT
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            _silence_stdout()
            return ExitCode.BROKEN_PIPE
        if exc.errno == errno.EBADF and not stdout_usable():
            _silence_stdout()
            _say(f"[bold red]error:[/] {STDOUT_CLOSED}")
            return ExitCode.ENVIRONMENT
        if exc.errno not in ENVIRONMENT_ERRNOS:
            return _internal(exc)
        where = f"{exc.filename}: " if exc.filename else ""
        _say(f"[bold red]error:[/] {escape(where + describe(exc))}")
        return ExitCode.ENVIRONMENT
    except Exception as exc:  # a bug in tmath: say so; the traceback on request
        return _internal(exc)
    if code == ExitCode.INTERRUPTED and interrupts.exit_code() == ExitCode.TERMINATED:
        code = ExitCode.TERMINATED  # a command that only knew about Ctrl-C
    return code


STDOUT_CLOSED = ("stdout is closed or cannot be written, and tmath prints its results there; "
                 "nothing was run (redirect it to a file or to /dev/null instead of closing it)")


def stdout_usable() -> bool:
    """Whether stdout is an open file descriptor we can write to (``tmath … >&-`` closes it:
    Python then has no ``sys.stdout`` at all, and ``1</dev/null`` opens it read-only). Checked
    before a command runs, so nothing is done whose result could not be shown."""
    if sys.stdout is None:
        return False
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return True  # not a real file (a test runner's buffer): it can be written
    try:
        import fcntl

        mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
    except OSError:
        return False  # EBADF: the descriptor is closed
    return mode in (os.O_WRONLY, os.O_RDWR)


def _tolerant_streams() -> None:
    """On a stdout or stderr that cannot encode everything (PYTHONIOENCODING=ascii), write
    what it cannot as escapes instead of failing with UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding not in ("utf8", "utf16", "utf32") and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="backslashreplace")
            except (ValueError, OSError, AttributeError):
                pass


def _internal(exc: BaseException) -> int:
    _say(f"[bold red]internal error:[/] {escape(f'{type(exc).__name__}: {exc}')}")
    if os.environ.get("TMATH_DEBUG"):
        err.print_exception()
    else:
        _say("set TMATH_DEBUG=1 to see the traceback, and please report it")
    return ExitCode.LOAD_ERROR


def _say(message: str) -> None:
    try:
        err.print(message, highlight=False)
    except OSError:  # stderr is gone too: the exit code is all we can give
        pass


def _flushed(code: int) -> int:
    """Flush stdout now, so a reader that went away is noticed here and not as a traceback
    at interpreter exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return ExitCode.BROKEN_PIPE
    except (OSError, ValueError):  # what was printed did not all arrive: never exit 0
        _silence_stdout()
        _say("[bold red]error:[/] stdout could not be written, so the results were not all "
             "printed")
        return code if code not in (ExitCode.OK, ExitCode.FAILED) else ExitCode.ENVIRONMENT
    return code


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so nothing more (the final flush included) can fail."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
