"""The command line: exit codes, JSON shapes, error messages, reproducibility."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tmath.cli import app
from tmath.exitcodes import ExitCode
from conftest import die_claim

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_help_lists_the_commands_and_exit_codes():
    result = invoke("--help")
    assert result.exit_code == 0
    for word in ("list", "verify", "explain", "audit", "Exit codes"):
        assert word in result.output


def test_list_json_shape():
    result = invoke("list", "--format", "json", "--section", "1")
    assert result.exit_code == 0
    listing = json.loads(result.stdout)
    assert {c["section"][0] for c in listing} == {"1"}
    assert {"id", "section", "title", "tags"} <= set(listing[0])


def test_verify_json_shape_and_exit_code():
    result = invoke("verify", "dot-product-variance", "--format", "json")
    assert result.exit_code == ExitCode.OK, result.output
    doc = json.loads(result.stdout)
    assert {"seed", "claims", "summary"} <= set(doc)
    ids = [c["id"] for c in doc["claims"]]
    assert ids == ["product-term-moments", "dot-product-variance"]  # dependency included
    claim = doc["claims"][1]
    assert claim["verdict"] == "verified"
    assert claim["proof"]["status"] == "proved" and claim["empirical"]["status"] == "passed"
    assert doc["summary"]["verified"] == 2


def _without_times(doc):
    if isinstance(doc, dict):
        return {k: _without_times(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_without_times(v) for v in doc]
    return doc


def test_same_seed_same_output_for_any_number_of_jobs():
    args = ("verify", "softmax-boltzmann", "dk-scaling-overshrinks", "--seed", "7", "-f", "json",
            "--no-cache")
    first, second = invoke(*args, "-j", "1"), invoke(*args, "-j", "2")
    assert _without_times(json.loads(first.stdout)) == _without_times(json.loads(second.stdout))
    other = invoke("verify", "softmax-boltzmann", "--seed", "8", "-f", "json", "--no-cache")
    assert _without_times(json.loads(other.stdout)) != _without_times(json.loads(first.stdout))


def test_second_run_is_served_from_the_cache_and_says_so():
    args = ("verify", "product-term-moments", "--seed", "11", "-f", "json")
    first, second = json.loads(invoke(*args).stdout), json.loads(invoke(*args).stdout)
    assert [c["cached"] for c in first["claims"]] == [False]
    assert [c["cached"] for c in second["claims"]] == [True]
    del first["claims"][0]["cached"], second["claims"][0]["cached"]
    assert _without_times(first) == _without_times(second)


def test_editing_a_claim_file_invalidates_its_cached_result(claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    args = ("verify", "--claims", str(folder), "die-mean", "-f", "json")
    assert json.loads(invoke(*args).stdout)["claims"][0]["cached"] is False
    assert json.loads(invoke(*args).stdout)["claims"][0]["cached"] is True
    (folder / "dice.py").write_text(die_claim(value="4"), encoding="utf-8")
    changed = json.loads(invoke(*args).stdout)["claims"][0]
    assert changed["cached"] is False and changed["verdict"] == "failed"


def test_unknown_id_exits_2_with_suggestion():
    result = invoke("verify", "softmax-temprature")
    assert result.exit_code == ExitCode.USAGE
    assert "did you mean softmax-temperature" in result.output


def test_bad_options_exit_2():
    assert invoke("verify", "--seed", "abc").exit_code == ExitCode.USAGE
    assert invoke("verify", "--seed", "-3").exit_code == ExitCode.USAGE
    assert invoke("verify", "--format", "xml").exit_code == ExitCode.USAGE
    missing = invoke("verify", "--claims", "/no/such/folder")
    assert missing.exit_code == ExitCode.USAGE and "/no/such/folder" in missing.output


def test_false_user_claim_fails_verify(claims_dir):
    folder = claims_dir({"dice.py": die_claim("die-mean-wrong", value="4")})
    result = invoke("verify", "--claims", str(folder), "die-mean-wrong", "-f", "json")
    assert result.exit_code == ExitCode.FAILED
    [claim] = json.loads(result.stdout)["claims"]
    assert claim["verdict"] == "failed"
    assert claim["proof"]["status"] == "failed" and claim["empirical"]["status"] == "failed"
    assert claim["reproduce"] == f"tmath verify die-mean-wrong --seed 20261130 --claims {folder}"


def test_true_user_claim_verifies_and_audits(claims_dir):
    folder = claims_dir({"dice.py": die_claim()})
    assert invoke("verify", "--claims", str(folder), "die-mean").exit_code == ExitCode.OK
    audit = invoke("audit", "--claims", str(folder), "die-mean", "-f", "json")
    assert audit.exit_code == ExitCode.OK
    foils = json.loads(audit.stdout)["claims"][0]["foils"]
    assert len(foils) >= 2 and all(f["rejected"] for f in foils)  # declared + near-misses
    assert {f["origin"] for f in foils} == {"declared", "automatic"}


def test_broken_module_exits_3_and_the_rest_still_run(claims_dir):
    folder = claims_dir({"broken.py": "def oops(:\n", "dice.py": die_claim()})
    result = invoke("verify", "--claims", str(folder), "die-mean", "-f", "json")
    assert result.exit_code == ExitCode.LOAD_ERROR
    doc = json.loads(result.stdout)
    assert doc["claims"][0]["verdict"] == "verified"
    assert doc["load_errors"][0]["path"].endswith("broken.py")
    assert doc["load_errors"][0]["line"] == 1


def test_weak_check_fails_the_audit(claims_dir):
    source = die_claim("die-weak").replace(
        'experiment.mean(lambda rng, m: rng.integers(1, 7, size=m), float(value), "mean of rolls")',
        'experiment.holds(True, "always passes")').replace("statistical_tests=1", "statistical_tests=0")
    folder = claims_dir({"weak.py": source})
    result = invoke("audit", "--claims", str(folder), "die-weak")
    assert result.exit_code == ExitCode.FAILED
    assert "weak" in result.output


def test_output_file_is_written(tmp_path: Path):
    target = tmp_path / "report.json"
    result = invoke("verify", "product-term-moments", "-f", "json", "-o", str(target))
    assert result.exit_code == 0
    assert json.loads(target.read_text())["claims"][0]["id"] == "product-term-moments"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".report")]


def test_explain_shows_derivation_foils_and_figures():
    result = invoke("explain", "dot-product-variance")
    assert result.exit_code == 0
    for text in ("derivation", "independent terms: variances add", "foils", "≈ 22.6",
                 "Var(qᵀk) = √d_k", "arxiv.org/abs/1706.03762", "used by"):
        assert text in result.output, text


def test_explain_unknown_id():
    result = invoke("explain", "temperature")
    assert result.exit_code == ExitCode.USAGE
    assert "softmax-temperature" in result.output


def test_empty_selection_says_so():
    result = invoke("list", "--section", "99")
    assert result.exit_code == 0
    assert "no claims match section 99" in result.output


def test_cache_clear_and_path(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    invoke("verify", "product-term-moments")
    assert (tmp_path / "tmath").exists()
    assert invoke("cache", "path").stdout.strip() == str(tmp_path / "tmath")
    cleared = invoke("cache", "clear")
    assert cleared.exit_code == 0 and "removed" in cleared.output
    assert not (tmp_path / "tmath").exists()


def test_verify_all_json_is_valid_for_every_claim():
    result = invoke("verify", "all", "-f", "json", "-j", "2")
    doc = json.loads(result.stdout)
    assert result.exit_code == ExitCode.OK, doc["summary"]
    assert doc["summary"]["total"] == len(doc["claims"]) >= 70
    assert doc["summary"]["failed"] == doc["summary"]["error"] == 0
    again = json.loads(invoke("verify", "all", "-f", "json", "-j", "2").stdout)
    uncached = [c["id"] for c in again["claims"] if not c["cached"]]
    assert uncached == []  # every result class of every claim can be stored and read back


def test_the_entry_point_builds_only_the_invoked_command_and_behaves_as_the_whole_app():
    """`tmath list` builds one command (typer turns all 68 options into click parameters
    otherwise); its help, its errors and a misspelt command read exactly as from the whole
    app (selected here by the completion variable, which always takes the whole app)."""
    import os
    import subprocess
    import sys

    def run(*args: str, whole: bool = False) -> tuple[int, str]:
        env = {**os.environ, "COLUMNS": "80", **({"_TMATH_COMPLETE_TEST": "1"} if whole else {})}
        done = subprocess.run([sys.executable, "-m", "tmath", *args], capture_output=True,
                              text=True, env=env, timeout=120)
        return done.returncode, done.stdout + done.stderr

    from tmath.cli.app import COMMANDS

    for command in [*COMMANDS, "cache"]:
        assert run(command, "--help") == run(command, "--help", whole=True), command
    assert run("verify", "--seed", "x") == run("verify", "--seed", "x", whole=True)
    code, text = run("lis")
    assert code == 2 and "Did you mean 'list'" in text
