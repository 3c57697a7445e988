"""Finding and loading claims: the built-in ones and any ``--claims DIR`` folders.

Every ``*.py`` file of a folder (not starting with ``_``) is imported by path; the ``@claim``
decorators it runs register claims. A module that fails to import becomes a :class:`LoadError`
naming its file and line, and the other modules still load.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Iterable, Sequence, TypeVar

from tmath.engine import cache
from tmath.engine import model
from tmath.errors import LoadError, UsageError
from tmath.engine.model import ClaimInfo, ClaimSpec


def builtin_claims_dir() -> Path:
    """The claims shipped with tmath: inside the installed package, or ``claims/`` in a checkout."""
    here = Path(__file__).resolve().parents[1]  # the tmath package
    for candidate in (here / "_builtin_claims", here.parent / "claims"):
        if candidate.is_dir():
            return candidate
    raise LoadError(str(here), None, "the built-in claims are missing from this installation")


T = TypeVar("T", ClaimSpec, ClaimInfo)


@dataclass
class Claims(Generic[T]):
    """Claims by id in section order, what failed to load, and how to select among them."""

    claims: dict[str, T] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)

    def __iter__(self):
        return iter(self.claims.values())

    def __len__(self) -> int:
        return len(self.claims)

    def get(self, claim_id: str) -> T:
        try:
            return self.claims[claim_id]
        except KeyError:
            raise UsageError(unknown_id_message(claim_id, self.claims)) from None

    def select(self, ids: Sequence[str]) -> list[T]:
        """Claims named by ``ids`` ("all" selects every claim), in registry order."""
        if not ids or "all" in ids:
            return list(self.claims.values())
        unknown = [i for i in ids if i not in self.claims]
        if unknown:
            raise UsageError(unknown_id_message(unknown[0], self.claims))
        wanted = set(ids)
        return [c for c in self.claims.values() if c.id in wanted]

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
        """Source files a claim's results depend on: its module and those of its dependencies."""
        return [c.path for c in self.with_dependencies([self.claims[claim_id]])]


class Registry(Claims[ClaimSpec]):
    """Fully imported claims, ready to run."""


@dataclass
class Catalog(Claims[ClaimInfo]):
    """Claim metadata, read from the index when no claim file changed (no heavy imports)."""

    extra_dirs: tuple[Path, ...] = ()
    builtin: bool = True
    _registry: Registry | None = None

    def registry(self) -> Registry:
        """Import the claims modules (once) to run proofs and checks."""
        if self._registry is None:
            self._registry = load(self.extra_dirs, self.builtin)
        return self._registry


def unknown_id_message(claim_id: str, known: Iterable[str]) -> str:
    known = list(known)
    close = difflib.get_close_matches(claim_id, known, n=3, cutoff=0.5)
    close += [k for k in known if claim_id in k and k not in close][: 5 - len(close)]
    hint = f"; did you mean {', '.join(close)}?" if close else "; `tmath list` shows every id"
    return f"no claim with id {claim_id!r}{hint}"


def _folders(extra_dirs: Sequence[Path], builtin: bool) -> list[Path]:
    folders = ([builtin_claims_dir()] if builtin else []) + [Path(d) for d in extra_dirs]
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(f"claims folder not found: {folder}")
    return folders


def _modules(folder: Path) -> list[Path]:
    return [p for p in sorted(folder.glob("*.py")) if not p.name.startswith("_")]


def _import_folder(folder: Path) -> tuple[list[ClaimSpec], list[LoadError]]:
    specs, errors = [], []
    for path in _modules(folder):
        try:
            specs.extend(_import_claims(path))
        except LoadError as error:
            errors.append(error)
    return specs, errors


def _merge(claims: Claims, per_folder: Iterable[tuple[list, list[LoadError]]]) -> None:
    """Combine folders: duplicate ids, unknown dependencies and cycles become load errors."""
    for items, errors in per_folder:
        claims.errors.extend(errors)
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


def load(extra_dirs: Sequence[Path] = (), builtin: bool = True) -> Registry:
    """Import the built-in claims and the claims in ``extra_dirs``."""
    registry = Registry()
    _merge(registry, [_import_folder(f) for f in _folders(extra_dirs, builtin)])
    return registry


def load_spec(info: ClaimInfo) -> ClaimSpec:
    """Import only the module that defines ``info`` (for a plot, say) and return its claim."""
    for spec in _import_claims(Path(info.path)):
        if spec.id == info.id:
            return spec
    raise LoadError(info.path, info.line, f"claim {info.id!r} is no longer defined here")


def catalog(extra_dirs: Sequence[Path] = (), builtin: bool = True,
            use_index: bool = True) -> Catalog:
    """Claim metadata for ``list`` and for cached runs, without importing the claims when
    the index is fresh (it is rebuilt when any claims file or the engine changes)."""
    folders = _folders(extra_dirs, builtin)
    store = cache.Store("index", enabled=use_index)
    result = Catalog(extra_dirs=tuple(Path(d) for d in extra_dirs), builtin=builtin)
    per_folder = []
    for folder in folders:
        key = cache.digest(str(folder.resolve()), [(p.name, cache.file_hash(str(p)))
                                                   for p in _modules(folder)],
                           cache.engine_hash())
        entry = store.get(key)
        if entry is None:
            specs, errors = _import_folder(folder)
            entry = ([s.info for s in specs], [(e.path, e.line, e.message) for e in errors])
            store.put(key, entry)
        infos, errors = entry
        per_folder.append((infos, [LoadError(*e) for e in errors]))
    _merge(result, per_folder)
    return result


def _order(spec: ClaimSpec) -> tuple:
    return tuple(int(part) for part in spec.section.split(".")), spec.path, spec.line or 0


def _import_claims(path: Path) -> list[ClaimSpec]:
    digest = hashlib.sha1(str(path.resolve().parent).encode()).hexdigest()[:10]
    name = f"tmath_claims_{digest}.{path.stem}"
    model.collected()  # drop anything registered outside a loader call
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise LoadError(str(path), None, "not an importable Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    except LoadError:
        raise
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        raise LoadError(str(path), exc.lineno, f"syntax error: {exc.msg}") from None
    except Exception as exc:
        sys.modules.pop(name, None)
        line = _line_in(path, exc)
        raise LoadError(str(path), line, f"{type(exc).__name__}: {exc}") from None
    finally:
        taken = model.collected()
    return taken


def _line_in(path: Path, exc: BaseException) -> int | None:
    lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
             if Path(f.filename).resolve() == path.resolve()]
    return lines[-1] if lines else None


def _check_dependencies(registry: Claims) -> None:
    for spec in list(registry.claims.values()):
        missing = [d for d in spec.depends_on if d not in registry.claims]
        if missing:
            registry.errors.append(LoadError(
                spec.path, spec.line,
                f"claim {spec.id!r} depends on unknown claim(s) {', '.join(missing)}; "
                "fix depends_on or load the folder that defines them"))
            del registry.claims[spec.id]
    state: dict[str, int] = {}

    def visit(claim_id: str, path: list[str]) -> None:
        if state.get(claim_id) == 2:
            return
        if state.get(claim_id) == 1:
            cycle = path[path.index(claim_id):] + [claim_id]
            spec = registry.claims[claim_id]
            raise LoadError(spec.path, spec.line, "dependency cycle: " + " → ".join(cycle))
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
            cyclic = error.message.split(": ", 1)[1].split(" → ")
            for member in set(cyclic):
                registry.claims.pop(member, None)
                state[member] = 2
