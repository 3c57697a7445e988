"""The worker pool: a worker runs many tasks, but a task that crashes, hangs, raises or leaves
something running costs only its own result, and no task sees what the one before it changed."""

from __future__ import annotations

import faulthandler
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
import warnings

import numpy as np

from conftest import alive
from tmath.engine.parallel import run_isolated


def _pid() -> int:
    return os.getpid()


def _segfault() -> None:
    faulthandler.disable()  # no traceback dump on the test's terminal
    os.kill(os.getpid(), signal.SIGSEGV)


def test_one_worker_runs_many_tasks_and_results_keep_their_order():
    outcomes = list(run_isolated([lambda i=i: (i, os.getpid()) for i in range(6)], jobs=2))
    assert [o.value[0] for o in outcomes] == list(range(6))
    assert len({o.value[1] for o in outcomes}) <= 2  # forked once per worker, not per task
    assert all(o.value[1] != os.getpid() for o in outcomes)


def test_a_crash_costs_only_its_own_task():
    tasks = [_pid, lambda: os._exit(3), _pid, _segfault, _pid]
    outcomes = list(run_isolated(tasks, jobs=1))
    assert [o.kind for o in outcomes] == ["ok", "crash", "ok", "crash", "ok"]
    assert "exit code 3" in outcomes[1].message and "SIGSEGV" in outcomes[3].message
    assert outcomes[0].value != outcomes[2].value != outcomes[4].value  # a fresh worker each time


def test_a_hanging_task_times_out_and_the_next_one_runs():
    outcomes = list(run_isolated([lambda: time.sleep(300), lambda: "after"], jobs=1, timeout=1))
    assert [o.kind for o in outcomes] == ["timeout", "ok"] and outcomes[1].value == "after"


def test_a_task_that_raises_retires_its_worker():
    def boom():
        raise MemoryError("pretend the heap is broken")

    first, second = run_isolated([lambda: (os.getpid(), boom()), _pid], jobs=1)
    assert first.kind == "error" and "MemoryError" in first.message
    assert second.kind == "ok"


def test_what_a_task_changes_in_passing_is_undone_before_the_next(tmp_path):
    def meddle():
        os.chdir(tmp_path)
        os.environ["TMATH_MEDDLED"] = "1"
        sys.path.insert(0, str(tmp_path))
        warnings.simplefilter("error")
        random.seed(5)
        np.random.seed(5)
        return os.getpid()

    def look():
        return (os.getpid(), os.getcwd(), "TMATH_MEDDLED" in os.environ, str(tmp_path) in sys.path,
                warnings.filters[0][0] == "error", random.random(), np.random.random())

    before, _, after = (o.value for o in run_isolated([look, meddle, look], jobs=1))
    assert after[0] == before[0]  # the same worker, so the state really was restored
    assert after == before
    assert after[1:5] == (os.getcwd(), False, False, False)


def test_a_task_that_leaves_a_process_running_gets_it_killed_and_a_new_worker():
    def leave():
        return os.getpid(), subprocess.Popen(["sleep", "300"]).pid

    def orphan():  # a grandchild whose parent exits: it is reparented to the worker
        subprocess.run(["sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!"],
                       capture_output=True)
        return os.getpid()

    outcomes = list(run_isolated([leave, _pid, orphan, _pid], jobs=1))
    (worker, sleeper), after_leave, orphan_worker, after_orphan = (o.value for o in outcomes)
    assert after_leave != worker and after_orphan != orphan_worker
    deadline = time.monotonic() + 5
    while alive(sleeper) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(sleeper)


def test_a_task_that_breaks_what_the_worker_restores_costs_only_its_worker():
    def vandal():
        warnings.filters = None  # the worker cannot put the filters back in place
        return os.getpid()

    first, second = run_isolated([vandal, look_at_filters], jobs=1)
    assert first.kind == "ok" and second.kind == "ok"
    assert second.value[0] != first.value and second.value[1]  # a fresh worker, intact filters


def look_at_filters():
    return os.getpid(), isinstance(warnings.filters, list)


