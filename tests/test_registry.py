"""Loading claims from folders: broken modules, clashes and bad metadata become load errors."""

from __future__ import annotations

import pytest

from tmath.errors import UsageError
from tmath.engine.registry import load
from conftest import die_claim


def test_user_folder_is_loaded_next_to_the_builtin_claims(claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    registry = load([folder])
    assert registry.errors == []
    assert "die-mean" in registry.claims and "dot-product-variance" in registry.claims


def test_syntax_error_names_file_and_line_and_the_rest_loads(claims_dir):
    folder = claims_dir({"broken.py": "x = 1\ndef oops(:\n", "dice.py": die_claim()})
    registry = load([folder])
    [error] = registry.errors
    assert error.path.endswith("broken.py") and error.line == 2
    assert "die-mean" in registry.claims


def test_import_error_is_reported_with_its_line(claims_dir):
    folder = claims_dir({"imports.py": "import os\nimport no_such_module_xyz\n"})
    [error] = load([folder], builtin=False).errors
    assert error.line == 2 and "no_such_module_xyz" in error.message


def test_duplicate_ids_name_both_files(claims_dir):
    folder = claims_dir({"a.py": die_claim(), "b.py": die_claim()})
    registry = load([folder], builtin=False)
    [error] = registry.errors
    assert error.path.endswith("b.py") and "a.py" in error.message
    assert list(registry.claims) == ["die-mean"]


def test_missing_foil_is_a_clear_load_error(claims_dir):
    source = die_claim().replace('foils=(Foil("E[X] = 3", sp.Integer(3)),)', "foils=()")
    [error] = load([claims_dir({"nofoil.py": source})], builtin=False).errors
    assert "add at least one Foil" in error.message


def test_unknown_dependency_and_cycles(claims_dir):
    folder = claims_dir({
        "a.py": die_claim("die-a", extra=', depends_on=("nowhere",)'),
        "b.py": die_claim("die-b", extra=', depends_on=("die-c",)'),
        "c.py": die_claim("die-c", extra=', depends_on=("die-b",)'),
    })
    registry = load([folder], builtin=False)
    messages = " | ".join(e.message for e in registry.errors)
    assert "unknown claim(s) nowhere" in messages
    assert "dependency cycle" in messages
    assert registry.claims == {}


def test_unknown_id_suggests_the_closest(registry):
    with pytest.raises(UsageError, match="did you mean dot-product-variance"):
        registry.select(["dot-product-varianse"])


def test_dependencies_are_pulled_in(registry):
    chosen = registry.with_dependencies(registry.select(["scaled-score-variance"]))
    assert [c.id for c in chosen] == ["product-term-moments", "dot-product-variance",
                                      "scaled-score-variance"]


def test_empty_statement_is_a_clear_load_error(claims_dir):
    source = die_claim().replace('Statement("E[X] = 7/2 for a fair six-sided die"', 'Statement(" "')
    [error] = load([claims_dir({"empty.py": source})], builtin=False).errors
    assert "add a statement" in error.message and error.path.endswith("empty.py")
