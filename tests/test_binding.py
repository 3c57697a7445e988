"""Which recorded formulas a document states by meaning, kept on disk per document formula.

The documents are written for these tests. The count must be the same with the disk store on,
off, filled, corrupted, or filled for another list of recorded formulas.
"""

from __future__ import annotations

import json

import pytest

from tmath.gate import binding, meaning
from tmath.gate.document import parse_as

RECORDED = [r"c^2 = a^2 + b^2",                        # stated, sides swapped
            r"\operatorname{Var}(x) = s",              # changed: the same side, another value
            r"\frac{u}{v} = w"]                        # not in the document
DOCUMENT = "# Two facts\n\n$$a^2 + b^2 = c^2$$\n\n$$\\operatorname{Var}(x) = 2s$$\n\n$$y = 3$$\n"


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    meaning.use_cache(True)
    yield tmp_path / "tmath" / "binding"
    meaning.use_cache(True)


def _count(recorded=RECORDED, wanted=10) -> int:
    return binding._same_meaning(list(recorded), parse_as(".md", DOCUMENT, "doc.md"), wanted)


def test_stated_and_changed_formulas_count_and_others_do_not(store):
    assert _count() == 2
    assert _count(wanted=1) == 1                    # never more than asked for
    assert _count(RECORDED[2:]) == 0


def test_the_count_is_the_same_from_the_disk_without_it_and_after_corruption(store):
    first = _count()
    entries = sorted(store.glob("*.json"))
    assert entries                                  # one per document formula
    assert _count() == first                        # read back
    meaning.use_cache(False)
    assert _count() == first and sorted(store.glob("*.json")) == entries
    meaning.use_cache(True)
    for entry in entries:                           # a broken store is a miss, never a count
        entry.write_text("{not json")
    assert _count() == first


def test_an_entry_that_claims_a_match_it_was_not_computed_for_is_not_served(store):
    _count()
    for entry in store.glob("*.json"):              # every formula said to match everything
        data = json.loads(entry.read_text())
        data["value"]["recorded"] = [0, 1, 2]
        entry.write_text(json.dumps(data))
    # the key covers the recorded formulas: another list reads none of those entries
    assert _count(RECORDED[2:]) == 0
    assert _count(list(reversed(RECORDED))) == 2
