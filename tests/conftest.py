"""Shared fixtures: the built-in registry (loaded once) and helpers to write claim folders."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import typer

from tmath.cli import boundary
from tmath.cli.check import check
from tmath.engine.registry import load

CHECK_APP = typer.Typer()
"""A test app holding only ``tmath check``, registered the way tmath.cli registers it."""
CHECK_APP.callback()(lambda: None)
CHECK_APP.command("check")(boundary(check))


def alive(pid: int) -> bool:
    """The process is running (a zombie waiting to be reaped is not)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory):
    """Tests never read or write the user's cache."""
    import os

    folder = tmp_path_factory.mktemp("xdg-cache")
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


@pytest.fixture(scope="session")
def registry():
    return load()


@pytest.fixture
def claims_dir(tmp_path: Path):
    """Write claim modules into a fresh folder: ``claims_dir({"name.py": source})``."""

    def write(files: dict[str, str]) -> Path:
        folder = tmp_path / "user_claims"
        folder.mkdir(exist_ok=True)
        for name, source in files.items():
            (folder / name).write_text(textwrap.dedent(source), encoding="utf-8")
        return folder

    return write


# A small, true user claim: the mean of a fair die is 7/2.
DIE_MEAN = '''
import sympy as sp
from tmath import Foil, Statement, claim

k = sp.Symbol("k", integer=True)
MEAN = sp.Sum(k, (k, 1, 6)) / 6  # E[X] for X uniform on 1..6

@claim(id="{id}", title="A fair die has mean {value}", section="1.1",
       statement=Statement("E[X] = {value} for a fair six-sided die", sp.Rational({value_src}),
                           lhs=MEAN),
       premises=("X is uniform on 1..6",),
       foils=(Foil("E[X] = 3", sp.Integer(3)),), statistical_tests=1{extra})
class DieMean:
    """The mean of 1..6 is 21/6."""
    def prove(self, value, proof):
        mean = proof.chain(MEAN, "E[X]").evaluate("sum of 1..6")
        proof.conclude(value, mean)

    def check(self, value, experiment):
        experiment.mean(lambda rng, m: rng.integers(1, 7, size=m), float(value), "mean of rolls")
'''


def die_claim(claim_id: str = "die-mean", value: str = "7/2", extra: str = "") -> str:
    numerator, _, denominator = value.partition("/")
    value_src = f"{numerator}, {denominator or 1}"
    return DIE_MEAN.format(id=claim_id, value=value, value_src=value_src, extra=extra)
