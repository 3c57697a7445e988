"""Claims imported inside a worker, module by module, as its tasks need them.

When the catalog comes from a fresh index, the parent process has every claim's metadata
without importing a single claims module. Importing them all before the first fork cost
about 0.3 s in which the other cores waited; instead each task names its claim's module and
the modules of the claims it builds on (a :class:`Plan`), and the worker imports those once
and keeps them for its later tasks. The pool hands a worker the claims of modules it already
holds (``groups`` in :func:`tmath.engine.parallel.run_isolated`), so two workers import
about half the modules each.

Every file a claim's results depend on is hashed in the parent when the run starts and again
in the worker before the claim runs; a file that changed in between makes that claim an
error (run again), so a result is never filed under the content of another version.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tmath.engine import cache
from tmath.engine.model import ClaimInfo, ClaimSpec
from tmath.errors import LoadError


@dataclass(frozen=True)
class Plan:
    """What a worker needs to build one claim: its metadata, the claims it builds on (id and
    module) and every file its results depend on, with the content hash seen at the start."""

    info: ClaimInfo
    dependencies: tuple[tuple[str, str], ...]
    files: tuple[tuple[str, str], ...]


def plan(catalog: Any, info: ClaimInfo) -> Plan:
    """The :class:`Plan` of ``info`` in ``catalog`` (a :class:`~tmath.engine.registry.Catalog`)."""
    dependencies = tuple((d, catalog.get(d).path) for d in info.depends_on)
    files = tuple((f, cache.file_hash(f)) for f in catalog.files_of(info.id))
    return Plan(info, dependencies, files)


_MODULES: dict[str, dict[str, ClaimSpec]] = {}
"""This process's imported claims modules: path → {claim id: spec}."""


def claim_for(planned: Plan) -> ClaimSpec:
    """The claim ``planned`` names, imported in this process (its module once), with the
    statements of the claims it builds on as lemmas and the catalog's metadata."""
    _unchanged(planned)
    spec = _claims_of(planned.info.path).get(planned.info.id)
    if spec is None:
        raise LoadError(planned.info.path, planned.info.line,
                        f"claim {planned.info.id!r} is no longer defined here; run again")
    lemmas = []
    for dependency, path in planned.dependencies:
        found = _claims_of(path).get(dependency)
        if found is None:
            raise LoadError(path, None, f"claim {dependency!r} is no longer defined here; "
                                        "run again")
        lemmas.append((dependency, found.statement))
    _unchanged(planned)  # nothing changed while it was imported either
    if lemmas:
        spec = dataclasses.replace(spec, lemmas=tuple(lemmas))
    vars(spec)["info"] = planned.info  # typeset once, in the index
    return spec


def _claims_of(path: str) -> dict[str, ClaimSpec]:
    if path not in _MODULES:
        from tmath.engine.registry import _import_claims

        specs, _ = _import_claims(Path(path))
        _MODULES[path] = {s.id: s for s in specs}
    return _MODULES[path]


def _unchanged(planned: Plan) -> None:
    for path, seen in planned.files:
        if cache.file_hash(path) != seen:
            raise LoadError(path, None, "changed while tmath was running; run the command "
                                        "again")
