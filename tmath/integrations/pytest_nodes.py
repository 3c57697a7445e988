"""The plugin's collection tree: a claims folder, its modules, each claim's items.

``ClaimsFolder`` lists a folder the way the CLI's loader does (every ``*.py`` not starting with
``_``, checked with lstat/stat and never opened when it is not a regular file), so a FIFO, a
dangling link or a symlink loop is a collection error of that path alone. Each item runs its
part of the claim in a forked worker of :class:`tmath.engine.parallel.OneByOne`: a claim that
hangs, crashes or ends its process fails its item instead of taking pytest down with it.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest


@dataclass(frozen=True)
class Settings:
    """The plugin's options, checked (see :func:`tmath.integrations.pytest_plugin.settings`)."""

    extra_dirs: tuple[Path, ...]
    """The ``--tmath-claims`` folders, as given."""
    builtin: bool
    seed: int
    timeout: float
    max_memory: int | None
    roots: frozenset[str] = frozenset()
    """The real paths of every folder collected (the built-in one included)."""

    def collects(self, folder: Path) -> bool:
        return os.path.realpath(folder) in self.roots


SETTINGS = pytest.StashKey[Settings]()
_REGISTRY = pytest.StashKey[Any]()
_POOL = pytest.StashKey[Any]()


def registry(config: pytest.Config) -> Any:
    """Every collected folder's claims, imported once per pytest process."""
    if _REGISTRY not in config.stash:
        from tmath.engine.registry import load

        found = config.stash[SETTINGS]
        config.stash[_REGISTRY] = load(found.extra_dirs, builtin=found.builtin)
    return config.stash[_REGISTRY]


class ClaimsFolder(pytest.Directory):
    """A claims folder: its claims modules, and a collection error for each ``*.py`` entry that
    cannot be one. Subfolders hold helpers, not tests, and are not collected."""

    def collect(self) -> Iterator[pytest.Collector]:
        from tmath.engine.folders import claim_modules

        modules, problems = claim_modules(self.path)
        if problems and Path(problems[0].path) == self.path:  # the folder cannot be listed
            raise self.CollectError(str(problems[0]))
        entries = [(m, None) for m in modules] + [(Path(p.path), p.message) for p in problems]
        for path, problem in sorted(entries, key=lambda entry: entry[0].name):
            if not self.session.isinitpath(path) and \
                    self.ihook.pytest_ignore_collect(collection_path=path, config=self.config):
                continue
            if problem is None and not os.access(path, os.R_OK):
                problem = "cannot read it (permission denied)"
            if problem is None:
                yield ClaimsModule.from_parent(self, path=path)
            else:
                yield BadEntry.from_parent(self, path=path, problem=problem)


