"""What a claims folder holds, found without importing anything from it.

The claims modules (every ``*.py`` not starting with ``_``, checked with lstat/stat so a FIFO or
a socket is never opened), the helper files its results also depend on, and the key of the
folder's entry in the metadata index. ``tmath list`` reads the index through these alone.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Sequence

from tmath.engine import cache
from tmath.errors import LoadError, UsageError

NOT_INPUTS = ("__pycache__", "locale")
"""Folders of a claims folder that results do not depend on: compiled bytecode, and the
translations (``locale/``), which only change how results are shown. Hidden folders (``.git``,
``.venv``) are skipped too."""


def builtin_claims_dir() -> Path:
    """The claims shipped with tmath: inside the installed package, or ``claims/`` in a checkout."""
    here = Path(__file__).resolve().parents[1]  # the tmath package
    for candidate in (here / "_builtin_claims", here.parent / "claims"):
        if candidate.is_dir():
            return candidate
    raise LoadError(str(here), None, "the built-in claims are missing from this installation")


def claim_folders(extra_dirs: Sequence[Path], builtin: bool) -> list[Path]:
    """The folders to load, each once (``--claims`` naming the same folder twice, or the
    built-in one, loads it once)."""
    folders = ([builtin_claims_dir()] if builtin else []) + [Path(d) for d in extra_dirs]
    unique: dict[str, Path] = {}
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(f"claims folder not found: {folder}")
        unique.setdefault(os.path.realpath(folder), Path(os.path.abspath(folder)))
    return list(unique.values())


def claim_modules(folder: Path) -> tuple[list[Path], list[LoadError]]:
    """The claims modules of a folder, and a load error for each ``*.py`` entry that is not
    a regular file (checked with lstat/stat, so a FIFO or a socket is never opened)."""
    paths, errors = [], []
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        return [], [LoadError(str(folder), None, f"cannot list the folder: {exc.strerror}")]
    for name in names:
        if not name.endswith(".py") or name.startswith("_"):
            continue
        path = folder / name
        problem = module_problem(path)
        if problem:
            errors.append(LoadError(str(path), None, problem))
        else:
            paths.append(path)
    return paths, errors


def module_problem(path: Path) -> str | None:
    """Why ``path`` cannot be a claims module (a broken link, not a regular file), or None."""
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            info = os.stat(path)
    except OSError as exc:
        if _is_link(path):
            return f"is a symbolic link that leads nowhere ({exc.strerror}); fix or remove it"
        return f"cannot read it: {exc.strerror}"
    return kind_problem(info.st_mode)


def _is_link(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def kind_problem(mode: int) -> str | None:
    """Why a file of this mode is not a claims module (a folder, a FIFO, ...), or None."""
    if stat.S_ISREG(mode):
        return None
    kind = ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "a device" if stat.S_ISCHR(mode)
            or stat.S_ISBLK(mode) else "not a regular file")
    return f"is {kind}, not a Python file; a claims module must be a regular *.py file " \
           "(rename or remove it)"


def helper_files(folder: Path) -> list[str]:
    """Every regular file of ``folder`` except its claims modules, sorted (subfolders included;
    bytecode, translations and hidden folders left out; symlinked folders not followed)."""
    found = []
    for root, dirs, files in os.walk(folder):
        top = Path(root) == folder
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and not (d == "__pycache__" or (top and d in NOT_INPUTS)))
        for name in sorted(files):
            if top and name.endswith(".py") and not name.startswith("_"):
                continue  # another claims module: its claims have their own keys
            path = os.path.join(root, name)
            try:
                if stat.S_ISREG(os.stat(path).st_mode):
                    found.append(path)
            except OSError:
                found.append(path)  # a broken link: hashed as "missing", still part of the key
    return found


def index_key(folder: Path) -> cache.Key:
    """The key of the folder's entry in the metadata index: its modules and helper files by
    content, the engine, the libraries, and the modules that cannot be read."""
    modules, problems = claim_modules(folder)
    return cache.make_key("index", str(folder), [*map(str, modules), *helper_files(folder)],
                          None, cache.library_versions(), [(e.path, e.message) for e in problems])
