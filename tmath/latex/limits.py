"""Bounds on what the reader accepts, and the exception that turns a formula into ``unparsed``."""

from __future__ import annotations

MAX_CHARS = 4000        # a display formula longer than this is not read
MAX_TOKENS = 1500
MAX_NESTING = 30        # braces, parentheses, brackets and environments, nested
MAX_TOWER = 4           # superscripts nested in superscripts
MAX_NUMBER_DIGITS = 60
MAX_EXACT_POWER = 400   # n^m of two numbers is computed only when |m| is at most this


class Unreadable(Exception):
    """The formula cannot be read faithfully; the message says why and what to do."""
