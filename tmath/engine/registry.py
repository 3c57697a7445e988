"""Finding and loading claims: the built-in ones and any ``--claims DIR`` folders.

Every ``*.py`` file of a folder (not starting with ``_``) is a claims module, imported by path;
the ``@claim`` decorators it runs register claims. Loading fails closed: a module that does not
import, whatever it raises (``sys.exit(0)`` and ``KeyboardInterrupt`` included), becomes a
:class:`LoadError` naming its file and line, and so does anything among the claims modules that
is not a regular file (a FIFO, a socket, a folder, a symlink loop), which is never opened. The
other modules still load. What a module prints while it is imported is captured, never shown
on tmath's stdout.

A claims module may import helpers of its own folder relatively (``from ._shared import x``,
or a subpackage: ``from .lib import y``); claims modules cannot import each other. A claim's
results depend on its module and on every other file of its folder (see
:meth:`Claims.files_of`), so editing a helper runs its claims again.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Generic, Iterable, Sequence, TypeVar

from tmath.engine import cache
from tmath.engine import interrupts
from tmath.engine.capture import Captured
from tmath.engine.folders import (NOT_INPUTS, builtin_claims_dir,  # noqa: F401 -- re-exported
                                  claim_folders, claim_modules, helper_files, index_key,
                                  kind_problem, module_problem)
from tmath.engine.info import ClaimInfo
from tmath.errors import LoadError, TmathError, UsageError

if TYPE_CHECKING:
    from tmath.engine.model import ClaimSpec
# The claim classes (tmath.engine.model) are imported where claims are imported: reading the
# index (`tmath list`, a cached run) needs only the records of tmath.engine.info.

MAX_MODULE_BYTES = 8 * 2**20
"""A claims module larger than this is a load error (the built-in ones are under 40 kB)."""

T = TypeVar("T", "ClaimSpec", ClaimInfo)


@dataclass
class Claims(Generic[T]):
    """Claims by id in section order, what failed to load, and how to select among them."""

    claims: dict[str, T] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)
    extra_dirs: tuple[Path, ...] = ()
    builtin: bool = True
    rejected: dict[str, LoadError] = field(default_factory=dict)
    """Claims that were defined but not registered (a cycle, an unknown dependency)."""
    outputs: dict[str, str] = field(default_factory=dict)
    """What each claims module printed while it was imported, by path (when anything)."""
    _folder_files: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def __iter__(self):
        return iter(self.claims.values())

    def __len__(self) -> int:
        return len(self.claims)

    def get(self, claim_id: str) -> T:
        try:
            return self.claims[claim_id]
        except KeyError:
            raise self._unknown(claim_id) from None

    def select(self, ids: Sequence[str]) -> list[T]:
        """Claims named by ``ids`` ("all" selects every claim), in registry order."""
        if not ids or "all" in ids:
            return list(self.claims.values())
        unknown = [i for i in ids if i not in self.claims]
        if unknown:
            raise self._unknown(unknown[0])
        wanted = set(ids)
        return [c for c in self.claims.values() if c.id in wanted]

    def _unknown(self, claim_id: str) -> Exception:
        """A claim that did not load is a load error (exit 3), not a usage error (exit 2)."""
        if claim_id in self.rejected:
            error = self.rejected[claim_id]
            return LoadError(error.path, error.line,
                             f"claim {claim_id!r} could not be loaded: {error.message}")
        message = unknown_id_message(claim_id, self.claims)
        if self.errors:
            return TmathError(f"{message} ({len(self.errors)} claims module(s) could not be "
                              "loaded; it may be defined there)")
        return UsageError(message)

    def with_dependencies(self, selected: Iterable[T]) -> list[T]:
        """The selection plus everything it depends on, in registry order."""
        needed: set[str] = set()
        stack = [c.id for c in selected]
        while stack:
            current = stack.pop()
            if current in needed:
                continue
            needed.add(current)
            stack.extend(self.claims[current].depends_on)
        return [c for c in self.claims.values() if c.id in needed]

    def dependants(self, claim_id: str) -> list[str]:
        return [c.id for c in self.claims.values() if claim_id in c.depends_on]

    def files_of(self, claim_id: str) -> list[str]:
        """Every file a claim's results depend on: its module, every file of its folder that
        is not another claims module (helpers, subfolders, data), and the same for each claim
        it builds on. Translations, bytecode and hidden folders are left out."""
        files: dict[str, None] = {}
        for claim in self.with_dependencies([self.claims[claim_id]]):
            files[claim.path] = None
            files.update(dict.fromkeys(self._helpers(str(Path(claim.path).parent))))
        return list(files)

    def input_files(self) -> list[str]:
        """Every file of the claims folders (what an output must never overwrite)."""
        found: dict[str, None] = {}
        for claim in self.claims.values():
            found[claim.path] = None
        for error in self.errors:
            found[error.path] = None
        for folder in {str(Path(c.path).parent) for c in self.claims.values()}:
            found.update(dict.fromkeys(self._helpers(folder)))
        return list(found)

    def _helpers(self, folder: str) -> tuple[str, ...]:
        if folder not in self._folder_files:
            self._folder_files[folder] = tuple(helper_files(Path(folder)))
        return self._folder_files[folder]

    @property
    def load_arguments(self) -> tuple[str, ...]:
        """The command-line arguments that load these claims again (for reproduce commands)."""
        args: list[str] = []
        for folder in self.extra_dirs:
            args += ["--claims", str(folder)]
        return tuple(args) + (() if self.builtin else ("--no-builtin",))


class Registry(Claims["ClaimSpec"]):
    """Fully imported claims, ready to run."""


@dataclass
class Catalog(Claims[ClaimInfo]):
    """Claim metadata, read from the index when no claim file changed (no heavy imports)."""

    _registry: Registry | None = None
    _imported: dict[str, tuple[list[ClaimSpec], list[LoadError], dict[str, str]]] = \
        field(default_factory=dict, repr=False)

    @property
    def nothing_imported(self) -> bool:
        """No claims module has been imported in this process for this catalog (it came
        from a fresh index)."""
        return self._registry is None and not self._imported

    def registry(self) -> Registry:
        """Import the claims modules (once) to run proofs and checks."""
        if self._registry is None:
            folders = claim_folders(self.extra_dirs, self.builtin)
            registry = Registry(extra_dirs=self.extra_dirs, builtin=self.builtin)
            _merge(registry, [self._imported.pop(str(f), None) or _import_folder(f)
                              for f in folders])
            _attach_lemmas(registry)
            self._share_metadata(registry)
            self._registry = registry
        return self._registry

    def _share_metadata(self, registry: Registry) -> None:
        """Give each imported claim the metadata this catalog already holds for it (built
        from the same files by the same engine, or the index would have been rebuilt), so a
        worker does not typeset every statement again in four forms."""
        for spec in registry:
            known = self.claims.get(spec.id)
            if known is not None and known.path == spec.path and "info" not in vars(spec):
                vars(spec)["info"] = known


def unknown_id_message(claim_id: str, known: Iterable[str]) -> str:
    known = list(known)
    import difflib

    close = difflib.get_close_matches(claim_id, known, n=3, cutoff=0.5)
    close += [k for k in known if claim_id in k and k not in close][: 5 - len(close)]
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return f"no claim with id {claim_id!r}{hint} (`tmath list` shows every id)"


# -- importing ------------------------------------------------------------------------------------

def _import_folder(folder: Path) -> tuple[list[ClaimSpec], list[LoadError], dict[str, str]]:
    paths, errors = claim_modules(folder)
    _forget_helpers(folder)
    specs, outputs = [], {}
    for path in paths:
        try:
            taken, printed = _import_claims(path)
            specs.extend(taken)
        except LoadError as error:
            errors.append(error)
            printed = getattr(error, "output", "")
        if printed:
            outputs[str(path)] = printed
    return specs, errors, outputs


def _merge(claims: Claims, per_folder: Iterable[tuple[list, list[LoadError], dict]]) -> None:
    """Combine folders: duplicate ids, unknown dependencies and cycles become load errors."""
    for items, errors, outputs in per_folder:
        claims.errors.extend(errors)
        claims.outputs.update(outputs)
        for item in items:
            if item.id in claims.claims:
                first = claims.claims[item.id]
                claims.errors.append(LoadError(
                    item.path, item.line,
                    f"claim id {item.id!r} is already defined in {first.path}:{first.line}; "
                    "rename one of them"))
                continue
            claims.claims[item.id] = item
    _check_dependencies(claims)
    claims.claims = dict(sorted(claims.claims.items(), key=lambda kv: _order(kv[1])))


def _attach_lemmas(registry: Registry) -> None:
    """Give each claim the statements of the claims it builds on: its proof cites them."""
    for claim_id, spec in list(registry.claims.items()):
        if spec.depends_on:
            lemmas = tuple((d, registry.claims[d].statement) for d in spec.depends_on
                           if d in registry.claims)
            registry.claims[claim_id] = dataclasses.replace(spec, lemmas=lemmas)


def load(extra_dirs: Sequence[Path] = (), builtin: bool = True) -> Registry:
    """Import the built-in claims (unless ``builtin`` is False) and the claims in
    ``extra_dirs``."""
    registry = Registry(extra_dirs=tuple(Path(d) for d in extra_dirs), builtin=builtin)
    _merge(registry, [_import_folder(f) for f in claim_folders(extra_dirs, builtin)])
    _attach_lemmas(registry)
    return registry


def load_spec(info: ClaimInfo) -> ClaimSpec:
    """Import only the module that defines ``info`` (for a plot, say) and return its claim."""
    problem = module_problem(Path(info.path))
    if problem:
        raise LoadError(info.path, None, problem)
    specs, _ = _import_claims(Path(info.path))
    for spec in specs:
        if spec.id == info.id:
            return spec
    raise LoadError(info.path, info.line, f"claim {info.id!r} is no longer defined here")


@dataclass(frozen=True)
class _ErrorRecord:
    path: str
    line: int | None
    message: str


@dataclass(frozen=True)
class FolderIndex:
    """What the index keeps of one claims folder: metadata, load errors, import output."""

    claims: tuple[ClaimInfo, ...]
    errors: tuple[_ErrorRecord, ...]
    outputs: tuple[tuple[str, str], ...]


def catalog(extra_dirs: Sequence[Path] = (), builtin: bool = True,
            use_index: bool = True) -> Catalog:
    """Claim metadata for ``list`` and for cached runs, without importing the claims when
    the index is fresh (it is rebuilt when any file of a claims folder or the engine
    changes). ``builtin=False`` loads only ``extra_dirs``."""
    folders = claim_folders(extra_dirs, builtin)
    store = cache.Store("index", enabled=use_index)
    result = Catalog(extra_dirs=tuple(Path(d) for d in extra_dirs), builtin=builtin)
    per_folder = []
    for folder in folders:
        key = index_key(folder)
        entry = store.get(key, FolderIndex)
        if entry is None:
            imported = _import_folder(folder)
            result._imported[str(folder)] = imported
            specs, errors, outputs = imported
            entry = FolderIndex(tuple(s.info for s in specs),
                                tuple(_ErrorRecord(e.path, e.line, e.message) for e in errors),
                                tuple(outputs.items()))
            store.put(key, entry, FolderIndex)
        per_folder.append((list(entry.claims), [LoadError(e.path, e.line, e.message)
                                                for e in entry.errors], dict(entry.outputs)))
    _merge(result, per_folder)
    return result


def _order(spec: ClaimSpec) -> tuple:
    return tuple(int(part) for part in spec.section.split(".")), spec.path, spec.line or 0


def _package(folder: Path) -> str:
    """The package a folder's modules belong to, so relative imports reach its helpers."""
    name = "tmath_claims_" + hashlib.sha1(str(folder).encode()).hexdigest()[:10]
    if name not in sys.modules:
        package = types.ModuleType(name, f"claims folder {folder}")
        package.__path__ = [str(folder)]
        package.__package__ = name
        sys.modules[name] = package
        _HelperFinder.folders[name] = folder
    return name


