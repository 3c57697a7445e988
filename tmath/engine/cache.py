"""On-disk caches: the claim index (metadata) and results of proofs, checks and plots.

Both live in ``$XDG_CACHE_HOME/tmath`` (``~/.cache/tmath`` by default). An entry is a JSON file
of the result object (:mod:`tmath.engine.serialize`), never pickle: reading the cache parses
data and cannot run code. A result is stored under a key that hashes everything it depends
on: the claim's module and every other file of its folder (helpers, subfolders, data; see
:func:`tmath.engine.registry.Claims.files_of`), the same for the claims it builds on, every
source file of the tmath engine, the versions of Python, NumPy, SciPy and SymPy, the seed and
the kind of run. Changing any of them changes the key, so a stale result is never served.

An entry also records what it is: the claim id, the kind of run, its key, the tmath version,
the seed and the SHA-256 digest of every file it depends on. It is served only when all of
them match what is being asked for and its value has exactly the shape of the result class;
anything else (a file that does not parse, another claim's entry copied under this key, a
changed file, a symlink or FIFO in the cache folder) is a miss, never a crash. A cache that
cannot be written is silently skipped.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import hashlib
import importlib
import json
import os
import platform
import shutil
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from tmath import __version__

PACKAGE_DIR = Path(__file__).resolve().parents[1]
# What can change a proof or a check: the engine, the reference implementations claims build
# on, and the shared settings. Commands, renderers, the gate and translations only present
# results or read documents, so editing them does not invalidate cached results.
COMPUTING = ("engine", "reference", "latex", "meaning", "defaults.py", "errors.py", "__init__.py",
             "render/linear.py", "render/minus.py")
"""What a result depends on besides its claims (render/linear.py: results hold typeset math)."""
FORMAT = "tmath-cache/3"
"""Changes whenever the layout of an entry changes (old entries are then misses)."""
MAX_ENTRY_BYTES = 64 * 2**20
"""Larger files in the cache folder are not read (a result is a few kilobytes)."""


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/tmath``; a relative XDG_CACHE_HOME is ignored, as the spec says."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tmath"


def file_hash(path: str) -> str:
    """SHA-256 of a regular file's content (memoized while its size and modification time
    stay the same); "missing" for anything that is not a readable regular file."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return "missing"
    if not stat.S_ISREG(info.st_mode):
        return "missing"
    return _content_hash(path, info.st_mtime_ns, info.st_size, info.st_ino)


@functools.lru_cache(maxsize=4096)
def _content_hash(path: str, mtime_ns: int, size: int, inode: int) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return "missing"
    digest = hashlib.sha256()
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "missing"
        while chunk := os.read(fd, 1 << 20):
            digest.update(chunk)
    except OSError:
        return "missing"
    finally:
        os.close(fd)
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def engine_hash() -> str:
    """SHA-256 over the version and every file of the code that computes results (by path
    and content): any edit there makes every entry a miss."""
    digest = hashlib.sha256(__version__.encode())
    base = str(PACKAGE_DIR)
    for part in COMPUTING:
        root = os.path.join(base, part)
        _add_files(digest, base, sorted(_python_files(root)) if os.path.isdir(root) else [root])
    return digest.hexdigest()


def code_digest(root: Path) -> str:
    """SHA-256 (16 hex digits) over every ``.py`` file under ``root``, subfolders included, by
    path and content, as :func:`engine_hash` hashes the engine: a file changed, added or
    moved changes it."""
    digest = hashlib.sha256()
    _add_files(digest, str(root), sorted(_python_files(str(root))))
    return digest.hexdigest()[:16]


def _add_files(digest: Any, base: str, paths: Iterable[str]) -> None:
    for path in paths:
        digest.update(os.path.relpath(path, base).encode())
        with open(path, "rb") as handle:
            digest.update(handle.read())


def _python_files(root: str) -> list[str]:
    """The ``.py`` files under ``root`` (os.scandir: pathlib's rglob takes twice as long, and
    every command that reads the cache pays for this walk)."""
    found, folders = [], [root]
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                elif entry.name.endswith(".py"):
                    found.append(entry.path)
    return found


