"""The verification engine: what a claim is, how it is proved and checked, and how runs are
scheduled, cached and reported as results.

* :mod:`~tmath.engine.model` — ``@claim``, ``Statement``, ``Foil``, ``Figure``, ``Source``;
* :mod:`~tmath.engine.proof` and :mod:`~tmath.engine.moments` — step-checked derivations and
  the rules of expectation;
* :mod:`~tmath.engine.experiment` and :mod:`~tmath.engine.stats` — randomized checks;
* :mod:`~tmath.engine.registry` — loading claims folders;
* :mod:`~tmath.engine.runner` — running one claim (proof, check, figures, foils);
* :mod:`~tmath.engine.session`, :mod:`~tmath.engine.parallel`, :mod:`~tmath.engine.cache` —
  running many, in worker processes, serving unchanged results from the cache;
* :mod:`~tmath.engine.results` — the immutable result objects every renderer reads.

To run one claim's proof and check with any value from Python (what ``tmath audit`` does for
a foil)::

    from tmath.engine import load, run_proof, run_check
    spec = load(["my_claims"]).get("die-mean")
    run_proof(spec, 3).status           # 'failed'
    run_check(spec, 3, seed=1).status   # 'failed'

The names below are imported on first use, so ``import tmath.engine`` stays light.
"""

from __future__ import annotations

import importlib

_LAZY = {"load": "registry", "catalog": "registry", "run_proof": "runner",
         "run_check": "runner", "verify_one": "runner", "audit_one": "runner"}

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(f"tmath.engine.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'tmath.engine' has no attribute {name!r}")
