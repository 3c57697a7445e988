"""``tmath new --from DOC:LINE``: a skeleton that loads, fails as "not written yet" (an error,
never a pass), and makes its formula claimed-but-unverified in ``tmath check``; one-line
errors for a bad DOC:LINE; never an overwrite; the document is read, never evaluated."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.defaults import DEFAULT_SEED
from tmath.engine.registry import load
from tmath.engine.runner import verify_one
from tmath.exitcodes import ExitCode
from tmath.gate.skeleton import symbol_names

runner = CliRunner()

DOCUMENT = """\
# Springs

## 1. One spring

### 1.1 Hooke

$$F_{spring} = -k \\cdot \\Delta x$$

A spring of stiffness 200 stretched by 0.05 pulls back with 10 newtons.

$$\\begin{aligned}
E_{pot} &= \\frac{1}{2} k x^2 \\\\
&= \\frac{1}{2} \\cdot 200 \\cdot 0.05^2
\\end{aligned}$$

Nothing to claim here.
"""


@pytest.fixture
def doc(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "springs.md"
    path.write_text(DOCUMENT, encoding="utf-8")
    return path


def new(*args: str):
    return runner.invoke(app, ["new", *args])


def line_of(fragment: str) -> int:
    return next(n for n, line in enumerate(DOCUMENT.split("\n"), 1) if fragment in line)


def test_a_skeleton_records_the_formula_verbatim_and_loads(doc, tmp_path):
    line = line_of("F_{spring}")
    result = new("--from", f"{doc}:{line}", "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    written = tmp_path / "mine" / f"springs_line_{line}.py"
    source = written.read_text(encoding="utf-8")
    assert 'r"F_{spring} = -k \\cdot \\Delta x"' in source
    assert "F_spring, k, Delta, x = sp.symbols('F_spring k Delta x')" in source
    registry = load([tmp_path / "mine"], builtin=False)
    assert not registry.errors
    spec = registry.get(f"springs-line-{line}")
    assert spec.formulas == ("F_{spring} = -k \\cdot \\Delta x",) and spec.section == "1.1"


def test_the_skeleton_fails_as_not_written_yet(doc, tmp_path):
    line = line_of("F_{spring}")
    assert new("--from", f"{doc}:{line}", "--claims", "mine").exit_code == ExitCode.OK
    spec = load([tmp_path / "mine"], builtin=False).get(f"springs-line-{line}")
    result = verify_one(spec, DEFAULT_SEED)
    assert result.verdict == "error"
    assert "not written yet" in result.proof.reason
    assert "not written yet" in result.empirical.reason


def test_check_reports_the_skeletons_formula_as_claimed_but_unverified(doc, tmp_path):
    line = line_of("F_{spring}")
    assert new("--from", f"{doc}:{line}", "--claims", "mine").exit_code == ExitCode.OK
    result = runner.invoke(app, ["check", str(doc), "--claims", "mine", "--no-builtin", "-f",
                                 "json", "-j", "1"])
    assert result.exit_code == ExitCode.FAILED, result.output
    findings = json.loads(result.stdout)["findings"]
    [formula] = [f for f in findings if f["kind"] == "formula" and f["line"] == line]
    assert formula["status"] == "unverified" and formula["claim"] == f"springs-line-{line}"
    uncovered = [f for f in findings if f["kind"] == "formula" and f["status"] == "uncovered"]
    assert [f["line"] for f in uncovered] == [line_of("\\begin{aligned}")]


def test_figures_of_a_line_become_figures_with_their_anchors(doc, tmp_path):
    line = line_of("stiffness 200")
    result = new("--from", f"{doc}:{line}", "--id", "spring-figures", "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    spec = load([tmp_path / "mine"], builtin=False).get("spring-figures")
    assert [(f.printed, f.near) for f in spec.figures] == [
        ("200", "A spring of stiffness"), ("0.05", "200 stretched by"),
        ("10", "0.05 pulls back with")]
    assert not spec.formulas
    check = runner.invoke(app, ["check", str(doc), "--claims", "mine", "--no-builtin", "-f",
                                "json", "-j", "1"])
    figures = [f for f in json.loads(check.stdout)["findings"] if f["kind"] == "figure"]
    assert {(f["status"], f["line"]) for f in figures} == {("unverified", line)}
    assert check.exit_code == ExitCode.FAILED


def test_a_line_inside_a_multi_line_formula_claims_the_whole_formula(doc, tmp_path):
    result = new("--from", f"{doc}:{line_of('0.05^2')}", "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    [written] = (tmp_path / "mine").glob("*.py")
    spec = load([tmp_path / "mine"], builtin=False).get(written.stem.replace("_", "-"))
    assert spec.formulas[0].startswith("\\begin{aligned}") and "0.05^2" in spec.formulas[0]


def test_an_existing_file_or_id_is_never_overwritten(doc, tmp_path):
    line = line_of("F_{spring}")
    assert new("--from", f"{doc}:{line}", "--claims", "mine").exit_code == ExitCode.OK
    target = tmp_path / "mine" / f"springs_line_{line}.py"
    target.write_text("# edited by hand\n" + target.read_text(encoding="utf-8"))
    again = new("--from", f"{doc}:{line}", "--claims", "mine")
    assert again.exit_code == ExitCode.USAGE and "already defined" in again.output
    assert target.read_text(encoding="utf-8").startswith("# edited by hand")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "my_id.py").write_text("# not a claim\n")
    clash = new("--from", f"{doc}:{line}", "--id", "my-id", "--claims", "other")
    assert clash.exit_code == ExitCode.USAGE and "never overwrites" in clash.output
    builtin = new("--from", f"{doc}:{line}", "--id", "dot-product-variance", "--claims", "x")
    assert builtin.exit_code == ExitCode.USAGE and "already defined" in builtin.output


@pytest.mark.parametrize("source, message", [
    ("springs.md", "--from takes DOC:LINE"),
    ("springs.md:0", "positive whole number"),
    ("springs.md:x", "positive whole number"),
    ("springs.md:999", "line 999 is past its end"),
    ("missing.md:3", "document not found"),
    (f"springs.md:{DOCUMENT.split(chr(10)).index('Nothing to claim here.') + 1}",
     "no display formula and no number"),
])
def test_a_bad_doc_line_is_a_one_line_usage_error(doc, source, message):
    result = new("--from", source, "--claims", "mine")
    assert result.exit_code == ExitCode.USAGE
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert not Path("mine").exists()


@pytest.mark.parametrize("text, count", [
    ("a = 1\n$$x = 2$$\nb = 3\n", 3),      # a final newline ends the last line
    ("a = 1\n$$x = 2$$\nb = 3", 3),        # no final newline: the same three lines
    ("a = 1\r\n$$x = 2$$\r\nb = 3\r\n", 3),  # Windows line ends
    ("$$x = 2$$\n", 1),
    ("", 0),
])
def test_the_line_count_is_the_files_and_the_last_line_can_be_claimed(tmp_path, monkeypatch,
                                                                      text, count):
    """The count an editor and ``wc -l`` give; one past it is the first line refused."""
    monkeypatch.chdir(tmp_path)
    Path("d.md").write_bytes(text.encode("utf-8"))
    past = new("--from", f"d.md:{count + 1}", "--claims", "mine")
    assert past.exit_code == ExitCode.USAGE
    noun = "line" if count == 1 else "lines"
    assert f"d.md has {count} {noun}; line {count + 1} is past its end" in past.output
    if count:
        last = new("--from", f"d.md:{count}", "--claims", "mine")
        assert "past its end" not in last.output


def test_a_bad_id_is_refused():
    result = new("--from", "x.md:1", "--id", "Not_Kebab")
    assert result.exit_code == ExitCode.USAGE


def test_symbols_are_read_by_a_tokenizer_that_never_evaluates():
    start = time.process_time()
    names = symbol_names("x = 9^{9^{9^{9^{9}}}} + \\lambda_i \\cdot QK^T + Q + K")
    assert time.process_time() - start < 10  # a hang guard: evaluating never ends
    assert names == ["x", "lambda_i", "Q", "K"]
    assert symbol_names("\\text{softmax}(z_i) + lambda") == ["z_i", "lambda_"]
    assert symbol_names("lr = d_{model}^{-0.5} \\cdot warmup\\_steps") == [
        "lr", "d_model", "warmup_steps"]


def test_the_default_folder_is_never_the_builtin_one(monkeypatch):
    from tmath.engine.registry import builtin_claims_dir

    monkeypatch.chdir(builtin_claims_dir().parent)
    result = new("--from", "docs/companion.md:23")
    assert result.exit_code == ExitCode.USAGE and "built-in claims folder" in result.output


def skeleton_loads_as_not_written_yet(folder: Path, claim_id: str) -> None:
    registry = load([folder], builtin=False)
    assert not registry.errors, registry.errors
    result = verify_one(registry.get(claim_id), DEFAULT_SEED)
    assert result.verdict == "error" and "not written yet" in result.proof.reason


@pytest.mark.parametrize("claim_id", ["none", "true", "false", "1abc", "sp", "claim",
                                      "statement", "figure", "class", "not-written-yet"])
def test_an_id_that_is_a_keyword_or_a_skeleton_name_gives_a_skeleton_that_loads(doc, tmp_path,
                                                                                claim_id):
    result = new("--from", f"{doc}:{line_of('F_{spring}')}", "--id", claim_id, "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    skeleton_loads_as_not_written_yet(tmp_path / "mine", claim_id)


def test_the_default_id_of_a_file_whose_name_starts_with_a_digit_loads(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("2024-notes.md").write_text(DOCUMENT, encoding="utf-8")
    result = new("--from", f"2024-notes.md:{line_of('F_{spring}')}", "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    skeleton_loads_as_not_written_yet(tmp_path / "mine", f"2024-notes-line-{line_of('F_{spring}')}")


@pytest.mark.parametrize("formula", ["x = 1", "sp = claim + Figure", "None = True + False",
                                     'x = \\text{"}', 'x = \\text{""}', "x = y\\", "a'' = 3"])
def test_one_symbol_names_that_clash_and_quotes_at_the_end_give_a_skeleton_that_loads(
        tmp_path, monkeypatch, formula):
    monkeypatch.chdir(tmp_path)
    Path("f.md").write_text(f"# F\n\n$${formula}$$\n", encoding="utf-8")
    result = new("--from", "f.md:3", "--id", "formula", "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    skeleton_loads_as_not_written_yet(tmp_path / "mine", "formula")
    spec = load([tmp_path / "mine"], builtin=False).get("formula")
    assert spec.formulas == (formula,)


def test_a_file_name_that_is_python_is_never_executed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pwned = tmp_path / "pwned"
    name = 'x"""+__import__("os").system("touch pwned")+"""y.md'
    Path(name).write_text(DOCUMENT, encoding="utf-8")
    result = new("--from", f"{name}:{line_of('F_{spring}')}", "--id", "hostile", "--claims",
                 "mine")
    assert result.exit_code == ExitCode.OK, result.output
    skeleton_loads_as_not_written_yet(tmp_path / "mine", "hostile")
    assert not pwned.exists()
    assert name in load([tmp_path / "mine"], builtin=False).get("hostile").title


@pytest.mark.parametrize("source, message", [
    ("springs.md:²", "positive whole number"),
    ("springs.md:" + "9" * 5000, "at most 9 digits"),
])
def test_a_line_number_that_is_not_ascii_digits_or_huge_is_a_usage_error(doc, source, message):
    result = new("--from", source, "--claims", "mine")
    assert result.exit_code == ExitCode.USAGE, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and len(lines[0]) < 300


def test_claims_naming_a_file_or_an_id_too_long_is_a_usage_error(doc, tmp_path):
    Path("afile").write_text("not a folder\n")
    line = line_of("F_{spring}")
    for args in (["--claims", "afile"], ["--claims", "afile/below"],
                 ["--claims", "mine", "--id", "a" * 300], ["--claims", "mine", "--id",
                                                          "-".join(["ab"] * 150)]):
        result = new("--from", f"{doc}:{line}", *args)
        assert result.exit_code == ExitCode.USAGE, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1
    assert Path("afile").read_text() == "not a folder\n" and not Path("mine").exists()


def test_a_file_that_appears_while_new_runs_is_never_overwritten(doc, tmp_path, monkeypatch):
    from tmath.gate import skeleton

    line = line_of("F_{spring}")
    target = tmp_path / "mine" / f"springs_line_{line}.py"
    original = skeleton.claim_source

    def source_while_someone_writes(*args):
        target.write_text("# written by hand meanwhile\n")
        return original(*args)

    monkeypatch.setattr(skeleton, "claim_source", source_while_someone_writes)
    result = new("--from", f"{doc}:{line}", "--claims", "mine")
    assert result.exit_code == ExitCode.USAGE and "appeared meanwhile" in result.output
    assert target.read_text() == "# written by hand meanwhile\n"
    assert [p.name for p in target.parent.iterdir()] == [target.name]  # no temporary file


TRIAL = """\
# Notes

