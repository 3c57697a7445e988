"""tmath: verify the mathematics of technical documents, claim by claim.

The public API for writing claims::

    from tmath import claim, Statement, Foil, Figure, Source
    from tmath.moments import E, Var, Moments     # symbolic expectation rules
    from tmath.experiment import tolerance        # float tolerance from dtype and size
"""

from tmath.model import Figure, Foil, Source, Statement, claim

__all__ = ["claim", "Statement", "Foil", "Figure", "Source", "__version__"]
__version__ = "0.1.0"
