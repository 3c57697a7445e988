"""tmath: verify the mathematics of technical documents, claim by claim.

The public API for writing claims::

    from tmath import claim, Statement, Premise, Definition, Foil, Figure, Source
    from tmath import prose, Passage                    # prose claims: facts, results, heuristics
    from tmath.engine.moments import E, Var, Moments    # symbolic expectation rules
    from tmath.engine.experiment import tolerance       # float tolerance from dtype and size
    from tmath.reference.nn import softmax, attention   # reference implementations

The package is laid out by job: ``engine/`` (claims, derivations, experiments, running,
caching), ``reference/`` (NumPy/SymPy pieces of Transformers that claims build on), ``gate/``
(reading documents and holding them to claims), ``render/`` (tables, pages, JSON, reports),
``latex/`` (reading formulas), ``meaning/`` (comparing them by meaning), ``cli/`` (the
command line) and ``i18n/`` (translations).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys

__all__ = ["claim", "prose", "Statement", "Premise", "Definition", "Foil", "Figure", "Source", "Passage",
           "__version__"]
__version__ = "0.1.0"

_PUBLIC = {"claim": "tmath.engine.model", "Statement": "tmath.engine.model",
           "Premise": "tmath.engine.model", "Definition": "tmath.engine.model",
           "Foil": "tmath.engine.model",
           "Figure": "tmath.engine.model", "Source": "tmath.engine.info",
           "Passage": "tmath.engine.info", "prose": "tmath.engine.prose"}
"""Where each name of the public API lives. They are imported when first asked for (PEP 562),
so ``tmath list`` and ``--help``, which never define a claim, do not build their classes."""


def __getattr__(name: str):
    if name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tmath' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})


_ENGINE = ("model", "proof", "moments", "experiment", "stats", "registry", "runner", "session",
           "parallel", "cache", "results", "figures", "plots")
_REFERENCE = ("kernels", "heads", "tiling", "norms", "positional", "gradients", "optim",
              "information", "flops", "nn", "distributions", "boltzmann")
MOVED = {**{f"tmath.{m}": f"tmath.engine.{m}" for m in _ENGINE},
         **{f"tmath.{m}": f"tmath.reference.{m}" for m in _REFERENCE},
         "tmath.document": "tmath.gate.document", "tmath.cli_check": "tmath.cli.check"}
"""Modules of the flat layout before 0.2 and where they live now: claim folders written
against the old paths (``from tmath.moments import E``) keep loading unchanged."""


class _MovedModules:
    """Serve an old module path as the module at its new path (the same module object): a
    meta path finder and its loader (the protocol needs no base class)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in MOVED:
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module):
        pass  # already executed under its new name


if not any(isinstance(f, _MovedModules) for f in sys.meta_path):
    sys.meta_path.append(_MovedModules())
