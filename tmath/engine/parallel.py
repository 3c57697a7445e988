"""Run tasks in forked worker processes, with a per-task timeout, yielding results in order.

A worker is forked once and runs one task after another (forking per task cost about 90 ms a
claim and threw away every import and cache a claim had warmed). Each worker is its own process
group: a task that hangs is killed after ``timeout`` seconds together with every process its
worker started, a task that crashes the interpreter is reported, and in both cases a fresh
worker takes over the remaining tasks. What a task prints (stdout and stderr, at the Python and
the file-descriptor level, subprocesses included) is captured in the worker and returned with
its outcome, so it never reaches tmath's own output. With ``max_memory`` a worker may map at
most that many more megabytes than it starts with (``RLIMIT_AS``), so a runaway allocation
fails with MemoryError inside the task instead of exhausting the machine.

One task cannot reach the next through the worker: after each task the worker restores the
state a task can change in passing (the working directory, the environment, ``sys.path``, the
warning filters, the global random generators of ``random`` and NumPy). A worker whose task
raised, or left a process or a thread running, is retired (its process group is killed) and
the next task gets a new one; where the worker cannot see its leftovers (no ``/proc``), every
task gets a new worker, as if forked per task.

Results come back in the order of the tasks whatever order they finish in, so ``-j 2`` prints
what ``-j 1`` prints. On an exception in the caller (Ctrl-C and SIGTERM included) every worker
group is killed before it propagates, and when the run ends every worker group is killed, so
no process a claim started outlives it.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
import traceback
import warnings
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator, Literal, Sequence

from tmath.engine import blas_threads, interrupts
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


# -- in the worker ---------------------------------------------------------------------------

class _State:
    """What a task may change in its process and the next task must not see."""

    def __init__(self) -> None:
        self.cwd = os.getcwd()
        self.environ = dict(os.environ)
        self.path = list(sys.path)
        self.filters = list(warnings.filters)
        self.random = random.getstate()
        numpy = sys.modules.get("numpy")
        self.numpy = numpy.random.get_state() if numpy is not None else None
        self.threads = set(threading.enumerate())

    def restore(self) -> bool:
        """Undo what the last task changed; False when that is not possible (the worker is
        then retired, so the next task starts in a fresh one)."""
        try:
            self._restore()
        except Exception:  # noqa: BLE001 -- whatever the task broke, it costs only its worker
            return False
        return True

    def _restore(self) -> None:
        os.chdir(self.cwd)
        if dict(os.environ) != self.environ:
            os.environ.clear()
            os.environ.update(self.environ)
        sys.path[:] = self.path
        if warnings.filters != self.filters:
            warnings.filters[:] = self.filters
            getattr(warnings, "_filters_mutated", lambda: None)()  # forget "once" warnings
        random.setstate(self.random)
        if self.numpy is not None:
            sys.modules["numpy"].random.set_state(self.numpy)

    def leftovers(self) -> bool:
        """True when the task left a process or a thread running (or this cannot be seen)."""
        if any(t.is_alive() for t in threading.enumerate() if t not in self.threads):
            return True
        _reap()
        try:
            pid = os.getpid()
            return any(open(f"/proc/{pid}/task/{tid}/children").read().split()
                       for tid in os.listdir(f"/proc/{pid}/task"))
        except OSError:
            return True


def _reap() -> None:
    """Collect the exit status of children that ended (orphans are reparented here)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _become_subreaper() -> None:
    """Orphaned descendants of this worker become its children, so it can see them (Linux)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _serve(tasks: Sequence[Callable[[], Any]], conn, max_memory: int | None,
           jobs: int = 1) -> None:
    """Run the tasks the parent names by index, one at a time, until it says stop."""
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    interrupts.reset_in_child()
    _become_subreaper()
    null = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):  # nothing printed between tasks reaches tmath's output
        os.dup2(null, fd)
    os.close(null)
    _limit_memory(max_memory)
    blas_threads.limit(usable_cores(), jobs)  # before the snapshot: restoring keeps it
    state = _State()
    while True:
        try:
            index = conn.recv()
        except (EOFError, OSError):
            return
        if index is None:
            return
        message = _run_one(tasks[index])
        retire = message[0] != "ok" or not state.restore() or state.leftovers()
        try:
            conn.send((*message, retire))
        except BaseException as exc:  # the value could not be sent (unpicklable, out of memory)
            try:
                conn.send(("error", f"the result could not be sent back: {type(exc).__name__}: "
                                    f"{exc}", traceback.format_exc(), message[3], True))
            except BaseException:
                pass
            return
        if retire:
            return


def _run_one(task: Callable[[], Any]) -> tuple:
    captured = Captured(restore=False)
    try:
        with captured:
            value = task()
        return "ok", _with_output(value, captured.text), "", captured.text
    except BaseException as exc:  # reported to the parent, never lost
        text = f"{type(exc).__name__}: {exc}".splitlines()
        return ("error", text[0] if text else type(exc).__name__, traceback.format_exc(),
                captured.text)


def _with_output(value: Any, output: str) -> Any:
    """A result with an ``output`` field receives what its task printed."""
    if output and dataclasses.is_dataclass(value) and not isinstance(value, type) \
            and "output" in {f.name for f in dataclasses.fields(value)}:
        return dataclasses.replace(value, output=output)
    return value


# -- in the parent ---------------------------------------------------------------------------

class _Worker:
    """One forked worker, its end of the pipe and the task it is running."""

    def __init__(self, context, tasks: Sequence[Callable[[], Any]],
                 max_memory: int | None, jobs: int = 1) -> None:
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_serve, args=(tasks, child, max_memory, jobs),
                                       daemon=True)
        self.process.start()
        try:
            os.setpgid(self.process.pid, self.process.pid)  # also here: no window for a kill
        except OSError:
            pass
        child.close()
        self.index: int | None = None
        self.started = 0.0
        self.stopped = False
        self.groups: set[Any] = set()
        """The groups of the tasks this worker has run (what it has imported)."""

    def start(self, index: int, group: Any = None) -> None:
        self.index, self.started = index, time.monotonic()
        self.conn.send(index)
        self.groups.add(group)

    def receive(self) -> tuple[Outcome, bool]:
        """The outcome of the running task, and whether this worker is done for."""
        seconds = time.monotonic() - self.started
        self.index = None
        try:
            kind, value, details, output, retire = self.conn.recv()
        except (EOFError, OSError):
            self.stop()
            return Outcome("crash", message=_death(self.process.exitcode), seconds=seconds), True
        except Exception as exc:  # noqa: BLE001 -- a value that cannot be rebuilt here
            return Outcome("error", message=f"the result could not be received: "
                                            f"{type(exc).__name__}: {exc}",
                           seconds=seconds), True
        if kind == "ok":
            return Outcome("ok", value=value, seconds=seconds, output=output), retire
        return Outcome("error", message=value, details=details, seconds=seconds,
                       output=output), retire

    def stop(self) -> None:
        """SIGKILL the worker's process group (the worker and everything it started). The
        worker is not reaped yet, so its pid (the group's id) cannot have been reused."""
        if self.stopped:
            return
        self.stopped = True
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            try:
                self.process.kill()
            except (ProcessLookupError, AttributeError):
                pass
        self.process.join()
        self.conn.close()


def run_isolated(tasks: Sequence[Callable[[], Any]], jobs: int = 1,
                 timeout: float | None = None,
                 max_memory: int | None = None,
                 groups: Sequence[Any] | None = None) -> Iterator[Outcome]:
    """Run ``tasks`` with at most ``jobs`` workers at a time; yield their outcomes in order.
    ``max_memory`` (MB) bounds what each worker may allocate (None: no bound). Tasks with the
    same ``groups`` entry (a claims module) go to the same worker where possible: it has
    already imported what they need."""
    context = multiprocessing.get_context("fork")
    tasks = list(tasks)
    jobs = max(1, min(jobs, len(tasks)))  # the workers that will run side by side
    pending = _Pending(len(tasks), groups)
    idle: list[_Worker] = []
    busy: list[_Worker] = []
    finished: dict[int, Outcome] = {}
    next_index = 0
    try:
        while pending or busy:
            while pending and len(busy) < jobs:
                busy.append(_start(pending, idle, context, tasks, max_memory, jobs))
            ready = wait([w.conn for w in busy], timeout=_until(busy, timeout))
            now = time.monotonic()
            for worker in list(busy):
                index = worker.index
                if worker.conn in ready:
                    finished[index], retire = worker.receive()
                elif timeout is not None and now - worker.started > timeout:
                    finished[index], retire = _timed_out(worker, timeout, now), True
                else:
                    continue
                busy.remove(worker)
                if retire:
                    worker.stop()
                else:
                    idle.append(worker)
            while next_index in finished:
                yield finished.pop(next_index)
                next_index += 1
    finally:
        for worker in busy + idle:
            worker.stop()


class OneByOne:
    """One worker at a time running the task the caller names, for a caller that learns what
    to run as it goes (the pytest plugin runs one item after another). Timeouts, crashes,
    leftovers and the memory limit are handled as in :func:`run_isolated`: a worker is forked
    at the first task and replaced whenever its task did not leave it fit. ``jobs`` is how
    many such callers run side by side (their workers share the cores' BLAS threads)."""

    def __init__(self, tasks: Sequence[Callable[[], Any]], timeout: float | None = None,
                 max_memory: int | None = None, jobs: int = 1) -> None:
        self.tasks, self.timeout, self.max_memory, self.jobs = tasks, timeout, max_memory, jobs
        self._worker: _Worker | None = None

    def run(self, index: int) -> Outcome:
        """Run ``tasks[index]`` in the worker and return its outcome."""
        worker = self._fit_worker(index)
        try:
            if wait([worker.conn], timeout=self.timeout):
                outcome, retire = worker.receive()
            else:
                outcome, retire = _timed_out(worker, self.timeout, time.monotonic()), True
        except BaseException:  # Ctrl-C or SIGTERM in the caller: no worker outlives it
            self.close()
            raise
        if retire:
            self.close()
        return outcome

    def _fit_worker(self, index: int) -> _Worker:
        if self._worker is not None:
            try:
                self._worker.start(index)
                return self._worker
            except OSError:  # it died while idle (killed from outside)
                self.close()
        context = multiprocessing.get_context("fork")
        self._worker = _Worker(context, self.tasks, self.max_memory, self.jobs)
        self._worker.start(index)
        return self._worker

    def close(self) -> None:
        """Kill the worker's process group, if there is a worker."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None


def _timed_out(worker: _Worker, timeout: float, now: float) -> Outcome:
    """Stop a worker whose task ran past ``timeout``; the task's outcome."""
    worker.stop()
    return Outcome("timeout", message=f"timed out after {timeout:g} s",
                   seconds=now - worker.started)


def _start(pending: _Pending, idle: list[_Worker], context,
           tasks: Sequence[Callable[[], Any]], max_memory: int | None, jobs: int) -> _Worker:
    """A worker running the next task for it: an idle one if it is still there, else a new
    one."""
    worker = idle.pop() if idle else None
    index = pending.take(worker.groups if worker else set())
    while worker is not None:
        try:
            worker.start(index, pending.groups[index])
            return worker
        except OSError:  # it died while idle (killed from outside)
            worker.stop()
            worker = idle.pop() if idle else None
    worker = _Worker(context, tasks, max_memory, jobs)
    worker.start(index, pending.groups[index])
    return worker


class _Pending:
    """The tasks not started yet, handed out in order except that a worker first gets the
    tasks of groups it has run, then those of a group no worker has touched."""

    def __init__(self, count: int, groups: Sequence[Any] | None) -> None:
        self.left = dict.fromkeys(range(count))
        self.groups = list(groups) if groups is not None else [None] * count
        self.touched: set[Any] = set()

    def __bool__(self) -> bool:
        return bool(self.left)

    def take(self, held: set[Any]) -> int:
        """The next task for a worker that has run the groups ``held``."""
        chosen = next((i for i in self.left if self.groups[i] in held), None)
        if chosen is None:
            chosen = next((i for i in self.left if self.groups[i] not in self.touched),
                          next(iter(self.left)))
        del self.left[chosen]
        self.touched.add(self.groups[chosen])
        return chosen


def _until(busy: list[_Worker], timeout: float | None) -> float | None:
    if timeout is None:
        return None
    now = time.monotonic()
    return max(0.0, min(w.started + timeout - now for w in busy)) + 0.01


def _death(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name if -exitcode in signal.valid_signals() else \
            f"signal {-exitcode}"
        hint = " (the system may have run out of memory; see --max-memory)" \
            if -exitcode == signal.SIGKILL else ""
        return f"the worker was killed by {name}{hint}"
    return f"the worker died (exit code {exitcode}) before it reported a result"
