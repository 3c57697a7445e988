"""Run tasks in forked worker processes, with a per-task timeout, yielding results in order.

Each task runs in its own process and its own process group: a claim that hangs is killed
after ``timeout`` seconds together with every process it started, a claim that crashes the
interpreter is reported, and the others go on. What a task prints (stdout and stderr, at the
Python and the file-descriptor level, subprocesses included) is captured in the worker and
returned with its outcome, so it never reaches tmath's own output. With ``max_memory`` the
worker may map at most that many more megabytes than it starts with (``RLIMIT_AS``), so a
runaway allocation fails with MemoryError inside the task instead of exhausting the machine.

Results come back in the order of the tasks whatever order they finish in, so ``-j 2`` prints
what ``-j 1`` prints. On an exception in the caller (Ctrl-C and SIGTERM included) every worker
group is killed before it propagates, and when a task finishes its group is killed too, so no
process a claim started outlives it.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import signal
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator, Literal, Sequence

from tmath.engine import interrupts
from tmath.engine.capture import Captured


@dataclass(frozen=True)
class Outcome:
    """What became of one task."""

    kind: Literal["ok", "error", "timeout", "crash"]
    value: Any = None
    message: str = ""
    details: str = ""
    seconds: float = 0.0
    output: str = ""
    """What the task printed (the first and last few kilobytes)."""


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _limit_memory(max_memory: int | None) -> None:
    """Let this process map at most ``max_memory`` MB more than it has mapped now."""
    if not max_memory:
        return
    try:
        import resource

        with open("/proc/self/statm") as handle:
            mapped = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        limit = mapped + max_memory * 2**20
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):  # not Linux: no limit (README says so)
        pass


def _child(task: Callable[[], Any], conn, max_memory: int | None) -> None:
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    interrupts.reset_in_child()
    captured = Captured(restore=False)
    message: tuple
    try:
        with captured:
            _limit_memory(max_memory)
            value = task()
        message = ("ok", _with_output(value, captured.text), "", captured.text)
    except BaseException as exc:  # reported to the parent, never lost
        text = f"{type(exc).__name__}: {exc}".splitlines()
        message = ("error", text[0] if text else type(exc).__name__, traceback.format_exc(),
                   captured.text)
    try:
        conn.send(message)
    except BaseException as exc:  # the value could not be sent (unpicklable, out of memory)
        try:
            conn.send(("error", f"the result could not be sent back: {type(exc).__name__}: "
                                f"{exc}", traceback.format_exc(), captured.text))
        except BaseException:
            pass
    finally:
        conn.close()


def _with_output(value: Any, output: str) -> Any:
    """A result with an ``output`` field receives what its task printed."""
    if output and dataclasses.is_dataclass(value) and not isinstance(value, type) \
            and "output" in {f.name for f in dataclasses.fields(value)}:
        return dataclasses.replace(value, output=output)
    return value


def run_isolated(tasks: Sequence[Callable[[], Any]], jobs: int = 1,
                 timeout: float | None = None,
                 max_memory: int | None = None) -> Iterator[Outcome]:
    """Run ``tasks`` with at most ``jobs`` workers at a time; yield their outcomes in order.
    ``max_memory`` (MB) bounds what each worker may allocate (None: no bound)."""
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
                process = context.Process(target=_child, args=(task, writer, max_memory),
                                          daemon=True)
                process.start()
                try:
                    os.setpgid(process.pid, process.pid)  # also here: no window for a kill
                except OSError:
                    pass
                writer.close()
                running[index] = (process, reader, time.monotonic())
            ready = wait([reader for _, reader, _ in running.values()], timeout=_until(running, timeout))
            now = time.monotonic()
            for index, (process, reader, started) in list(running.items()):
                if reader in ready:
                    finished[index] = _receive(process, reader, now - started)
                elif timeout is not None and now - started > timeout:
                    _kill_group(process)
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
            _kill_group(process)
        for process, reader, _ in running.values():
            process.join()
            reader.close()


def _kill_group(process) -> None:
    """SIGKILL the worker's process group (the worker and everything it started). The worker
    is not reaped yet, so its pid (the group's id) cannot have been reused."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            process.kill()
        except (ProcessLookupError, AttributeError):
            pass


def _until(running: dict, timeout: float | None) -> float | None:
    if timeout is None:
        return None
    now = time.monotonic()
    return max(0.0, min(started + timeout - now for _, _, started in running.values())) + 0.01


def _receive(process, reader, seconds: float) -> Outcome:
    try:
        kind, value, details, output = reader.recv()
    except (EOFError, OSError):
        _kill_group(process)
        process.join()
        reader.close()
        return Outcome("crash", message=_death(process.exitcode), seconds=seconds)
    except Exception as exc:  # noqa: BLE001 -- a value that cannot be rebuilt here
        kind, value, details, output = "error", f"the result could not be received: " \
                                                f"{type(exc).__name__}: {exc}", "", ""
    _kill_group(process)  # whatever the claim started and left running
    process.join()
    reader.close()
    if kind == "ok":
        return Outcome("ok", value=value, seconds=seconds, output=output)
    return Outcome("error", message=value, details=details, seconds=seconds, output=output)


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name if -exitcode in signal.valid_signals() else \
            f"signal {-exitcode}"
        hint = " (the system may have run out of memory; see --max-memory)" \
            if -exitcode == signal.SIGKILL else ""
        return f"the worker was killed by {name}{hint}"
    return f"the worker died (exit code {exitcode}) before it reported a result"