def test_tasks_of_a_group_stay_with_the_worker_that_has_it():
    """Claims of one module go to the worker that imported it: with two groups of four and
    two workers, each group runs in one process (and the outcomes keep their order). The
    workers go in step (task k of each group waits for the other's at a barrier): a worker
    that ran ahead would rightly take the other group's last task instead of idling."""
    step = multiprocessing.get_context("fork").Barrier(2)
    groups = ["a.py"] * 4 + ["b.py"] * 4
    tasks = [lambda i=i: (i, os.getpid(), step.wait(timeout=20)) for i in range(8)]
    outcomes = list(run_isolated(tasks, jobs=2, timeout=60, groups=groups))
    assert [o.kind for o in outcomes] == ["ok"] * 8
    assert [o.value[0] for o in outcomes] == list(range(8))
    pids = [o.value[1] for o in outcomes]
    assert len(set(pids[:4])) == 1 and len(set(pids[4:])) == 1 and pids[0] != pids[4]


def test_a_worker_that_runs_out_of_its_groups_takes_another_groups_task():
    """Affinity never idles a core: a worker done with its own group takes the next task of a
    group another worker holds (the fast worker here runs b's last tasks)."""
    groups = ["a.py"] * 2 + ["b.py"] * 4
    tasks = [lambda i=i: (i, os.getpid()) for i in range(2)] + \
        [lambda i=i: (i, os.getpid(), time.sleep(0.5)) for i in range(2, 6)]
    pids = [o.value[1] for o in run_isolated(tasks, jobs=2, groups=groups)]
    assert pids[0] == pids[1] and pids[2] != pids[0] and pids[0] in pids[3:]


def test_pending_tasks_go_first_to_the_worker_holding_their_group():
    from tmath.engine.parallel import _Pending

    pending = _Pending(6, ["a", "a", "b", "b", "c", "c"])
    assert pending.take(set()) == 0  # the first untouched group
    assert pending.take(set()) == 2  # another worker: a group no worker has touched
    assert pending.take({"b"}) == 3  # its own group first
    assert pending.take({"a"}) == 1
    assert pending.take({"a"}) == 4  # its group is done: an untouched one
    assert pending.take({"b"}) == 5  # nothing else left: any task
    assert not pending


def _blas_threads() -> tuple[str | None, list[int]]:
    from tmath.engine.blas_threads import _loaded_openblas

    counts = []
    for library in _loaded_openblas():
        for name in ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads",
                     "openblas_get_num_threads"):
            getter = getattr(library, name, None)
            if getter is not None:
                counts.append(int(getter()))
                break
    return os.environ.get("OPENBLAS_NUM_THREADS"), counts


def test_workers_side_by_side_share_the_cores_with_their_blas_threads(monkeypatch):
    """Two workers on two cores: each one's OpenBLAS (loaded before the fork, as here) gets
    one thread instead of one per core; a user's own setting is left alone."""
    from tmath.engine.parallel import usable_cores

    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    expected = max(1, usable_cores() // 2)
    variable, counts = run_isolated([_blas_threads, _blas_threads], jobs=2).__next__().value
    assert variable == str(expected) and counts and set(counts) == {expected}
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    [outcome, _] = run_isolated([_blas_threads, _blas_threads], jobs=2)
    assert outcome.value[0] == "3"


def test_one_by_one_runs_named_tasks_in_one_worker_and_replaces_a_broken_one():
    """The pytest plugin's front end: the caller names each task as it goes; a crash, a hang
    or an exception costs only that task, and the worker is kept while tasks leave it fit."""
    from tmath.engine.parallel import OneByOne

    def boom():
        raise RuntimeError("no")

    tasks = [_pid, lambda: os._exit(0), lambda: time.sleep(300), boom]
    pool = OneByOne(tasks, timeout=2)  # a fresh worker starts in milliseconds
    try:
        first, again = pool.run(0), pool.run(0)
        assert first.kind == again.kind == "ok" and first.value == again.value != os.getpid()
        crash = pool.run(1)
        assert crash.kind == "crash" and "exit code 0" in crash.message
        assert pool.run(2).kind == "timeout"
        error = pool.run(3)
        assert error.kind == "error" and "RuntimeError: no" in error.message
        after = pool.run(0)
        assert after.kind == "ok" and after.value != first.value
        pid = after.value
    finally:
        pool.close()
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)  # closing ends the worker
