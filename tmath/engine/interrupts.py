"""The signals that end a run: Ctrl-C (SIGINT) and SIGTERM.

While :func:`handled` is active (the CLI wraps every command in it), the first of them raises
an exception in the main thread: :class:`KeyboardInterrupt` for SIGINT, :class:`Terminated`
(a KeyboardInterrupt too) for SIGTERM. Every cleanup path therefore runs as for Ctrl-C: the
workers are killed, the results so far are shown, and the command exits 128 + the signal's
number (130, 143). Later signals are only recorded, so they cannot cut the cleanup short.

The claim loader imports inside :func:`watched` to tell a real Ctrl-C (which stops the run)
from a claims module that raises KeyboardInterrupt itself (a load error).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived (a KeyboardInterrupt, so it ends a run the way Ctrl-C does)."""


_received: list[int] = []
_active = False


def _handler(signum: int, frame) -> None:
    first = not _received
    _received.append(signum)
    if first:
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into exceptions for the duration (main thread only)."""
    global _active
    if threading.current_thread() is not threading.main_thread() or _active:
        yield
        return
    previous = {s: signal.getsignal(s) for s in SIGNALS}
    _received.clear()
    for s in SIGNALS:
        signal.signal(s, _handler)
    _active = True
    try:
        yield
    finally:
        _active = False
        for s, h in previous.items():
            signal.signal(s, h)


class Watch:
    """Whether a real signal arrived while a block ran (see :func:`watched`)."""

    def __init__(self, recording: bool) -> None:
        self.recording = recording
        self.before = len(_received)

    def arrived(self) -> bool:
        """True if SIGINT/SIGTERM arrived; when nothing could record it (another handler,
        another thread), every KeyboardInterrupt counts as a real one."""
        return not self.recording or len(_received) > self.before


@contextlib.contextmanager
def watched() -> Iterator[Watch]:
    """Record SIGINT for the duration, also outside :func:`handled` (tmath used as a
    library) when Python's default handler is in place."""
    if _active:
        yield Watch(True)
        return
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield Watch(False)
        return
    signal.signal(signal.SIGINT, _record_and_raise)
    try:
        yield Watch(True)
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _record_and_raise(signum: int, frame) -> None:
    _received.append(signum)
    raise KeyboardInterrupt()


def exit_code() -> int | None:
    """128 + the first signal that arrived, or None."""
    return 128 + _received[0] if _received else None


def reset_in_child() -> None:
    """In a worker: the default behaviour (SIGTERM ends it; SIGINT raises KeyboardInterrupt)."""
    global _active
    _active = False
    _received.clear()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