@functools.lru_cache(maxsize=1)
def library_versions() -> str:
    names = ("numpy", "scipy", "sympy")
    found = installed_versions(names)
    return ";".join([platform.python_version(), *(f"{n}={found[n]}" for n in names)])


def installed_version(name: str) -> str:
    """The version of an installed distribution (see :func:`installed_versions`)."""
    return installed_versions((name,))[name]


def installed_versions(names: Iterable[str]) -> dict[str, str]:
    """The versions of installed distributions, read from the names of their ``.dist-info``
    folders on ``sys.path`` (what ``importlib.metadata`` finds first, without the 20 ms it
    takes to import and parse METADATA; each folder of the path is listed once); "?" for one
    that is not installed."""
    wanted = {f"{name}-": name for name in names}
    versions: dict[str, str] = {}
    for entry in sys.path:
        if len(versions) == len(wanted):
            break
        try:
            listing = os.listdir(entry or ".")
        except OSError:
            continue
        for found in listing:
            if not found.endswith(".dist-info"):
                continue
            lowered = found.lower()
            for prefix, name in wanted.items():
                if name not in versions and lowered.startswith(prefix):
                    versions[name] = found[len(prefix):-len(".dist-info")]
    for name in wanted.values():
        if name not in versions:
            versions[name] = _metadata_version(name)
    return versions


def _metadata_version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


def digest(*parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode())
        h.update(b"\0")
    return h.hexdigest()


@dataclass(frozen=True)
class Key:
    """Where an entry lives, and what the entry must say about itself to be served."""

    digest: str
    kind: str
    claim: str
    files: tuple[tuple[str, str], ...]
    """(path, SHA-256) of every file the entry depends on, sorted by path."""
    seed: int | None = None

    def __str__(self) -> str:
        return self.digest


def make_key(kind: str, claim: str, files: Iterable[str], seed: int | None,
             *extra: Any) -> Key:
    """A key over ``files`` (by content, not by where they are), the engine and ``extra``."""
    recorded = tuple(sorted({(str(f), file_hash(str(f))) for f in files}))
    contents = sorted(sha for _, sha in recorded)
    return Key(digest(FORMAT, kind, claim, contents, seed, engine_hash(), *extra),
               kind, claim, recorded, seed)


STORES = ("results", "index", "listing", "formulas", "recognition", "binding")
"""The folders of :func:`cache_dir` that hold tmath's entries: :func:`clear` empties these,
and a :class:`Store` can only be one of them."""


class Store:
    """A folder of JSON entries addressed by :class:`Key`; every failure reads as a miss."""

    def __init__(self, name: str, enabled: bool = True) -> None:
        if name not in STORES:   # or `tmath cache clear` would leave its entries behind
            raise ValueError(f"store {name!r} is not one of cache.STORES; add it there")
        self.folder = cache_dir() / name
        self.enabled = enabled

    def path(self, key: Key) -> Path:
        return self.folder / f"{key.digest}.json"

    def get(self, key: Key, hint: Any) -> Any | None:
        """The value stored under ``key`` if the entry is exactly what ``key`` asks for."""
        if not self.enabled:
            return None
        try:
            with _collector_paused():
                entry = json.loads(_read_regular(self.path(key)))
                return _validated(entry, key, hint)
        except Exception:  # noqa: BLE001 -- whatever is wrong with an entry, it is a miss
            return None

    def put(self, key: Key, value: Any, hint: Any) -> None:
        if not self.enabled:
            return
        from tmath.engine.serialize import to_jsonable

        tmp = None
        try:
            entry = {"format": FORMAT, "tmath": __version__, "kind": key.kind,
                     "claim": key.claim, "key": key.digest, "seed": key.seed,
                     "files": [list(f) for f in key.files],
                     "value": to_jsonable(value, hint)}
            # ASCII with \u escapes: one character beyond the BMP (𝟙, say) would make the whole
            # text UCS-4 for the reader, and decoding it takes longer than the escapes do
            data = json.dumps(entry, ensure_ascii=True, allow_nan=False).encode("ascii")
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, self.path(key))
            tmp = None
        except Exception:  # noqa: BLE001 -- a cache that cannot be written is skipped
            pass
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass


