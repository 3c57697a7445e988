"""The document corpus of tests/corpus: short documents about the mathematics the
built-in claims prove (Markdown, LaTeX, a Jupyter notebook, plain text), each with a planted
copy holding known errors, and manifest.json, which says where each planted error is.

These tests check the corpus itself: that the manifest describes the files (every listed line
really differs between the two copies, and nothing else does), that its claim ids exist, and
that the notebooks are valid nbformat v4 and are what make_notebook.py writes. The last tests
run ``tmath check`` (no ``--claims``: recognition) on every copy: each clean copy passes, each
planted error is found where it is, except the misses listed in KNOWN_MISSES (strict xfails).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tmath.gate.findings import FAILING

CORPUS = Path(__file__).parent / "corpus"
MANIFEST = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
DOCUMENTS = MANIFEST["documents"]
SUFFIXES = {"markdown": ".md", "latex": ".tex", "notebook": ".ipynb", "text": ".txt"}


def _ids(doc: dict) -> str:
    return doc["clean"]


def _is_notebook(doc: dict) -> bool:
    return doc["format"] == "notebook"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


def _cell_lines(path: Path) -> list[list[str]]:
    """Each cell's source, split into lines (nbformat stores it as a string or a list)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [("".join(c["source"]) if isinstance(c["source"], list) else c["source"]).split("\n")
            for c in cells]


def _differences(doc: dict) -> set:
    """Where the clean and planted copies differ: line numbers, or (cell, line) for a notebook,
    all 1-based. The copies must have the same number of lines (and cells) for this to mean
    anything; that is asserted here."""
    clean, planted = CORPUS / doc["clean"], CORPUS / doc["planted"]
    if _is_notebook(doc):
        a, b = _cell_lines(clean), _cell_lines(planted)
        assert len(a) == len(b), "the two notebooks have different numbers of cells"
        found = set()
        for cell, (x, y) in enumerate(zip(a, b), start=1):
            assert len(x) == len(y), f"cell {cell} has different numbers of lines"
            found |= {(cell, n) for n, (u, v) in enumerate(zip(x, y), start=1) if u != v}
        return found
    a, b = _lines(clean), _lines(planted)
    assert len(a) == len(b), "the two copies have different numbers of lines"
    return {n for n, (u, v) in enumerate(zip(a, b), start=1) if u != v}


def _listed(doc: dict) -> list:
    if _is_notebook(doc):
        return [(e["cell"], e["line"]) for e in doc["errors"]]
    return [e["line"] for e in doc["errors"]]


def test_the_manifest_covers_four_formats():
    assert {d["format"] for d in DOCUMENTS} == set(SUFFIXES)


@pytest.mark.parametrize("doc", DOCUMENTS, ids=_ids)
def test_manifest_entries_are_well_formed(doc, registry):
    suffix = SUFFIXES[doc["format"]]
    assert doc["clean"].endswith(suffix) and doc["planted"].endswith(".planted" + suffix)
    assert (CORPUS / doc["clean"]).is_file() and (CORPUS / doc["planted"]).is_file()
    assert 3 <= len(doc["errors"]) <= 5
    known = set(registry.claims)
    for error in doc["errors"]:
        assert error["kind"] in {"formula", "figure"}
        assert error["claim"] is None or error["claim"] in known, error["claim"]
        assert error["what"].strip()
        assert isinstance(error["line"], int) and error["line"] >= 1
        if _is_notebook(doc):
            assert isinstance(error["cell"], int) and error["cell"] >= 1
        else:
            assert "cell" not in error


@pytest.mark.parametrize("doc", DOCUMENTS, ids=_ids)
def test_copies_differ_exactly_at_the_listed_lines(doc):
    listed = _listed(doc)
    assert len(listed) == len(set(listed)), "a line is listed twice"
    assert _differences(doc) == set(listed)


def test_the_planted_errors_cover_the_required_kinds():
    """At least one planted error of each kind the corpus was asked for."""
    whats = " | ".join(e["what"] for d in DOCUMENTS for e in d["errors"])
    claims = {e["claim"] for d in DOCUMENTS for e in d["errors"]}
    assert {"attention-temperature", "dot-product-variance", "sinusoidal-frequency-period",
            "pe-shift-is-rotation", "multi-head-shapes", "noam-schedule-shape",
            "cross-entropy-kl-decomposition"} <= claims
    for needle in ("√d_k → d_k", "Var(qᵀk) = √d_k", "2i → i", "sign flipped",
                   "512/8 = 32", "√64 = 6", "widely copied", "warmup exponent", "KL sign"):
        assert needle in whats, needle


