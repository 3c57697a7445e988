"""The pytest plugin: claims as items that pytest's own options select, rerun and report."""

from __future__ import annotations

import os
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


# -- fail closed: the claims run in the CLI's workers -------------------------------------------

def _folder_with(pytester: pytest.Pytester, before_prove: str = "",
                 before_check: str = "", foil: str = "") -> Path:
    """The die claim with code run at the start of ``prove`` / ``check`` (and another foil)."""
    source = textwrap.dedent(die_claim())
    source = "import os, signal, time\n" + source
    if before_prove:
        source = source.replace("        mean = proof.chain",
                                f"        {before_prove}\n        mean = proof.chain")
    if before_check:
        source = source.replace("        experiment.mean(",
                                f"        {before_check}\n        experiment.mean(")
    if foil:
        source = source.replace('foils=(', f'foils=({foil}, ')
    folder = pytester.path / "dice_claims"
    folder.mkdir(exist_ok=True)
    (folder / "dice.py").write_text(source, encoding="utf-8")
    return folder


@pytest.mark.parametrize("ending, message", [
    ("os._exit(0)", "exit code 0"),
    ("os.kill(os.getpid(), signal.SIGKILL)", "killed by SIGKILL"),
])
def test_a_claim_that_ends_its_process_fails_its_items(pytester: pytest.Pytester, ending, message):
    folder = _folder_with(pytester, before_prove=ending)
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-p", "no:cacheprovider",
                                           timeout=120)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 2 and outcomes.get("passed", 0) == 1  # only the check
    text = "\n".join(result.outlines)
    assert "die-mean::proof FAILED" in text or "FAILED dice_claims/dice.py::die-mean::proof" in text
    assert message in text


def test_a_claim_that_hangs_times_out_and_the_next_item_runs(pytester: pytest.Pytester):
    folder = _folder_with(pytester, before_check="time.sleep(600)")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "--tmath-timeout", "2",
                                           "-k", "proof or check or foil[1]", "-p",
                                           "no:cacheprovider", "-v", timeout=120)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    text = "\n".join(result.outlines)
    assert "die-mean::check FAILED" in text and "die-mean::proof PASSED" in text
    assert "die-mean::foil[1] FAILED" in text  # its check hangs too: the next item ran
    assert "timed out after 2 s" in text and "--tmath-timeout" in text


def test_what_a_claim_prints_stays_out_of_pytests_output(pytester: pytest.Pytester):
    folder = _folder_with(pytester, before_prove="os.write(1, b'LOUD-CLAIM\\n')")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-p", "no:cacheprovider",
                                           "-s")
    assert result.ret == pytest.ExitCode.OK
    assert "LOUD-CLAIM" not in "\n".join(result.outlines + result.errlines)


# -- collection errors are per path ---------------------------------------------------------------

def _odd_folder(pytester: pytest.Pytester) -> Path:
    folder = _folder(pytester)
    os.mkfifo(folder / "pipe.py")
    (folder / "loop.py").symlink_to("loop.py")
    (folder / "dangling.py").symlink_to("nowhere.py")
    return folder


def test_a_fifo_a_loop_and_a_dangling_link_are_errors_of_their_own_paths(pytester: pytest.Pytester):
    folder = _odd_folder(pytester)
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "--collect-only", "-q",
                                           "-p", "no:cacheprovider", timeout=120)
    text = "\n".join(result.outlines)
    assert "dice_claims/dice.py::die-mean::proof" in text  # the rest still collects
    for name, why in [("pipe.py", "FIFO"), ("loop.py", "symbolic link"),
                      ("dangling.py", "symbolic link")]:
        assert f"ERROR collecting dice_claims/{name}" in text and why in text
    assert "Traceback" not in text and "RuntimeError" not in text
    assert result.ret == pytest.ExitCode.INTERRUPTED


def test_a_run_with_a_collection_error_does_not_pass(pytester: pytest.Pytester):
    folder = _odd_folder(pytester)
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-p", "no:cacheprovider",
                                           "--continue-on-collection-errors", timeout=120)
    assert result.ret != pytest.ExitCode.OK
    assert result.parseoutcomes().get("errors") == 3 and result.parseoutcomes()["passed"] >= 3