@contextlib.contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off while an entry is decoded. Decoding builds
    thousands of acyclic objects (the index holds every claim's metadata), and each batch of
    allocations would set off a collection that walks them all again: 3 ms of `tmath list`."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file: never follows a symlink, never blocks on a FIFO."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            raise ValueError("not a cache entry")
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            size += len(chunk)
            if size > MAX_ENTRY_BYTES:
                raise ValueError("cache entry too large")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _validated(entry: Any, key: Key, hint: Any) -> Any:
    from tmath.engine.serialize import ShapeError, from_jsonable

    expected = {"format": FORMAT, "tmath": __version__, "kind": key.kind, "claim": key.claim,
                "key": key.digest, "seed": key.seed, "files": [list(f) for f in key.files]}
    if not isinstance(entry, dict) or set(entry) != {*expected, "value"}:
        raise ShapeError("not a cache entry")
    for name, value in expected.items():
        if entry[name] != value or type(entry[name]) is not type(value):
            raise ShapeError(f"entry is for another {name}")
    value = from_jsonable(hint, entry["value"])
    info = getattr(value, "info", None)
    if info is not None and getattr(info, "id", None) != key.claim:
        raise ShapeError("entry holds another claim's result")
    if key.seed is not None and getattr(value, "seed", key.seed) != key.seed:
        raise ShapeError("entry holds a result of another seed")
    return value


RESULT_TYPES = {"verify": ("tmath.engine.results", "ClaimResult"),
                "audit": ("tmath.engine.results", "AuditResult"),
                "plot": ("tmath.engine.plots", "Plot"),
                "picture": ("tmath.engine.plots", "Picture")}
"""The class of the value each kind of run stores (imported when first needed)."""


def result_type(kind: str) -> type:
    module, name = RESULT_TYPES[kind]
    return getattr(importlib.import_module(module), name)


class ResultCache(Store):
    """Results of ``verify``, ``audit``, plots and their pictures, keyed by everything they
    depend on (a picture also by the drawing code and matplotlib's version)."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__("results", enabled)

    def key(self, kind: str, claim_id: str, files: Iterable[str], seed: int,
            *extra: Any) -> Key:
        return make_key(kind, claim_id, files, seed, library_versions(), *extra)

    def get(self, key: Key, hint: Any = None) -> Any | None:
        if key.kind not in RESULT_TYPES:
            return None
        return super().get(key, hint or result_type(key.kind))

    def put(self, key: Key, value: Any, hint: Any = None) -> None:
        if key.kind in RESULT_TYPES:
            super().put(key, value, hint or result_type(key.kind))


def clear() -> tuple[int, list[str]]:
    """Delete tmath's own cached files (the entries and temporary files of its stores);
    return how many were removed and what could not be.

    The cache folder (or a store folder) may be a symbolic link, to a larger disk say: the
    link is followed and kept, and only tmath's entries are removed from its target, never
    anything else that lives there."""
    folder = cache_dir()
    if not folder.is_dir():
        return 0, []
    removed, failed = 0, []
    for name in STORES:
        store = folder / name
        try:
            entries = list(os.scandir(store))
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            failed.append(f"{store}: {exc.strerror}")
            continue
        for entry in entries:
            if not _is_entry(entry):
                continue
            try:
                os.unlink(entry.path)
                removed += 1
            except OSError as exc:
                failed.append(f"{entry.path}: {exc.strerror}")
        if not store.is_symlink():
            _remove_if_empty(store)
    if not folder.is_symlink():
        _remove_if_empty(folder)
    return removed, failed


def _is_entry(entry: os.DirEntry) -> bool:
    """An entry (``<sha256>.json``) or a temporary file a :class:`Store` wrote."""
    if entry.is_dir(follow_symlinks=False):
        return False
    stem, dot, suffix = entry.name.partition(".")
    return entry.name.startswith(".tmp-") or (
        dot == "." and suffix == "json" and len(stem) == 64 and
        all(c in "0123456789abcdef" for c in stem))


def _remove_if_empty(folder: Path) -> None:
    try:
        os.rmdir(folder)
    except OSError:
        pass
