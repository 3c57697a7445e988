"""The pytest plugin: claims as items that pytest's own options select, rerun and report."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import die_claim

pytest_plugins = ["pytester"]


def _folder(pytester: pytest.Pytester, value: str = "7/2") -> Path:
    folder = pytester.path / "dice_claims"
    folder.mkdir(exist_ok=True)
    (folder / "dice.py").write_text(textwrap.dedent(die_claim(value=value)), encoding="utf-8")
    return folder


def test_a_true_claim_in_a_folder_passes_its_items(pytester: pytest.Pytester):
    folder = _folder(pytester)
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-v", "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert set(outcomes) == {"passed"} and outcomes["passed"] >= 3  # proof, check, foils
    text = "\n".join(result.outlines)
    assert "die-mean::proof PASSED" in text and "die-mean::foil[1] PASSED" in text


def test_a_false_claim_fails_its_items_with_the_clis_reason(pytester: pytest.Pytester):
    folder = _folder(pytester, value="3/1")  # the mean of a die is not 3
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 2  # the proof and the check
    text = "\n".join(result.outlines)
    assert "proof failed" in text and "randomized check failed" in text
    assert "reproduce: tmath verify die-mean --seed" in text


def test_k_selects_and_junit_reports(pytester: pytest.Pytester, tmp_path: Path):
    folder = _folder(pytester)
    report = tmp_path / "junit.xml"
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-k", "check",
                                f"--junitxml={report}", "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert outcomes["passed"] == 1 and outcomes["deselected"] >= 2
    cases = ET.parse(report).getroot().iter("testcase")
    assert [c.get("name") for c in cases] == ["check"]


def test_exitfirst_stops_at_the_first_failure(pytester: pytest.Pytester):
    folder = _folder(pytester, value="3/1")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-x", "-p", "no:cacheprovider")
    assert result.parseoutcomes().get("failed") == 1


def test_last_failed_reruns_only_the_failures(pytester: pytest.Pytester):
    folder = _folder(pytester, value="3/1")
    pytester.runpytest_subprocess("--tmath-claims", str(folder))
    again = pytester.runpytest_subprocess("--tmath-claims", str(folder), "--lf")
    outcomes = again.parseoutcomes()
    assert outcomes.get("failed", 0) >= 2 and "passed" not in outcomes


def test_a_claims_module_that_does_not_load_is_a_failing_item(pytester: pytest.Pytester):
    folder = pytester.path / "broken_claims"
    folder.mkdir()
    (folder / "broken.py").write_text("raise SystemExit(0)\n", encoding="utf-8")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-p", "no:cacheprovider")
    assert result.parseoutcomes().get("failed") == 1


def test_nothing_is_collected_without_the_option(pytester: pytest.Pytester):
    _folder(pytester)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_items_run_in_parallel_with_xdist(pytester: pytest.Pytester):
    pytest.importorskip("xdist")
    folder = _folder(pytester, value="3/1")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-n", "2",
                                           "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed") == 2 and outcomes.get("passed", 0) >= 3
