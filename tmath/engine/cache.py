"""On-disk caches: the claim index (metadata) and results of proofs and checks.

Both live in ``$XDG_CACHE_HOME/tmath`` (``~/.cache/tmath`` by default). A result is stored
under a key that hashes everything it depends on: the claim's source file and those of the
claims it builds on, every source file of the tmath engine, the versions of Python, NumPy,
SciPy and SymPy, the seed and the kind of run. Changing any of them changes the key, so a
stale result is never served. A cache that cannot be written is silently skipped.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import platform
import shutil
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

from tmath import __version__

PACKAGE_DIR = Path(__file__).resolve().parents[1]
# What can change a proof or a check: the engine, the reference implementations claims build
# on, and the shared settings. Commands, renderers, the gate and translations only present
# results or read documents, so editing them does not invalidate cached results.
COMPUTING = ("engine", "reference", "defaults.py", "errors.py", "__init__.py")


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tmath"


def file_hash(path: str) -> str:
    """Content hash of a file (memoized while its size and modification time stay the same)."""
    try:
        stat = os.stat(path)
    except OSError:
        return "missing"
    return _content_hash(path, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=None)
def _content_hash(path: str, mtime_ns: int, size: int) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return "missing"


@functools.lru_cache(maxsize=1)
def engine_hash() -> str:
    digest = hashlib.sha256(__version__.encode())
    for part in COMPUTING:
        root = PACKAGE_DIR / part
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def library_versions() -> str:
    versions = [platform.python_version()]
    for name in ("numpy", "scipy", "sympy"):
        try:
            versions.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}=?")
    return ";".join(versions)


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()


class Store:
    """A folder of pickled values addressed by key; every failure reads as a miss."""

    def __init__(self, name: str, enabled: bool = True) -> None:
        self.folder = cache_dir() / name
        self.enabled = enabled

    def get(self, key: str) -> Any | None:
        if not self.enabled:
            return None
        try:
            with open(self.folder / f"{key}.pickle", "rb") as handle:
                return pickle.load(handle)
        except Exception:
            return None

    def put(self, key: str, value: Any) -> None:
        if not self.enabled:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, self.folder / f"{key}.pickle")
        except Exception:
            pass


class ResultCache(Store):
    """Results of ``verify`` and ``audit`` runs, keyed by everything they depend on."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__("results", enabled)

    def key(self, kind: str, claim_id: str, files: Iterable[str], seed: int) -> str:
        return digest(kind, claim_id, sorted(file_hash(f) for f in set(files)), seed,
                      engine_hash(), library_versions())


def clear() -> int:
    """Delete every cached file; return how many there were."""
    folder = cache_dir()
    if not folder.exists():
        return 0
    count = sum(1 for p in folder.rglob("*") if p.is_file())
    shutil.rmtree(folder, ignore_errors=True)
    return count