def _forget_helpers(folder: Path) -> None:
    """Drop the folder's helpers imported earlier, so importing it again sees their edits."""
    prefix = _package(folder) + "."
    for name in [m for m in sys.modules if m.startswith(prefix)]:
        del sys.modules[name]


class _HelperFinder:
    """Lets a claims module import its folder's helpers (``_name`` modules, subpackages),
    never another claims module: their claims would then be keyed without it."""

    folders: dict[str, Path] = {}

    def find_spec(self, fullname, path=None, target=None):
        package, _, rest = fullname.partition(".")
        if package in self.folders and rest and "." not in rest and not rest.startswith("_") \
                and not (self.folders[package] / rest).is_dir():
            raise ImportError(
                f"claims modules cannot import each other ({rest!r}); move what they share "
                f"into a helper module whose name starts with _ (e.g. _{rest}.py)")
        return None


if not any(isinstance(f, _HelperFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _HelperFinder())


def _import_claims(path: Path) -> tuple[list[ClaimSpec], str]:
    """Import one claims module by path; its claims and what it printed. Whatever goes wrong
    is a LoadError (with ``output``, what the module printed); a real Ctrl-C or SIGTERM still
    stops the run."""
    import importlib.util

    from tmath.engine import model

    path = Path(os.path.abspath(path))
    package = _package(path.parent)
    name = f"{package}.{path.stem}-claims"  # not an importable name: siblings cannot reach it
    model.collected()  # drop anything registered outside a loader call
    capture = Captured()
    watch = interrupts.Watch(recording=False)
    error: LoadError | None = None
    try:
        with interrupts.watched() as watch, capture:
            source = _read_source(path)
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None:
                raise LoadError(str(path), None, "not an importable Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            exec(compile(source, str(path), "exec", dont_inherit=True), module.__dict__)
    except LoadError as exc:
        error = exc
    except SyntaxError as exc:
        error = LoadError(str(path), exc.lineno, f"syntax error: {exc.msg}")
    except BaseException as exc:  # noqa: BLE001 -- SystemExit and KeyboardInterrupt included
        if isinstance(exc, KeyboardInterrupt) and watch.arrived():
            raise
        error = LoadError(str(path), _line_in(path, exc), _describe(exc))
    finally:
        taken = model.collected()
    if error is not None:
        sys.modules.pop(name, None)
        error.output = capture.text
        raise error
    return taken, capture.text


def _read_source(path: Path) -> bytes:
    """A module's bytes: opened without blocking, and only if it is a regular file."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        problem = kind_problem(info.st_mode)
        if problem:
            raise LoadError(str(path), None, problem)
        if info.st_size > MAX_MODULE_BYTES:
            raise LoadError(str(path), None, f"is {info.st_size} bytes; a claims module may "
                                             f"have at most {MAX_MODULE_BYTES // 2**20} MB")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return (f"the module called sys.exit({exc.code!r}) while it was imported; a claims "
                "module must not exit (nothing was verified)")
    if isinstance(exc, KeyboardInterrupt):
        return "the module raised KeyboardInterrupt while it was imported"
    if isinstance(exc, OSError) and exc.filename and exc.strerror:
        return f"{type(exc).__name__}: {exc.strerror}: {exc.filename}"
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()
    return text[0] if text else type(exc).__name__


def _line_in(path: Path, exc: BaseException) -> int | None:
    import traceback

    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
             if f.filename == str(path)]
    return lines[-1] if lines else None


def _check_dependencies(registry: Claims) -> None:
    for spec in list(registry.claims.values()):
        missing = [d for d in spec.depends_on if d not in registry.claims]
        if missing:
            error = LoadError(
                spec.path, spec.line,
                f"claim {spec.id!r} depends on unknown claim(s) {', '.join(missing)}; "
                "fix depends_on or load the folder that defines them")
            registry.errors.append(error)
            registry.rejected[spec.id] = error
            del registry.claims[spec.id]
    state: dict[str, int] = {}

    def visit(claim_id: str, path: list[str]) -> None:
        if state.get(claim_id) == 2:
            return
        if state.get(claim_id) == 1:
            cycle = path[path.index(claim_id):] + [claim_id]
            spec = registry.claims[claim_id]
            text = (f"claim {claim_id!r} depends on itself; remove it from depends_on"
                    if len(cycle) == 2 else "dependency cycle: " + " → ".join(cycle))
            error = LoadError(spec.path, spec.line, text)
            error.cycle = cycle
            raise error
        state[claim_id] = 1
        for dep in registry.claims[claim_id].depends_on:
            if dep in registry.claims:
                visit(dep, path + [claim_id])
        state[claim_id] = 2

    for claim_id in list(registry.claims):
        try:
            visit(claim_id, [])
        except LoadError as error:
            registry.errors.append(error)
            for member in set(error.cycle):
                registry.claims.pop(member, None)
                registry.rejected[member] = error
                state[member] = 2
