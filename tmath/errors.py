"""The exceptions tmath raises; each says what went wrong and what to do about it."""

from __future__ import annotations


class TmathError(Exception):
    """Root of every error tmath raises on purpose."""


class UsageError(TmathError):
    """The user asked for something that does not exist or is malformed.

    Remedy: the message names the valid choices (closest claim ids, allowed values).
    """


class ClaimDefinitionError(TmathError):
    """A ``@claim`` declaration is incomplete or inconsistent.

    Raised while a claims module is imported; the loader turns it into a :class:`LoadError`
    that names the file, so the other modules still load.
    """


class LoadError(TmathError):
    """A claims module could not be imported, or its claims clash with others."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")