# -- pytest's own tools -----------------------------------------------------------------------------

def test_the_reproduce_line_loads_the_users_folder(pytester: pytest.Pytester):
    folder = _folder(pytester, value="3/1")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-p", "no:cacheprovider")
    text = "\n".join(result.outlines)
    assert f"reproduce: tmath verify die-mean --seed 20261130 --claims {folder} --no-builtin" in text


def test_last_failed_reruns_a_failed_foil(pytester: pytest.Pytester):
    folder = _folder_with(pytester, foil='Foil("E[X] = 7/2 too", sp.Rational(7, 2))')
    first = pytester.runpytest_subprocess("--tmath-claims", str(folder))
    assert first.parseoutcomes().get("failed") == 1  # the foil that is true
    again = pytester.runpytest_subprocess("--tmath-claims", str(folder), "--lf", "-v")
    assert again.parseoutcomes().get("failed") == 1 and "passed" not in again.parseoutcomes()
    assert "die-mean::foil[1] FAILED" in "\n".join(again.outlines)


@pytest.mark.parametrize("item", ["check", "foil[1]"])
def test_a_node_id_selects_its_item(pytester: pytest.Pytester, item):
    folder = _folder(pytester)
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder),
                                           f"dice_claims/dice.py::die-mean::{item}", "-v",
                                           "-p", "no:cacheprovider")
    assert result.parseoutcomes() == {"passed": 1}
    assert f"dice_claims/dice.py::die-mean::{item} PASSED" in "\n".join(result.outlines)


# -- option values ------------------------------------------------------------------------------------

@pytest.mark.parametrize("option, value", [
    ("--tmath-seed", "-1"), ("--tmath-seed", "abc"), ("--tmath-seed", "1.5"),
    ("--tmath-timeout", "0"), ("--tmath-timeout", "inf"), ("--tmath-timeout", "nan"),
    ("--tmath-timeout", "soon"), ("--tmath-max-memory", "10"),
])
def test_a_bad_option_value_is_a_usage_error(pytester: pytest.Pytester, option, value):
    folder = _folder(pytester)
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), f"{option}={value}",
                                           "-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = "\n".join(result.errlines)
    assert f"ERROR: {option} must be" in errors and value in errors and "Traceback" not in errors


def test_a_random_seed_is_printed_and_every_xdist_worker_uses_it(pytester: pytest.Pytester):
    pytest.importorskip("xdist")
    folder = _folder(pytester, value="3/1")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "--tmath-seed=random",
                                           "-n", "2", "-p", "no:cacheprovider")
    text = "\n".join(result.outlines)
    seed = text.split("tmath seed: ")[1].split()[0]
    seeds = {line.split("--seed ")[1].split()[0] for line in result.outlines
             if line.startswith("reproduce:")}
    assert seeds == {seed} and result.parseoutcomes().get("failed") == 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_module_is_a_collection_error_naming_it(pytester: pytest.Pytester):
    folder = _folder(pytester)
    secret = folder / "secret.py"
    secret.write_text("", encoding="utf-8")
    secret.chmod(0)
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "--collect-only",
                                           "-p", "no:cacheprovider")
    text = "\n".join(result.outlines)
    assert "ERROR collecting dice_claims/secret.py" in text and "cannot read" in text
    assert "die-mean" in text


def test_a_claim_without_a_check_has_no_check_item(pytester: pytest.Pytester):
    """A heuristic (or cited) claim with no check passes the CLI ("heuristic", "cited"), so no
    item may fail for the check it does not have; a theorem's checks are still items."""
    folder = _folder(pytester)
    (folder / "guess.py").write_text(textwrap.dedent('''
        from tmath import prose

        prose(id="die-guess", kind="heuristic", section="1.2",
              title="Dice feel fair", statement="Most dice people own are close to fair.",
              summary="Nothing derives it.", reason="it is about manufacturing, not mathematics")
    '''), encoding="utf-8")
    result = pytester.runpytest_subprocess("--tmath-claims", str(folder), "-v",
                                           "-p", "no:cacheprovider")
    text = "\n".join(result.outlines)
    assert result.ret == pytest.ExitCode.OK, text
    assert "die-guess::check" not in text and "die-mean::check PASSED" in text
