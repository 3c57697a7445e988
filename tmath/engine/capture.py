"""What a claim prints, kept aside: its stdout and stderr never reach tmath's own output.

Inside :class:`Captured`, file descriptors 1 and 2 point to a pipe and ``sys.stdout`` /
``sys.stderr`` write to it too, so ``print``, ``os.write(1, ...)``, C extensions and
subprocesses are all caught. A thread drains the pipe and keeps the first and the last
:data:`KEEP` bytes (a claim that prints gigabytes costs no memory); :attr:`Captured.text` is
what was kept, with a marker where bytes were left out.
"""

from __future__ import annotations

import collections
import io
import os
import sys
import threading

KEEP = 8 * 1024
"""Bytes kept from the start and from the end of what was printed."""


class Captured:
    """Capture fds 1 and 2 (and sys.stdout/sys.stderr) until the block ends.

    ``restore=False`` (in a worker process) points them at /dev/null afterwards instead of
    back at the terminal, so nothing printed later can reach tmath's stdout.
    """

    def __init__(self, keep: int = KEEP, restore: bool = True) -> None:
        self.keep = keep
        self.restore = restore
        self.text = ""
        self._head = bytearray()
        self._tail: collections.deque[bytes] = collections.deque()
        self._tail_size = 0
        self._total = 0

    def __enter__(self) -> Captured:
        _flush_all()
        self._read, write = os.pipe()
        self._saved = {fd: _dup(fd) for fd in (1, 2)}
        for fd in (1, 2):
            os.dup2(write, fd)
        os.close(write)
        self._streams = (sys.stdout, sys.stderr)
        stream = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                  errors="backslashreplace", write_through=True)
        sys.stdout = sys.stderr = stream
        self._thread = threading.Thread(target=self._drain, name="tmath-capture", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> bool:
        _flush_all()
        sys.stdout, sys.stderr = self._streams
        null = os.open(os.devnull, os.O_WRONLY) if not self.restore else None
        for fd, saved in self._saved.items():
            if null is not None:
                os.dup2(null, fd)
            elif saved is not None:
                os.dup2(saved, fd)
            else:
                os.close(fd)
            if saved is not None:
                os.close(saved)
        if null is not None:
            os.close(null)
        self._thread.join(timeout=0.25)  # a subprocess that outlives the block keeps the pipe
        if not self._thread.is_alive():
            os.close(self._read)
        self.text = self._kept()
        return False

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self._read, 65536)
            except OSError:
                return
            if not chunk:
                return
            self._total += len(chunk)
            room = self.keep - len(self._head)
            if room > 0:
                self._head += chunk[:room]
                chunk = chunk[room:]
            if chunk:
                self._tail.append(chunk)
                self._tail_size += len(chunk)
                while self._tail_size - len(self._tail[0]) >= self.keep:
                    self._tail_size -= len(self._tail.popleft())

    def _kept(self) -> str:
        tail = b"".join(self._tail)[-self.keep:]
        omitted = self._total - len(self._head) - len(tail)
        text = bytes(self._head).decode("utf-8", "replace")
        if omitted > 0:
            text += f"\n[… {omitted} bytes not shown …]\n"
        return text + tail.decode("utf-8", "replace")


def _dup(fd: int) -> int | None:
    try:
        return os.dup(fd)
    except OSError:  # the descriptor was closed: close it again afterwards
        return None


def _flush_all() -> None:
    for stream in {id(s): s for s in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__)
                   if s is not None}.values():
        try:
            stream.flush()
        except (OSError, ValueError):
            pass


def truncated(text: str, keep: int = KEEP) -> str:
    """``text`` with its middle left out when it is longer than twice ``keep`` characters."""
    if len(text) <= 2 * keep:
        return text
    return f"{text[:keep]}\n[… {len(text) - 2 * keep} characters not shown …]\n{text[-keep:]}"
