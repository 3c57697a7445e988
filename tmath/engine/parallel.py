"""Run tasks in forked worker processes, with a per-task timeout, yielding results in order.

Each task runs in its own process: a claim that hangs is killed after ``timeout`` seconds, a
claim that crashes the interpreter is reported, and the others go on. Results come back in
the order of the tasks whatever order they finish in, so ``-j 2`` prints what ``-j 1`` prints.
On an exception in the caller (Ctrl-C included) every worker is killed before it propagates.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator, Literal, Sequence


@dataclass(frozen=True)
class Outcome:
    """What became of one task."""

    kind: Literal["ok", "error", "timeout", "crash"]
    value: Any = None
    message: str = ""
    details: str = ""
    seconds: float = 0.0


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _child(task: Callable[[], Any], conn) -> None:
    try:
        conn.send(("ok", task(), ""))
    except BaseException as exc:  # reported to the parent, never lost
        conn.send(("error", f"{type(exc).__name__}: {exc}", traceback.format_exc()))
    finally:
        conn.close()


def run_isolated(tasks: Sequence[Callable[[], Any]], jobs: int = 1,
                 timeout: float | None = None) -> Iterator[Outcome]:
    """Run ``tasks`` with at most ``jobs`` workers at a time; yield their outcomes in order."""
    context = multiprocessing.get_context("fork")
    pending = deque(enumerate(tasks))
    running: dict[int, tuple[Any, Any, float]] = {}
    finished: dict[int, Outcome] = {}
    next_index = 0
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                index, task = pending.popleft()
                reader, writer = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(task, writer), daemon=True)
                process.start()
                writer.close()
                running[index] = (process, reader, time.monotonic())
            ready = wait([reader for _, reader, _ in running.values()], timeout=_until(running, timeout))
            now = time.monotonic()
            for index, (process, reader, started) in list(running.items()):
                if reader in ready:
                    finished[index] = _receive(process, reader, now - started)
                elif timeout is not None and now - started > timeout:
                    process.kill()
                    process.join()
                    reader.close()
                    finished[index] = Outcome("timeout", message=f"timed out after {timeout:g} s",
                                              seconds=now - started)
                else:
                    continue
                del running[index]
            while next_index in finished:
                yield finished.pop(next_index)
                next_index += 1
    finally:
        for process, reader, _ in running.values():
            process.kill()
            process.join()
            reader.close()


def _until(running: dict, timeout: float | None) -> float | None:
    if timeout is None:
        return None
    now = time.monotonic()
    return max(0.0, min(started + timeout - now for _, _, started in running.values())) + 0.01


def _receive(process, reader, seconds: float) -> Outcome:
    try:
        kind, value, details = reader.recv()
    except (EOFError, OSError):
        process.join()
        reader.close()
        return Outcome("crash", message=f"the worker died (exit code {process.exitcode})",
                       seconds=seconds)
    process.join()
    reader.close()
    if kind == "ok":
        return Outcome("ok", value=value, seconds=seconds)
    return Outcome("error", message=value, details=details, seconds=seconds)
