"""How many threads the linear-algebra libraries of one worker may use.

With ``-j 2`` on two cores each worker already has a core; OpenBLAS starting its own thread
per core inside each worker only makes the threads compete (and OpenBLAS threads spin while
they wait): a cold ``verify all -j 2`` used 9.7 s of CPU with them and 8.9 s without. Like
joblib, a worker gets ``cores // jobs`` threads (at least 1). A library not loaded yet reads
the usual variables; an OpenBLAS already loaded (inherited from the parent) is told through
its own function. Variables the user set are left alone.
"""

from __future__ import annotations

import ctypes
import os

VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")


def limit(cores: int, jobs: int) -> int | None:
    """In a worker: let linear algebra use ``cores // jobs`` threads. Returns the number, or
    None when the user chose one already (any of :data:`VARIABLES` set)."""
    if any(name in os.environ for name in VARIABLES):
        return None
    threads = max(1, cores // max(1, jobs))
    for name in VARIABLES:
        os.environ[name] = str(threads)
    for library in _loaded_openblas():
        for name in _SETTERS:
            setter = getattr(library, name, None)
            if setter is not None:
                setter(threads)
                break
    return threads


def _loaded_openblas() -> list[ctypes.CDLL]:
    """The OpenBLAS libraries this process has loaded (NumPy's and SciPy's each have one)."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            paths = {parts[-1] for parts in map(str.split, maps)
                     if len(parts) >= 6 and "openblas" in parts[-1].lower() and ".so" in parts[-1]}
    except OSError:
        return []
    found = []
    for path in sorted(paths):
        try:
            found.append(ctypes.CDLL(path, mode=os.RTLD_NOLOAD | os.RTLD_NOW))
        except OSError:
            continue
    return found
