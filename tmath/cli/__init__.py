"""The ``tmath`` command line (see :mod:`tmath.cli.app`)."""

from tmath.cli.app import app, main
from tmath.cli.boundary import boundary

__all__ = ["app", "main", "boundary"]
