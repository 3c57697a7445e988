"""`tmath list` reads its rows from an entry of their own; they must always be the catalog's."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.engine import listing as listing_module
from tmath.engine import registry
from conftest import die_claim

runner = CliRunner()


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "tmath"


def listed(*args: str):
    return runner.invoke(app, ["list", *args], env={"COLUMNS": "120"})


def test_the_stored_rows_are_the_catalogs_fields(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    rows = listing_module.listing([folder]).rows
    catalog = registry.catalog([folder])
    assert [(r.id, r.section, r.title, r.tags, r.kind, r.no_proof, r.path) for r in rows] == \
        [(c.id, c.section, c.title, c.tags, c.kind, c.no_proof, c.path) for c in catalog]
    assert listing_module.listing([folder]).rows == rows  # now read from the stored entry


def test_a_stored_listing_prints_what_the_catalog_prints(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    first = listed("--claims", str(folder))  # rows built from the catalog and stored
    assert list((fresh_cache / "listing").glob("*.json"))
    second = listed("--claims", str(folder))  # rows read back
    assert first.exit_code == second.exit_code == 0 and first.output == second.output
    assert "die-mean" in second.output and "A fair die has mean 7/2" in second.output


def test_a_forged_listing_entry_is_a_miss(fresh_cache, claims_dir):
    """The deliberately broken entry: a row of the wrong shape is never shown."""
    folder = claims_dir({"dice.py": die_claim()})
    first = listed("--claims", str(folder))
    for path in (fresh_cache / "listing").glob("*.json"):
        entry = json.loads(path.read_text())
        entry["value"]["rows"] = [{"id": "forged"}]
        path.write_text(json.dumps(entry))
    again = listed("--claims", str(folder))
    assert again.exit_code == 0 and again.output == first.output and "forged" not in again.output


def test_an_edited_claims_file_is_listed_anew(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    assert "mean 7/2" in listed("--claims", str(folder)).output
    claims_dir({"dice.py": die_claim(value="3")})
    assert "mean 3 " in listed("--claims", str(folder)).output


def test_load_errors_come_back_with_the_stored_rows(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim(), "broken.py": "raise SystemExit(0)\n"})
    for _ in range(2):  # built, then read back
        result = listed("--claims", str(folder))
        assert result.exit_code == 3 and "broken.py" in result.output
        assert "die-mean" in result.output


def test_rows_read_while_a_file_changed_are_not_stored(fresh_cache, claims_dir, monkeypatch):
    folder = claims_dir({"dice.py": die_claim()})
    real = registry.catalog

    def edited_meanwhile(*args, **kwargs):
        found = real(*args, **kwargs)
        claims_dir({"dice.py": die_claim(value="3")})
        return found

    monkeypatch.setattr(registry, "catalog", edited_meanwhile)
    listing_module.listing([folder])
    assert not list((fresh_cache / "listing").glob("*.json"))
