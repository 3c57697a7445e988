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
from typing import Iterable, Sequence

from tmath import model
from tmath.errors import LoadError, UsageError
from tmath.model import ClaimSpec


def builtin_claims_dir() -> Path:
    """The claims shipped with tmath: inside the installed package, or ``claims/`` in a checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_builtin_claims", here.parent / "claims"):
        if candidate.is_dir():
            return candidate
    raise LoadError(str(here), None, "the built-in claims are missing from this installation")


@dataclass
class Registry:
    """The claims loaded for one run, in section order, and what failed to load."""

    claims: dict[str, ClaimSpec] = field(default_factory=dict)
    errors: list[LoadError] = field(default_factory=list)

    def __iter__(self):
        return iter(self.claims.values())

    def __len__(self) -> int:
        return len(self.claims)

    def get(self, claim_id: str) -> ClaimSpec:
        try:
            return self.claims[claim_id]
        except KeyError:
            raise UsageError(unknown_id_message(claim_id, self.claims)) from None

    def select(self, ids: Sequence[str]) -> list[ClaimSpec]:
        """Claims named by ``ids`` ("all" selects every claim), in registry order."""
        if not ids or list(ids) == ["all"]:
            return list(self.claims.values())
        unknown = [i for i in ids if i not in self.claims and i != "all"]
        if unknown:
            raise UsageError(unknown_id_message(unknown[0], self.claims))
        wanted = set(ids)
        return [c for c in self.claims.values() if c.id in wanted or "all" in wanted]

    def with_dependencies(self, selected: Iterable[ClaimSpec]) -> list[ClaimSpec]:
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


def unknown_id_message(claim_id: str, known: Iterable[str]) -> str:
    known = list(known)
    close = difflib.get_close_matches(claim_id, known, n=3, cutoff=0.5)
    close += [k for k in known if claim_id in k and k not in close][: 5 - len(close)]
    hint = f"; did you mean {', '.join(close)}?" if close else "; `tmath list` shows every id"
    return f"no claim with id {claim_id!r}{hint}"


def load(extra_dirs: Sequence[Path] = (), builtin: bool = True) -> Registry:
    """Load the built-in claims and the claims in ``extra_dirs``."""
    folders = ([builtin_claims_dir()] if builtin else []) + [Path(d) for d in extra_dirs]
    registry = Registry()
    origin: dict[str, str] = {}
    for folder in folders:
        if not folder.is_dir():
            raise UsageError(f"claims folder not found: {folder}")
        for path in sorted(folder.glob("*.py")):
            if path.name.startswith("_"):
                continue
            try:
                specs = _import_claims(path)
            except LoadError as error:
                registry.errors.append(error)
                continue
            for spec in specs:
                if spec.id in registry.claims:
                    registry.errors.append(LoadError(
                        str(path), spec.line,
                        f"claim id {spec.id!r} is already defined in {origin[spec.id]}; "
                        "rename one of them"))
                    continue
                registry.claims[spec.id] = spec
                origin[spec.id] = f"{spec.path}:{spec.line}"
    _check_dependencies(registry)
    registry.claims = dict(sorted(registry.claims.items(), key=lambda kv: _order(kv[1])))
    return registry


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


def _check_dependencies(registry: Registry) -> None:
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
