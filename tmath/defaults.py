"""Settings shared by the engine and the CLI, importable without NumPy or SymPy."""

DEFAULT_SEED = 20261130
"""The run seed when ``--seed`` is not given (each claim derives its own stream from it)."""

DEFAULT_TIMEOUT = 120.0
"""Seconds a claim (its proof, check and figures together) may run before it is stopped."""

ALPHA_PER_CLAIM = 1e-5
"""Each claim's chance of rejecting a true statement, split among its statistical tests."""

SUITE_BOUND_TARGET = 1e-3
"""The suite-wide false-alarm bound we promise: ALPHA_PER_CLAIM × claims stays below it
for up to 100 claims with statistical tests."""

POWER = 0.99
"""Power every statistical test has against its stated smallest deviation."""

DEFAULT_MIN_EFFECT = 0.02
"""Default smallest deviation: 2 % of the stated value (or 0.02 σ when it is 0)."""
