"""tmath claims as pytest items: ``pytest --tmath`` (and ``--tmath-claims DIR``).

Like scikit-learn's ``parametrize_with_checks``, each claim yields its checks as test items,
``<module>::<claim-id>::proof``, ``::check`` and ``::foil[<n>]``, so pytest's
own tools work on them: ``-k dot-product`` selects, ``--lf`` reruns failures, ``-x`` stops at
the first, ``-n 4`` (pytest-xdist) spreads them over processes or machines, ``--junitxml``
reports them. Seeds, levels and messages are the CLI's: an item fails exactly when
``tmath verify``/``tmath audit`` would report the same claim or foil as not passing.

Registered through the ``pytest11`` entry point; nothing happens without ``--tmath`` or
``--tmath-claims``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from tmath.defaults import DEFAULT_SEED


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tmath", "tmath claims as test items")
    group.addoption("--tmath", action="store_true", default=False,
                    help="collect the built-in tmath claims as test items")
    group.addoption("--tmath-claims", action="append", default=[], metavar="DIR",
                    help="also collect the claims of DIR (repeatable)")
    group.addoption("--tmath-no-builtin", action="store_true", default=False,
                    help="collect only the --tmath-claims folders")
    group.addoption("--tmath-seed", type=int, default=DEFAULT_SEED, metavar="N",
                    help=f"seed of the randomized checks (default {DEFAULT_SEED}, as the CLI)")


def _wanted(config: pytest.Config) -> bool:
    return bool(config.getoption("--tmath") or config.getoption("--tmath-claims"))


_FOLDERS = pytest.StashKey[list]()
_REGISTRY = pytest.StashKey[object]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "tmath: a tmath claim, proof, check or foil")
    if not _wanted(config):
        return
    from tmath.engine.registry import builtin_claims_dir

    folders = [Path(p).resolve() for p in config.getoption("--tmath-claims")]
    if config.getoption("--tmath") and not config.getoption("--tmath-no-builtin"):
        folders.insert(0, builtin_claims_dir().resolve())
    config.stash[_FOLDERS] = folders
    # collect the claims folders as if they had been named on the command line
    named = {Path(a.split("::")[0]).resolve() for a in config.args}
    config.args.extend(str(f) for f in folders if f not in named)


def _inside(path: Path, folders: list[Path]) -> bool:
    return any(path == f or f in path.parents for f in folders)


def _registry(config: pytest.Config):
    if _REGISTRY not in config.stash:
        from tmath.engine.registry import builtin_claims_dir, load

        folders = config.stash[_FOLDERS]
        builtin = builtin_claims_dir().resolve()
        config.stash[_REGISTRY] = load([f for f in folders if f != builtin],
                                       builtin=builtin in folders)
    return config.stash[_REGISTRY]


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    config = parent.config
    if not _wanted(config) or file_path.suffix != ".py" or file_path.name.startswith("_"):
        return None
    if file_path.resolve().parent not in config.stash.get(_FOLDERS, []):
        return None
    return ClaimsModule.from_parent(parent, path=file_path)


class ClaimsModule(pytest.File):
    """A claims module: one item per proof, check and foil of each claim it defines (and
    one failing item if it does not load)."""

    def collect(self) -> Iterator[pytest.Item]:
        registry = _registry(self.config)
        here = self.path.resolve()
        for error in registry.errors:
            if Path(error.path).resolve() == here:
                yield LoadErrorItem.from_parent(self, name="load", error=str(error))
        for spec in registry:
            if Path(spec.path).resolve() == here:
                yield ClaimNode.from_parent(self, name=spec.id, spec=spec)


class ClaimNode(pytest.Collector):
    """One claim: its ``proof``, ``check`` and ``foil[n]`` items (node ids such as
    ``claims/s01_scaled_dot_product.py::dot-product-variance::proof``)."""

    def __init__(self, *, spec: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec = spec

    def collect(self) -> Iterator[pytest.Item]:
        from tmath.engine.runner import perturbations

        spec, seed = self.spec, self.config.getoption("--tmath-seed")
        if spec.no_proof is None:
            yield ClaimItem.from_parent(self, name="proof", spec=spec, part="proof", seed=seed)
        yield ClaimItem.from_parent(self, name="check", spec=spec, part="check", seed=seed)
        candidates = [(f.text, f.value) for f in spec.foils] + list(perturbations(spec))
        for number, (text, value) in enumerate(candidates, 1):
            yield FoilItem.from_parent(self, name=f"foil[{number}]", spec=spec, text=text,
                                       value=value, seed=seed)


class ClaimFailure(Exception):
    """An item's claim did not hold: the message is the CLI's reason."""


class ClaimItem(pytest.Item):
    def __init__(self, *, spec: Any, part: str, seed: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.spec, self.part, self.seed = spec, part, seed
        self.add_marker(pytest.mark.tmath)

    def runtest(self) -> None:
        from tmath.engine.results import PROVED
        from tmath.engine.runner import run_check, run_proof

        value = self.spec.statement.value
        if self.part == "proof":
            result = run_proof(self.spec, value)
            if result.status not in PROVED:
                raise ClaimFailure(f"proof {result.status}: {result.reason}")
            return
        result = run_check(self.spec, value, self.seed)
        if result.status != "passed":
            raise ClaimFailure(f"randomized check {result.status}: {result.headline}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo, style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            return (f"{excinfo.value}\nreproduce: tmath verify {self.spec.id} "
                    f"--seed {self.seed}")
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.spec.path, (self.spec.line or 1) - 1, self.name


class FoilItem(ClaimItem):
    """Both channels must reject this false statement."""

    def __init__(self, *, spec: Any, text: str, value: Any, seed: int, **kwargs: Any) -> None:
        super().__init__(spec=spec, part="foil", seed=seed, **kwargs)
        self.text, self.value = text, value

    def runtest(self) -> None:
        from tmath.engine.runner import run_check, run_proof

        proof = run_proof(self.spec, self.value)
        check = run_check(self.spec, self.value, self.seed)
        problems = []
        if proof.status not in ("failed", "none"):
            problems.append(f"the proof does not reject it ({proof.status})")
        if check.status != "failed":
            problems.append(f"the randomized check does not reject it ({check.status}: "
                            f"{check.headline})")
        if problems:
            raise ClaimFailure(f"foil {self.text!r}: " + "; ".join(problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo, style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            return f"{excinfo.value}\nreproduce: tmath audit {self.spec.id} --seed {self.seed}"
        return super().repr_failure(excinfo)


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
        return "tmath", None, self.name