## 1. Three formulas

$$\\log \\sum_{i=1}^{n} e^{x_i} = m + \\log \\sum_{i=1}^{n} e^{x_i - m}$$

$$\\sigma(x) = \\frac{1}{1 + e^{-x}}$$

$$\\frac{d}{dx} \\sigma(x) = \\sigma(x) (1 - \\sigma(x))$$
"""


@pytest.fixture
def trial(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "trial.md"
    path.write_text(TRIAL, encoding="utf-8")
    return path


def skeleton_of(trial: Path, fragment: str) -> tuple[str, str]:
    """(the module written for the formula holding ``fragment``, what new said on stderr)."""
    line = next(n for n, text in enumerate(TRIAL.split("\n"), 1) if fragment in text)
    result = new("--from", f"{trial}:{line}", "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    source = (trial.parent / "mine" / f"trial_line_{line}.py").read_text(encoding="utf-8")
    skeleton_loads_as_not_written_yet(trial.parent / "mine", f"trial-line-{line}")
    return source, result.output


def test_a_sum_over_entries_declares_the_base_and_whole_number_indices_not_eulers_e(trial):
    """The trial's log-sum-exp: e^{…} is Euler's number, n and x are declared although they
    are printed inside exponents, x_i is the entry x[i], and i and n are whole numbers."""
    source, _ = skeleton_of(trial, "\\log \\sum")
    declared = source.split("FORMULA =")[0]
    assert "x = sp.IndexedBase('x')" in declared
    assert "i, n = sp.symbols('i n', integer=True)" in declared
    assert "m = sp.Symbol('m')" in declared
    assert "'e'" not in declared and " e," not in declared and "e = " not in declared
    assert "NOT READ" not in source


def test_a_function_applied_in_the_formula_is_declared_as_one(trial):
    source, _ = skeleton_of(trial, "\\sigma(x) = \\frac")
    assert "sigma = sp.Function('sigma')" in source and "x = sp.Symbol('x')" in source


def test_a_formula_the_reader_does_not_read_is_said_in_the_module_and_on_stderr(trial):
    source, said = skeleton_of(trial, "\\frac{d}{dx}")
    assert "# NOT READ:" in source and "d/dx (Leibniz notation) is not read" in source
    assert 'Statement("TODO: the statement, in your own words", None)' in source
    assert "PARSED" not in source
    note = [line for line in said.splitlines() if line.startswith("note:")]
    assert len(note) == 1 and "was not read" in note[0] and "d/dx" in note[0]


def test_a_read_formula_gives_no_note(trial):
    _, said = skeleton_of(trial, "\\log \\sum")
    assert "note:" not in said


def test_a_formula_without_a_relation_says_why_it_has_no_statement(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("f.md").write_text("# F\n\n$$a + b$$\n", encoding="utf-8")
    result = new("--from", "f.md:3", "--id", "bare", "--claims", "mine")
    assert result.exit_code == ExitCode.OK, result.output
    assert "no relation a Statement can hold" in result.output
    assert "# NOT READ:" in (tmp_path / "mine" / "bare.py").read_text(encoding="utf-8")
    skeleton_loads_as_not_written_yet(tmp_path / "mine", "bare")


def test_transposes_and_eulers_e_are_not_symbols_but_exponents_are_read():
    assert symbol_names("A^{\\top} B + e^{t} + C^T + y^{k}") == ["A", "B", "t", "C", "y", "k"]
    assert symbol_names("e_i + e") == ["e_i", "e"]