NOTEBOOKS = [d for d in DOCUMENTS if _is_notebook(d)]


@pytest.mark.parametrize("name", [n for d in NOTEBOOKS for n in (d["clean"], d["planted"])])
def test_notebooks_are_valid_nbformat_v4(name):
    raw = json.loads((CORPUS / name).read_text(encoding="utf-8"))
    assert raw["nbformat"] == 4 and isinstance(raw["cells"], list)
    nbformat = pytest.importorskip("nbformat")
    nbformat.validate(nbformat.reads((CORPUS / name).read_text(encoding="utf-8"), as_version=4))


@pytest.mark.parametrize("doc", NOTEBOOKS, ids=_ids)
def test_the_notebooks_differ_only_in_cell_sources(doc):
    """Outputs, metadata, ids and cell types are the same in both copies."""
    a, b = (json.loads((CORPUS / doc[key]).read_text(encoding="utf-8"))
            for key in ("clean", "planted"))

    def without(mapping: dict, key: str) -> dict:
        return {k: v for k, v in mapping.items() if k != key}

    assert [without(c, "source") for c in a["cells"]] == [without(c, "source") for c in b["cells"]]
    assert without(a, "cells") == without(b, "cells")


def test_the_notebooks_are_what_make_notebook_writes(tmp_path):
    pytest.importorskip("nbformat")
    spec = importlib.util.spec_from_file_location("make_notebook", CORPUS / "make_notebook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    for doc in NOTEBOOKS:
        for name in (doc["clean"], doc["planted"]):
            assert (tmp_path / name).read_text(encoding="utf-8") == \
                (CORPUS / name).read_text(encoding="utf-8"), name


# -- the gate, once `tmath check` recognises claims on its own ---------------------------------

def _check(path: Path) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "tmath", "check", str(path), "--format", "json"],
                          capture_output=True, text=True, timeout=900)
    assert done.stdout.strip(), done.stderr
    return done.returncode, json.loads(done.stdout)


def _errors(report: dict) -> list[dict]:
    return [f for f in report["findings"] if f["status"] in FAILING]


KNOWN_MISSES: dict[tuple[str, int], str] = {
}
"""Planted errors recognition does not find yet, each with why (a strict xfail: finding one
makes the test fail until it is removed from here)."""


@pytest.fixture(scope="module")
def reports() -> dict[str, tuple[int, dict]]:
    return {name: _check(CORPUS / name) for doc in DOCUMENTS
            for name in (doc["clean"], doc["planted"])}


def _spans(report: dict, notebook: bool) -> list:
    """Where each error finding is: its line, through the last line of its formula."""
    found = []
    for f in _errors(report):
        last = f["line"] + (f.get("formula") or "").count("\n")
        found.append((f.get("cell"), f["line"], last) if notebook else (None, f["line"], last))
    return found


@pytest.mark.xdist_group("corpus")
@pytest.mark.parametrize("doc", DOCUMENTS, ids=_ids)
def test_the_clean_copy_passes_with_no_error(doc, reports):
    code, report = reports[doc["clean"]]
    assert _errors(report) == [] and code == 0


PLANTED = [(doc, error, where) for doc in DOCUMENTS for error, where in
           zip(doc["errors"], _listed(doc))]


@pytest.mark.xdist_group("corpus")
@pytest.mark.parametrize("doc, error, where", [
    pytest.param(d, e, w, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[
        (d["planted"], w)]) if (d["planted"], w) in KNOWN_MISSES else ())
    for d, e, w in PLANTED], ids=[f"{d['planted']}:{w}" for d, _, w in PLANTED])
def test_each_planted_error_is_found_where_it_is(doc, error, where, reports):
    """An error finding on the planted line (a finding for a formula over several lines
    counts for each of its lines); for a notebook, in the planted cell."""
    code, report = reports[doc["planted"]]
    assert code == 1
    cell, line = where if _is_notebook(doc) else (None, where)
    assert any(c == cell and first <= line <= last
               for c, first, last in _spans(report, _is_notebook(doc))), (error, _errors(report))