class BadEntry(pytest.File):
    """A ``*.py`` entry of a claims folder that is not a readable regular file."""

    def __init__(self, *, problem: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problem = problem

    def collect(self) -> Iterator[pytest.Item]:
        raise self.CollectError(f"{self.path}: {self.problem}")


class ClaimsModule(pytest.File):
    """A claims module: one collector per claim it defines, or one failing ``load`` item when
    it does not load (never silently skipped)."""

    def collect(self) -> Iterator[pytest.Node]:
        found = registry(self.config)
        here = os.path.realpath(self.path)
        errors = [str(e) for e in found.errors if os.path.realpath(e.path) == here]
        if errors:
            yield LoadErrorItem.from_parent(self, name="load", error="\n".join(errors))
        for spec in found:
            if os.path.realpath(spec.path) == here:
                yield ClaimNode.from_parent(self, name=spec.id, spec=spec)


class ClaimNode(pytest.Collector):
    """One claim: its ``proof``, ``check`` and ``foil[n]`` items (node ids such as
    ``claims/s01_scaled_dot_product.py::dot-product-variance::proof``)."""

    def __init__(self, *, spec: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec

    def collect(self) -> Iterator[pytest.Item]:
        from tmath.engine.runner import perturbations

        spec, seed = self.spec, self.config.stash[SETTINGS].seed
        if spec.no_proof is None:
            yield ClaimItem.from_parent(self, name="proof", spec=spec, part="proof", seed=seed)
        info = spec.info
        if info.has_check or info.kind == "theorem":  # the CLI reports a missing check
            yield ClaimItem.from_parent(self, name="check", spec=spec, part="check", seed=seed)
        candidates = [(f.text, f.value) for f in spec.foils] + list(perturbations(spec))
        for number, (text, value) in enumerate(candidates, 1):
            # the id is given as text so that it reads back the same from --lf's cache and
            # the command line ("foil[1]": a name and its parameter, as pytest parses it)
            name = f"foil[{number}]"
            yield FoilItem.from_parent(self, name=name, nodeid=f"{self.nodeid}::{name}",
                                       spec=spec, text=text, value=value, seed=seed)


class ClaimFailure(Exception):
    """An item's claim did not hold, or did not finish: the message says which."""


class ClaimItem(pytest.Item):
    """The claim's proof or its randomized check, run in a worker."""

    command = "verify"

    def __init__(self, *, spec: Any, part: str, seed: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec, self.part, self.seed = spec, part, seed
        self.add_marker(pytest.mark.tmath)

    def runtest(self) -> None:
        outcome = _pool(self.session).run(_index(self.session, self))
        if outcome.output:
            self.add_report_section("call", "claim output", outcome.output)
        if outcome.details:
            self.add_report_section("call", "claim traceback", outcome.details)
        if outcome.kind != "ok":
            raise ClaimFailure(_unfinished(outcome))
        if outcome.value is not None:
            raise ClaimFailure(outcome.value)

    def work(self) -> str | None:
        """In the worker: why this part does not hold, or None when it does."""
        from tmath.engine.results import PROVED
        from tmath.engine.runner import run_check, run_proof

        value = self.spec.statement.value
        if self.part == "proof":
            proof = run_proof(self.spec, value)
            return None if proof.status in PROVED else f"proof {proof.status}: {proof.reason}"
        check = run_check(self.spec, value, self.seed)
        return None if check.status == "passed" else \
            f"randomized check {check.status}: {check.headline}"

    def repr_failure(self, excinfo: pytest.ExceptionInfo, style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            load = registry(self.config).load_arguments
            return (f"{excinfo.value}\nreproduce: "
                    + " ".join([f"tmath {self.command} {shlex.quote(self.spec.id)} "
                                f"--seed {self.seed}", *map(shlex.quote, load)]))
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.spec.path, (self.spec.line or 1) - 1, self.name


class FoilItem(ClaimItem):
    """Both channels must reject this false statement."""

    command = "audit"

    def __init__(self, *, spec: Any, text: str, value: Any, seed: int, **kwargs: Any) -> None:
        super().__init__(spec=spec, part="foil", seed=seed, **kwargs)
        self.text, self.value = text, value

    def work(self) -> str | None:
        from tmath.engine.runner import run_check, run_proof

        proof = run_proof(self.spec, self.value)
        check = run_check(self.spec, self.value, self.seed)
        problems = []
        if proof.status not in ("failed", "none"):
            problems.append(f"the proof does not reject it ({proof.status})")
        if check.status != "failed":
            problems.append(f"the randomized check does not reject it ({check.status}: "
                            f"{check.headline})")
        return f"foil {self.text!r}: " + "; ".join(problems) if problems else None


class LoadErrorItem(pytest.Item):
    """A claims module that does not load is a failing item, never silently skipped."""

    def __init__(self, *, error: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def runtest(self) -> None:
        raise ClaimFailure(self.error)

    def repr_failure(self, excinfo: pytest.ExceptionInfo, style: Any = None) -> str:
        return str(excinfo.value)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, self.name


# -- running an item in a worker ------------------------------------------------------------------

class _Work(Sequence):
    """The session's items as the worker's tasks: task ``i`` is ``items[i].work``, looked up
    in the worker (forked after collection, so it holds the same items)."""

    def __init__(self, items: list[pytest.Item]) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index):  # type: ignore[override]
        return self.items[index].work


def _pool(session: pytest.Session) -> Any:
    """This pytest process's worker (forked at the first item, closed with the session)."""
    config = session.config
    if _POOL not in config.stash:
        from tmath.engine.parallel import OneByOne

        found = config.stash[SETTINGS]
        side_by_side = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
        pool = OneByOne(_Work(session.items), found.timeout, found.max_memory, side_by_side)
        config.stash[_POOL] = pool
        config.add_cleanup(pool.close)
    return config.stash[_POOL]


_INDEX = pytest.StashKey[dict]()


def _index(session: pytest.Session, item: pytest.Item) -> int:
    if _INDEX not in session.stash:
        session.stash[_INDEX] = {id(i): n for n, i in enumerate(session.items)}
    return session.stash[_INDEX][id(item)]


def _unfinished(outcome: Any) -> str:
    """Why an item's worker gave no verdict, in one line."""
    if outcome.kind == "timeout":
        return f"{outcome.message} (the limit for one item; raise it with --tmath-timeout)"
    if outcome.kind == "crash":
        return outcome.message.replace("--max-memory", "--tmath-max-memory")
    return f"the claim raised {outcome.message}"
