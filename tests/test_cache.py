"""The cache is data, not code: JSON of the result objects, served only when it is exactly the
entry asked for; editing anything a claim depends on (helpers included) runs it again."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import pickle
import re
from pathlib import Path
from typing import Literal

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.engine import cache as cache_module
from tmath.engine.cache import ResultCache, Store
from tmath.engine.figures import FigureResult
from tmath.engine.model import ClaimInfo
from tmath.engine.plots import Plot
from tmath.engine.results import AuditResult, ClaimResult, EmpiricalResult, ProofResult
from tmath.engine.serialize import ShapeError, from_jsonable, to_jsonable
from conftest import die_claim

runner = CliRunner()
PACKAGE = Path(__file__).resolve().parents[1] / "tmath"


def round_trip(value, hint=None):
    data = json.loads(json.dumps(to_jsonable(value, hint), allow_nan=False))
    return from_jsonable(hint or type(value), data)


@pytest.fixture(scope="module")
def real_results(registry):
    from tmath.engine.runner import audit_one, verify_one

    spec = registry.get("dot-product-variance")
    return verify_one(spec, seed=3), audit_one(registry.get("product-term-moments"), seed=3), spec


def test_every_result_class_round_trips(real_results):
    verified, audited, spec = real_results
    assert verified.proof.steps and verified.empirical.tests and verified.figures
    assert audited.foils
    assert round_trip(verified) == verified
    assert round_trip(audited) == audited
    assert round_trip(spec.info) == spec.info
    plot = spec.implementation.plot()
    assert isinstance(plot, Plot) and round_trip(plot) == plot


def test_non_finite_numbers_and_new_fields_round_trip(real_results):
    verified, _, _ = real_results
    broken = FigureResult("f", "≈ 1", (), "error", math.nan, "", "ValueError: x")
    odd = dataclasses.replace(verified, figures=(broken, dataclasses.replace(
        broken, status="inaccurate", relative_error=math.inf)), seconds=-0.0)
    back = round_trip(odd)
    assert math.isnan(back.figures[0].relative_error) and back.figures[1].relative_error == math.inf
    assert to_jsonable(back) == to_jsonable(odd)

    @dataclasses.dataclass(frozen=True)
    class Extended:  # a result class someone extends later: no serializer change needed
        result: ClaimResult
        notes: tuple[str, ...] = ()
        level: Literal["low", "high"] = "low"
        extra: dict[str, float] | None = None

    value = Extended(verified, ("a", "b"), "high", {"x": 1.5})
    assert round_trip(value) == value


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(verdict="fine"),                       # not one of the Literal's values
    lambda d: d.update(seed="7"),                             # a string for an int
    lambda d: d.update(seed=True),                            # a bool for an int
    lambda d: d.update(cached=1),                             # an int for a bool
    lambda d: d.update(surprise=1),                           # a field the class lacks
    lambda d: d.pop("proof"),                                 # a missing field
    lambda d: d["proof"].update(steps={"0": []}),             # an object for a tuple
    lambda d: d["empirical"]["tests"][0].update(ci=[1.0]),    # a pair with one item
    lambda d: d["info"].update(premises="just a string"),
])
def test_data_of_the_wrong_shape_is_refused(real_results, mutate):
    verified, _, _ = real_results
    data = to_jsonable(verified)
    mutate(data)
    with pytest.raises(ShapeError):
        from_jsonable(ClaimResult, data)


def test_values_without_a_json_form_are_refused():
    with pytest.raises(ShapeError):
        to_jsonable(ProofResult("proved", steps=(object(),)))  # type: ignore[arg-type]
    with pytest.raises(ShapeError):
        to_jsonable(EmpiricalResult("passed", alpha="high"))  # type: ignore[arg-type]


def test_no_pickle_in_tmath():
    uses = re.compile(r"^\s*(import|from)\s+(c?pickle|shelve|marshal)\b|\b(pickle|marshal)\.load",
                      re.MULTILINE)
    users = [p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.py")
             if uses.search(p.read_text(encoding="utf-8"))]
    assert users == [], users
    assert uses.search("import pickle\n") and uses.search("x = pickle.loads(b)")  # it can fail


# -- entries on disk ---------------------------------------------------------------------------

def verify_json(*args: str) -> dict:
    result = runner.invoke(app, ["verify", *args, "-f", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def entries() -> list[Path]:
    return sorted((cache_module.cache_dir() / "results").glob("*.json"),
                  key=lambda p: p.stat().st_mtime_ns)


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    return tmp_path / "xdg" / "tmath"


def test_an_entry_records_what_it_is(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    verify_json("--claims", str(folder), "die-mean")
    [path] = entries()
    entry = json.loads(path.read_text())
    assert entry["claim"] == "die-mean" and entry["kind"] == "verify"
    assert entry["key"] == path.stem and entry["tmath"] and entry["seed"] == 20261130
    recorded = dict(entry["files"])
    assert recorded[str(folder / "dice.py")] == cache_module.file_hash(str(folder / "dice.py"))


def test_a_crafted_pickle_in_the_cache_runs_no_code(fresh_cache, claims_dir, tmp_path):
    folder = claims_dir({"dice.py": die_claim()})
    verify_json("--claims", str(folder), "die-mean")
    [path] = entries()
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    path.write_bytes(pickle.dumps(Payload()))
    path.with_suffix(".pickle").write_bytes(pickle.dumps(Payload()))  # the old layout's name
    runner.invoke(app, ["list", "--claims", str(folder)])
    doc = verify_json("--claims", str(folder), "die-mean")
    assert not marker.exists()
    assert doc["claims"][0]["cached"] is False and doc["claims"][0]["verdict"] == "verified"


def test_another_claims_entry_copied_under_this_key_is_a_miss(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim(), "wrong.py": die_claim("die-wrong", value="4")})
    verify_json("--claims", str(folder), "die-mean")
    verify_json("--claims", str(folder), "die-wrong")
    mean_entry, wrong_entry = entries()
    mean, wrong = json.loads(mean_entry.read_text()), json.loads(wrong_entry.read_text())
    wrong_entry.write_bytes(mean_entry.read_bytes())  # a "verified" where a failure belongs
    doc = verify_json("--claims", str(folder), "die-wrong")
    assert doc["claims"][0]["cached"] is False and doc["claims"][0]["verdict"] == "failed"
    # Even with the envelope rewritten to name this key, the value is another claim's.
    wrong_entry.write_text(json.dumps({**wrong, "value": mean["value"]}))
    doc = verify_json("--claims", str(folder), "die-wrong")
    assert doc["claims"][0]["cached"] is False and doc["claims"][0]["verdict"] == "failed"


@pytest.mark.parametrize("corrupt", [
    lambda e: {**e, "files": [[p, "0" * 64] for p, _ in e["files"]]},   # a changed file
    lambda e: {**e, "value": {**e["value"], "verdict": 3}},              # wrong type
    lambda e: {**e, "value": [e["value"]]},                              # wrong shape
    lambda e: {**e, "tmath": "0.0.1"},                                   # another version
    lambda e: {**e, "kind": "audit"},                                    # another kind
    lambda e: "not an entry",
])
def test_an_entry_that_does_not_match_is_a_miss(fresh_cache, claims_dir, corrupt):
    folder = claims_dir({"dice.py": die_claim()})
    verify_json("--claims", str(folder), "die-mean")
    [path] = entries()
    path.write_text(json.dumps(corrupt(json.loads(path.read_text()))))
    doc = verify_json("--claims", str(folder), "die-mean")
    assert doc["claims"][0]["cached"] is False and doc["claims"][0]["verdict"] == "verified"


def test_garbage_a_fifo_or_a_symlink_in_the_cache_is_a_miss_never_a_hang(fresh_cache, claims_dir,
                                                                        tmp_path):
    folder = claims_dir({"dice.py": die_claim()})
    verify_json("--claims", str(folder), "die-mean")
    [path] = entries()
    (tmp_path / "elsewhere.json").write_bytes(path.read_bytes())
    for plant in (lambda: path.write_bytes(b"\x80\x04garbage"),
                  lambda: os.mkfifo(path),
                  lambda: path.symlink_to(tmp_path / "elsewhere.json")):
        path.unlink()
        plant()
        doc = verify_json("--claims", str(folder), "die-mean")
        assert doc["claims"][0]["cached"] is False
        assert path.is_file() and not path.is_symlink()  # rewritten as a regular entry


def test_the_store_refuses_entries_read_under_another_key(fresh_cache):
    store = ResultCache()
    key = store.key("plot", "some-claim", [], 0)
    other = store.key("plot", "other-claim", [], 0)
    plot = Plot("p", heatmap=((1.0, 2.0),))
    store.put(key, plot)
    assert store.get(key) == plot
    store.path(other).write_bytes(store.path(key).read_bytes())
    assert store.get(other) is None
    assert Store("listing").get(key, Plot) is None  # nothing there


def test_editing_a_helper_reruns_its_claims(fresh_cache, claims_dir):
    source = die_claim().replace("from tmath import", "from ._shared import ROLLS\nfrom tmath import") \
        .replace("rng.integers(1, 7, size=m)", "rng.integers(1, ROLLS + 1, size=m)")
    folder = claims_dir({"dice.py": source, "_shared.py": "ROLLS = 6\n",
                         "other.py": die_claim("die-other")})
    args = ("--claims", str(folder), "die-mean")
    assert verify_json(*args)["claims"][0]["verdict"] == "verified"
    assert verify_json(*args)["claims"][0]["cached"] is True
    (folder / "_shared.py").write_text("ROLLS = 5\n")  # the check now simulates a 5-sided die
    changed = verify_json(*args)["claims"][0]
    assert changed["cached"] is False and changed["verdict"] == "failed"
    (folder / "data").mkdir()
    (folder / "data" / "table.csv").write_text("1,2\n")  # data in a subfolder counts too
    assert verify_json(*args)["claims"][0]["cached"] is False


def test_another_claims_module_or_a_translation_does_not_rerun_a_claim(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim(), "other.py": die_claim("die-other")})
    args = ("--claims", str(folder), "die-mean")
    verify_json(*args)
    (folder / "other.py").write_text(die_claim("die-other", value="4"))
    (folder / "locale" / "zh" / "LC_MESSAGES").mkdir(parents=True)
    (folder / "locale" / "zh" / "LC_MESSAGES" / "dice.po").write_text('msgid "x"\nmsgstr "y"\n')
    assert verify_json(*args)["claims"][0]["cached"] is True


def test_claims_modules_cannot_import_each_other(claims_dir):
    folder = claims_dir({"dice.py": die_claim(),
                         "user.py": "from . import dice\n" + die_claim("die-user")})
    result = runner.invoke(app, ["list", "--claims", str(folder), "--no-builtin"])
    assert result.exit_code == 3
    assert "user.py" in result.output and "cannot import each other" in result.output


def test_a_broken_index_entry_is_a_miss(fresh_cache, claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    first = runner.invoke(app, ["list", "--claims", str(folder), "-f", "json"])
    for path in (fresh_cache / "index").glob("*.json"):
        entry = json.loads(path.read_text())
        entry["value"]["claims"] = [{"id": "forged"}]
        path.write_text(json.dumps(entry))
    again = runner.invoke(app, ["list", "--claims", str(folder), "-f", "json"])
    assert again.exit_code == 0 and json.loads(again.stdout) == json.loads(first.stdout)


def test_cache_clear_reports_what_it_could_not_remove(fresh_cache, monkeypatch):
    ResultCache().put(ResultCache().key("plot", "c", [], 0), Plot("p"))

    def refuse(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "unlink", refuse)
    result = runner.invoke(app, ["cache", "clear"])
    assert result.exit_code == 4 and "Permission denied" in result.output


def test_audits_and_plots_are_served_from_the_cache(fresh_cache):
    args = ["audit", "dot-product-variance", "-f", "json"]
    assert json.loads(runner.invoke(app, args).stdout)["claims"][0]["cached"] is False
    assert json.loads(runner.invoke(app, args).stdout)["claims"][0]["cached"] is True
    runner.invoke(app, ["explain", "dot-product-variance"])
    assert [p for p in (fresh_cache / "results").glob("*.json")
            if json.loads(p.read_text())["kind"] == "plot"]


PLOTTED_DIE = die_claim() + '''
    def plot(self):
        from tmath.engine.plots import Plot
        return Plot.curves("rolls", {"mean": ([1, 2, 3], [3.5, 3.5, 3.5])})
'''


def test_report_pictures_are_drawn_once_and_served_from_the_cache(fresh_cache, claims_dir,
                                                                  tmp_path, monkeypatch):
    """A warm report draws nothing: its PNGs come from the cache until the claim's files (or
    the drawing code, or matplotlib) change."""
    pytest.importorskip("matplotlib")
    folder = claims_dir({"dice.py": PLOTTED_DIE})
    args = ["report", "--no-builtin", "--claims", str(folder), "-o", str(tmp_path / "r.html")]
    assert runner.invoke(app, args).exit_code == 0
    assert "data:image/png;base64," in (tmp_path / "r.html").read_text(encoding="utf-8")
    assert [p for p in (fresh_cache / "results").glob("*.json")
            if json.loads(p.read_text())["kind"] == "picture"]

    from tmath.render import plots

    def broken(plot):
        raise RuntimeError("drawing again")

    monkeypatch.setattr(plots, "render_png", broken)
    warm = runner.invoke(app, args)
    assert warm.exit_code == 0 and "drawing again" not in warm.output
    assert "data:image/png;base64," in (tmp_path / "r.html").read_text(encoding="utf-8")
    (folder / "dice.py").write_text(PLOTTED_DIE + "\n# edited\n", encoding="utf-8")
    edited = runner.invoke(app, args)
    assert "figure of die-mean failed" in edited.output and "drawing again" in edited.output


def test_an_entry_is_written_in_ascii_and_reads_back_beyond_the_bmp(fresh_cache):
    """𝟙 (outside the BMP) is stored as escapes, so the reader's text stays one byte per
    character; the value comes back unchanged."""
    store = Store("listing")
    key = cache_module.make_key("probe", "probe", [], None)
    store.put(key, {"text": "𝟙 · ⎛x⎞"}, dict[str, str])
    [path] = (fresh_cache / "listing").glob("*.json")
    assert path.read_bytes().isascii()
    assert store.get(key, dict[str, str]) == {"text": "𝟙 · ⎛x⎞"}


def test_reading_an_entry_leaves_the_garbage_collector_as_it_found_it(fresh_cache):
    import gc

    store = Store("listing")
    key = cache_module.make_key("probe", "probe", [], None)
    store.put(key, {"a": "b"}, dict[str, str])
    assert gc.isenabled()
    assert store.get(key, dict[str, str]) == {"a": "b"} and gc.isenabled()
    store.path(key).write_text("{not json")
    assert store.get(key, dict[str, str]) is None and gc.isenabled()  # a miss restores it too
    gc.disable()
    try:
        store.get(key, dict[str, str])
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_installed_versions_take_the_first_dist_info_on_the_path(tmp_path, monkeypatch):
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, names in ((first, ["numpy-2.1.0.dist-info", "numpy_extra-9.dist-info"]),
                          (second, ["numpy-1.0.dist-info", "SymPy-1.14.0.dist-info"])):
        for name in names:
            (folder / name).mkdir(parents=True)
    monkeypatch.setattr(cache_module.sys, "path", [str(tmp_path / "missing"), str(first),
                                                   str(second)])
    monkeypatch.setattr(cache_module, "_metadata_version", lambda name: "?")
    assert cache_module.installed_versions(["numpy", "sympy", "scipy"]) == \
        {"numpy": "2.1.0", "sympy": "1.14.0", "scipy": "?"}


def test_cache_clear_follows_a_symlinked_cache_folder_and_removes_only_its_entries(
        fresh_cache, tmp_path):
    big_disk = tmp_path / "big-disk" / "tmath-cache"
    big_disk.mkdir(parents=True)
    fresh_cache.parent.mkdir(parents=True)
    fresh_cache.symlink_to(big_disk, target_is_directory=True)
    cache = ResultCache()
    for claim in ("a", "b", "c"):
        cache.put(cache.key("plot", claim, [], 0), Plot("p"))
    (big_disk / "notes.txt").write_text("someone else's file\n")
    (big_disk / "results" / "README").write_text("not an entry\n")
    assert len(list((big_disk / "results").glob("*.json"))) == 3

    result = runner.invoke(app, ["cache", "clear"])
    assert result.exit_code == 0, result.output
    assert "removed 3 cached file(s)" in result.output
    assert not list((big_disk / "results").glob("*.json"))
    assert fresh_cache.is_symlink() and fresh_cache.resolve() == big_disk.resolve()
    assert (big_disk / "notes.txt").read_text() == "someone else's file\n"
    assert (big_disk / "results" / "README").exists()
    assert cache.get(cache.key("plot", "a", [], 0)) is None


def test_cache_clear_empties_every_store_a_check_on_any_document_fills(fresh_cache, tmp_path):
    """Results, readings, recognitions and bindings all go: nothing tmath wrote is left."""
    document = tmp_path / "doc.md"
    document.write_text("# Scaled scores\n\n$$\\operatorname{Var}(q \\cdot k) = d_k$$\n",
                        encoding="utf-8")
    runner.invoke(app, ["check", str(document), "-f", "json"])
    filled = {p.parent.name for p in fresh_cache.rglob("*.json")}
    assert {"formulas", "recognition", "binding"} <= filled
    assert runner.invoke(app, ["cache", "clear"]).exit_code == 0
    assert not list(fresh_cache.rglob("*.json"))


def test_a_store_cache_clear_would_not_know_is_refused():
    with pytest.raises(ValueError, match="cache.STORES"):
        Store("elsewhere")
