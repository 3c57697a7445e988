"""tmath claims as pytest items: ``pytest --tmath`` (and ``--tmath-claims DIR``).

Like scikit-learn's ``parametrize_with_checks``, each claim yields its checks as test items,
``<module>::<claim-id>::proof``, ``::check`` and ``::foil[<n>]``, so pytest's
own tools work on them: ``-k dot-product`` selects, ``--lf`` reruns failures, ``-x`` stops at
the first, ``-n 4`` (pytest-xdist) spreads them over processes or machines, ``--junitxml``
reports them. Seeds, levels and messages are the CLI's: an item fails exactly when
``tmath verify``/``tmath audit`` would report the same claim or foil as not passing. Items run
in the CLI's forked workers, with its timeout and memory limit (:mod:`.pytest_nodes`).

Registered through the ``pytest11`` entry point; nothing happens without ``--tmath`` or
``--tmath-claims``.
"""

from __future__ import annotations

import math
import os
import secrets
from pathlib import Path
from typing import Any

import pytest

from tmath.defaults import DEFAULT_SEED, DEFAULT_TIMEOUT
from tmath.integrations.pytest_nodes import SETTINGS, ClaimsFolder, Settings


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("tmath", "tmath claims as test items")
    group.addoption("--tmath", action="store_true", default=False,
                    help="collect the built-in tmath claims as test items")
    group.addoption("--tmath-claims", action="append", default=[], metavar="DIR",
                    help="also collect the claims of DIR (repeatable)")
    group.addoption("--tmath-no-builtin", action="store_true", default=False,
                    help="collect only the --tmath-claims folders")
    group.addoption("--tmath-seed", default=str(DEFAULT_SEED), metavar="N|random",
                    help=f"seed of the randomized checks, a nonnegative integer or 'random' "
                         f"(default {DEFAULT_SEED}, as the CLI)")
    group.addoption("--tmath-timeout", default=str(DEFAULT_TIMEOUT), metavar="SECONDS",
                    help=f"stop an item's claim after this many seconds and fail the item "
                         f"(default {DEFAULT_TIMEOUT:g}, as the CLI's --timeout)")
    group.addoption("--tmath-max-memory", default=None, metavar="MB",
                    help="memory a claim's worker may allocate beyond what it starts with "
                         "(Linux; 0: no limit; default: the CLI's --max-memory default)")


def _wanted(config: pytest.Config) -> bool:
    return bool(config.getoption("--tmath") or config.getoption("--tmath-claims"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "tmath: a tmath claim, proof, check or foil")
    if not _wanted(config):
        return
    found = settings(config)
    config.stash[SETTINGS] = found
    # collect the claims folders as if they had been named on the command line, unless an
    # argument already names something inside one (a module, a node id)
    named = [Path(os.path.realpath(a.split("::")[0])) for a in config.args]
    for root in sorted(found.roots):
        if not any(n == Path(root) or Path(root) in n.parents for n in named):
            config.args.append(root)


def settings(config: pytest.Config) -> Settings:
    """The options checked; a bad value is a :class:`pytest.UsageError` (one line, exit 4)."""
    from tmath.engine.folders import builtin_claims_dir

    extra = tuple(Path(p) for p in config.getoption("--tmath-claims"))
    for folder in extra:
        if not folder.is_dir():
            raise pytest.UsageError(f"--tmath-claims needs a folder, and {folder} is not one")
    builtin = bool(config.getoption("--tmath")) and not config.getoption("--tmath-no-builtin")
    roots = [os.path.realpath(f) for f in extra]
    if builtin:
        roots.insert(0, os.path.realpath(builtin_claims_dir()))
    return Settings(extra, builtin, _seed(config), _timeout(config.getoption("--tmath-timeout")),
                    _max_memory(config.getoption("--tmath-max-memory")), frozenset(roots))


def _seed(config: pytest.Config) -> int:
    """``--tmath-seed``; 'random' is drawn once, by xdist's controller, for every worker."""
    given = getattr(config, "workerinput", {}).get("tmath_seed")
    if given is not None:
        return int(given)
    text = config.getoption("--tmath-seed").strip()
    if text == "random":
        return secrets.randbelow(2**32)
    if not text.isdigit():
        raise pytest.UsageError(f"--tmath-seed must be a nonnegative integer or 'random', "
                                f"not {text!r}")
    return int(text)


def _timeout(text: str) -> float:
    from tmath.cli.options import MAX_TIMEOUT

    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_TIMEOUT:
        raise pytest.UsageError(f"--tmath-timeout must be a finite number of seconds between 0 "
                                f"and {MAX_TIMEOUT:.0f} (a week), not {text!r}")
    return seconds


def _max_memory(text: str | None) -> int | None:
    from tmath.cli.options import DEFAULT_MAX_MEMORY_MB

    text = str(DEFAULT_MAX_MEMORY_MB) if text is None else text
    megabytes = int(text) if text.strip().isdigit() else -1
    if megabytes == 0:
        return None
    if megabytes < 64:
        raise pytest.UsageError(f"--tmath-max-memory must be at least 64 (MB), or 0 for no "
                                f"limit, not {text!r}")
    return megabytes


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: every worker runs with the controller's seed ('random' drawn once)."""
    if SETTINGS in node.config.stash:
        node.workerinput["tmath_seed"] = node.config.stash[SETTINGS].seed


def pytest_report_header(config: pytest.Config) -> str | None:
    if SETTINGS not in config.stash:
        return None
    found = config.stash[SETTINGS]
    return f"tmath seed: {found.seed} (replay with --tmath-seed {found.seed}), " \
           f"timeout {found.timeout:g} s an item"


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    config = parent.config
    if SETTINGS in config.stash and config.stash[SETTINGS].collects(path):
        return ClaimsFolder.from_parent(parent, path=path)
    return None
