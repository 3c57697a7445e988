"""README and ``--help`` are held to the code: the commands they show parse, the options they
name exist on those commands, and the JSON fields README shows are in the real output."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp
import typer.main
from typer.testing import CliRunner

from tmath.cli import app
from tmath.cli.app import HELP
from tmath.engine.foils import near_misses

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CLI = typer.main.get_command(app)
runner = CliRunner()
OTHER_PROGRAMS = ("## Measuring it", "## Development", "### Running claims under pytest",
                  "### Translating")
"""README sections whose bare options (`-x`, `--tests`) belong to pytest or scripts."""


def options(command: str) -> set[str]:
    """Every option string of a ``tmath`` command (``cache clear`` for a subcommand; ``""``
    for the application itself)."""
    node = CLI
    for name in command.split():
        node = node.commands[name]
    found = {"--help", "-h"}
    for param in node.params:
        found |= set(getattr(param, "opts", ())) | set(getattr(param, "secondary_opts", ()))
    return found


COMMANDS = sorted(CLI.commands)


def _code_spans() -> list[tuple[str, str]]:
    """(text, README section heading) of each inline code span and code-block line."""
    spans, heading = [], ""
    blocks = re.split(r"^```[a-z]*\n(.*?)^```", README, flags=re.S | re.M)
    for index, part in enumerate(blocks):
        if index % 2:  # a code block: one span per line
            spans += [(line, heading) for line in part.splitlines()]
            continue
        for line in part.splitlines():
            if line.startswith("#"):
                heading = line
            spans += [(m, heading) for m in re.findall(r"`([^`]+)`", line)]
    return spans


def _invocations(text: str) -> list[tuple[str, list[str]]]:
    """(command, options) of each ``tmath CMD …`` in a span (``CMD …`` for a span that opens
    with a command's name, as `report -o` does), up to a shell pipe or a comment's end."""
    found = []
    for segment in re.split(r"\s#\s", text):
        words = segment.replace("\\|", " \\| ").split()
        starts = [i + 1 for i, w in enumerate(words) if w == "tmath"]
        if not starts and words and words[0] in COMMANDS:
            starts = [0]
        for start in starts:
            rest = words[start:]
            command = ""
            if rest and rest[0] in COMMANDS:
                command, rest = rest[0], rest[1:]
                if command == "cache" and rest and rest[0] in CLI.commands["cache"].commands:
                    command, rest = f"cache {rest[0]}", rest[1:]
            elif rest and not rest[0].startswith("-"):
                continue  # `tmath COMMAND --help`, `tmath: claim-id`: not an invocation
            taken = []
            for word in rest:
                if word in ("\\|", "|", "tmath"):
                    break
                word = word.strip("[]")
                if re.match(r"^--?[A-Za-z]", word):
                    taken.append(word.split("=")[0])
            found.append((command, taken))
    return found


def test_every_command_readme_shows_parses_and_has_the_options_shown():
    """Each `tmath CMD …` in README (table, code blocks, inline code) and in `tmath --help`'s
    examples: CMD --help runs, and every option shown is one of CMD's."""
    spans = [s for s, _ in _code_spans()] + [line for line in HELP.splitlines()
                                              if line.strip().startswith("tmath ")]
    seen, wrong = set(), []
    for span in spans:
        for command, shown in _invocations(span):
            seen.add(command)
            wrong += [f"{command or 'tmath'} {o}  (in: {span.strip()})"
                      for o in shown if o not in options(command)]
    assert not wrong, "README shows options the commands do not have:\n" + "\n".join(wrong)
    assert set(COMMANDS) <= {c.split()[0] for c in seen if c}, "a command README never shows"
    for command in sorted(seen - {""}):
        result = runner.invoke(app, [*command.split(), "--help"])
        assert result.exit_code == 0, (command, result.output)


def test_the_command_table_lists_every_command():
    table = re.findall(r"^\| `tmath (\w+)", README, re.M)
    assert sorted(set(table)) == COMMANDS


def test_bare_options_readme_names_exist_on_some_command():
    """`--timeout SECONDS`, `-j N`, `--fix --write` in README's prose: each is an option of
    at least one command (sections about pytest and scripts excepted)."""
    everywhere = set().union(*(options(c) for c in COMMANDS), options(""),
                             options("cache clear"))
    wrong = []
    for span, heading in _code_spans():
        if not span.startswith("-") or heading.startswith(OTHER_PROGRAMS):
            continue
        for word in span.split():
            word = word.split("=")[0]
            if re.match(r"^--?[A-Za-z]", word) and word not in everywhere:
                wrong.append(f"{word}  (in: {span}, {heading})")
    assert not wrong, "\n".join(wrong)


def test_every_command_the_readme_says_takes_claims_does():
    sentence = re.search(r"Every command \(([^)]*)\) takes `--claims DIR`", README)
    named = re.findall(r"`(\w+)`", sentence.group(1))
    assert set(named) == set(COMMANDS) - {"new", "cache"}
    for command in named:
        assert {"--claims", "--no-builtin"} <= options(command), command


def test_the_pytest_options_readme_shows_exist():
    from tmath.integrations import pytest_plugin

    class Group:
        names: set[str] = set()

        def addoption(self, *names, **_):
            Group.names |= set(names)

    class Parser:
        def getgroup(self, *_):
            return Group()

    pytest_plugin.pytest_addoption(Parser())
    shown = set(re.findall(r"(--tmath[\w-]*)", README))
    assert shown and shown <= Group.names, shown - Group.names


# -- JSON ---------------------------------------------------------------------------------------

def _readme_json(after: str) -> object:
    block = README.split(after, 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    return json.loads(re.sub(r"//[^\n]*", "", block))


def _missing(shown, real, path="", seen: set | None = None) -> list[str]:
    """Keys README shows that the real output lacks, at any depth (a list's first element
    against every element of the real list). ``seen`` collects the paths of lists compared
    with at least one real element."""
    seen = set() if seen is None else seen
    if isinstance(shown, dict):
        if not isinstance(real, dict):
            return [path or "."]
        return [f"{path}.{k}" for k in shown if k not in real] + \
            [m for k, v in shown.items() if k in real
             for m in _missing(v, real[k], f"{path}.{k}", seen)]
    if isinstance(shown, list) and shown and isinstance(shown[0], dict):
        seen |= {path} if real else set()
        return [m for item in real for m in _missing(shown[0], item, f"{path}[]", seen)]
    return []


def _lists(shown, path="") -> set[str]:
    """The paths of the lists of objects README shows."""
    if isinstance(shown, dict):
        return set().union(set(), *(_lists(v, f"{path}.{k}") for k, v in shown.items()))
    if isinstance(shown, list) and shown and isinstance(shown[0], dict):
        return {path} | _lists(shown[0], f"{path}[]")
    return set()


def _tmath(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tmath", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.xdist_group("dot-product-variance")
def test_the_verify_json_readme_shows_is_the_real_shape(tmp_path):
    """README's `tmath verify --format json` example, field by field, against the output for
    the claim it shows, with a module that does not load (so load_errors has an entry)."""
    (tmp_path / "broken.py").write_text("raise RuntimeError('on purpose')\n", encoding="utf-8")
    done = _tmath("verify", "dot-product-variance", "--claims", str(tmp_path), "-f", "json")
    assert done.returncode == 3, done.stderr
    real = json.loads(done.stdout)
    shown = _readme_json("`tmath verify --format json` prints one object")
    seen: set[str] = set()
    assert not _missing(shown, real, seen=seen), _missing(shown, real)
    assert seen == _lists(shown), f"never compared with a real entry: {_lists(shown) - seen}"
    claim = real["claims"][-1]["proof"]
    assert {"rests_on", "rules_used"} <= set(claim) and "rules_assumed" not in claim


def _shape(text: str) -> dict:
    """`{"id", "strong", "foils": [...]}` as README writes a JSON object's fields."""
    literal = re.sub(r'"(\w+)"(?=[,}\s])(?!\s*:)', r'"\1": null', text).replace("[...]", "[]")
    literal = literal.replace(", ...", "").replace("...", "")
    return json.loads(literal)


def test_the_list_and_audit_json_fields_readme_names_exist(tmp_path, claims_dir):
    from conftest import die_claim

    listing = re.search(r"`tmath list --format json` prints a list of `([^`]*)`", README)
    real = json.loads(_tmath("list", "-f", "json").stdout)
    assert not _missing(_shape(listing.group(1)), real[0])
    audit = re.search(r"`tmath audit --format json` prints `([^`]*)`", README)
    folder = claims_dir({"dice.py": die_claim()})
    done = _tmath("audit", "--claims", str(folder), "--no-builtin", "-f", "json")
    assert done.returncode == 0, done.stderr
    assert not _missing(_shape(audit.group(1)), json.loads(done.stdout))


CHECKED_CLAIM = '''
import sympy as sp
from tmath import Foil, Statement, claim

k, n = sp.symbols("k n", integer=True, positive=True)
MEAN = sp.Sum(k, (k, 1, n)) / n


@claim(id="faces-mean", title="Faces 1..n average to (n + 1)/2", section="1",
       statement=Statement("the mean of 1..n is (n + 1)/2", (n + 1) / 2, lhs=MEAN),
       premises=(), foils=(Foil("n/2", n / 2),),
       formulas=(r"\\frac{1}{n} \\sum_{k=1}^{n} k = \\frac{n + 1}{2}",))
class FacesMean:
    """The sum of 1..n is n(n + 1)/2."""

    def prove(self, value, proof):
        proof.conclude(value, proof.chain(MEAN, "mean").evaluate())

    def check(self, value, experiment):
        experiment.holds(abs(sum(range(1, 7)) / 6 - float(value.subs(n, 6))) < 1e-12, "n = 6")
'''


def test_the_check_json_has_the_formula_fields_readme_names(tmp_path, claims_dir):
    folder = claims_dir({"faces.py": CHECKED_CLAIM})
    document = tmp_path / "faces.md"
    document.write_text("# 1. Faces\n\n$$\\frac{1}{n} \\sum_{j=1}^{n} j = \\frac{n+1}{2}$$\n",
                        encoding="utf-8")
    done = _tmath("check", str(document), "--claims", str(folder), "--no-builtin", "-f", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    formulas = [f for f in json.loads(done.stdout)["findings"] if f["kind"] == "formula"]
    named = set(re.findall(r'has\s+`"(\w+)"`', README)) | \
        set(re.findall(r'and\s+`"(\w+)"`\s+\(per relation', README))
    assert named == {"meaning", "compared_with"}
    assert formulas and all(named <= set(f) for f in formulas)
    assert formulas[0]["meaning"] == "equivalent"


# -- help and configuration ---------------------------------------------------------------------

def test_audit_help_names_every_kind_of_automatic_near_miss():
    """Every description :mod:`tmath.engine.foils` gives, for values of each type, is named in
    `tmath audit --help`."""
    x, j = sp.Symbol("x", positive=True), sp.Symbol("j", integer=True)
    q, m = sp.IndexedBase("q"), sp.Symbol("m", integer=True, positive=True)
    values = [x**2 + 3, m + 1, x**m * q[j, m], sp.Integer(0), sp.Matrix([[1, 2], [3, 4]]),
              (x, sp.Integer(2))]
    described = {text.rsplit(", ", 1)[-1].split(": ")[-1]
                 for value in values for text, _ in near_misses(value)}
    said = {"5 % too large": "×1.05", "twice the value": "×2", "half the value": "×½",
            "sign flipped": "sign flipped", "one more": "one more", "one less": "one less",
            "1 instead of 0": "1 instead of 0", "its square root": "square root",
            "squared": "the square", "exponent one higher": "exponent one higher or lower",
            "exponent one lower": "exponent one higher or lower",
            "an index shifted by one": "index shifted by one",
            "two arguments swapped": "two arguments swapped", "transposed": "transposed",
            "two rows swapped": "two rows swapped"}
    assert described <= set(said), f"a new kind of near-miss: {described - set(said)}"
    shown = " ".join(runner.invoke(app, ["audit", "--help"], terminal_width=200).output.split())
    missing = [d for d in described if said[d] not in shown]
    assert not missing and "one part at a time" in shown, missing


def test_check_help_names_every_formula_status_and_the_reading_by_meaning():
    """`check --help`'s Formulas paragraph names each status the formula gate gives (read
    from its source) and the readings that fall back to spelling."""
    source = (ROOT / "tmath" / "gate" / "formulas.py").read_text(encoding="utf-8")
    statuses = set(re.findall(r'status="(\w+)"', source)) | {"missing"}
    assert {"covered", "contradicts", "changed", "unverified", "uncovered"} <= statuses
    shown = " ".join(runner.invoke(app, ["check", "--help"], terminal_width=200).output.split())
    paragraph = shown.split("Formulas.", 1)[1].split("Examples", 1)[0]
    assert not [s for s in statuses if s not in paragraph], paragraph
    assert all(words in paragraph for words in ("by meaning", "unparsed", "not-compared"))


def test_the_serial_command_pyproject_names_runs():
    """The comment beside addopts names how to run the tests in one process; it works."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    said = re.search(r"^#(.*?) runs serially", text, re.M)
    assert said, "pyproject.toml says how to run the tests serially"
    ways = re.findall(r"`([^`]+)`", said.group(1))
    assert ways
    for way in ways:
        done = subprocess.run([sys.executable, "-m", "pytest", *shlex.split(way), "-q",
                               "--collect-only", "-p", "no:cacheprovider", "tests/test_readme.py"],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{way}: {done.stdout}{done.stderr}"
    readme_serial = re.search(r"`([^`]+)` runs it in one\s+process", README)
    assert readme_serial and readme_serial.group(1) in ways


# -- the experiment helpers' signatures ---------------------------------------------------------

def _parameters(name: str) -> list[str]:
    import inspect

    from tmath.engine import experiment

    function = getattr(experiment.Experiment, name, None) or getattr(experiment, name)
    return [p for p in inspect.signature(function).parameters if p != "self"]


def _required(name: str) -> list[str]:
    import inspect

    from tmath.engine import experiment

    function = getattr(experiment.Experiment, name, None) or getattr(experiment, name)
    return [p.name for p in inspect.signature(function).parameters.values()
            if p.name != "self" and p.default is p.empty and p.kind is not p.VAR_POSITIONAL]


def test_the_experiment_calls_readme_shows_pass_every_required_argument():
    """`experiment.close(actual, expected, tol, label)`, `.holds(condition, label)`: a call
    README writes out names every required parameter, in order."""
    calls = re.findall(r"`(?:experiment)?\.(\w+)\(([^)`]*)\)`", README)
    checked = 0
    for name, arguments in calls:
        if name not in ("mean", "variance", "frequencies", "close", "close_relative", "holds",
                        "sign_test", "shared", "draw") or "..." in arguments:
            continue
        shown = [a.split("=")[0].strip() for a in arguments.split(",") if a.strip()]
        positional = [a for a in shown if not re.match(r"^\w+=", a)]
        assert positional[:len(_required(name))] == _required(name)[:len(positional)] and \
            len(positional) >= len(_required(name)), f"README: {name}({arguments}) vs {_required(name)}"
        checked += 1
    assert checked >= 3


def test_the_guide_lists_the_experiment_helpers_with_their_exact_parameters():
    guide = (ROOT / "docs" / "writing-claims.md").read_text(encoding="utf-8")
    block = guide.split("its methods, exactly as the code declares them:", 1)[1]
    block = block.split("```text\n", 1)[1].split("```", 1)[0]
    listed = {}
    for line in block.splitlines():
        name, arguments = re.match(r"(\w+)\((.*?)\)", line).groups()
        listed[name] = [a.split("=")[0].strip().lstrip("*") for a in arguments.split(",")
                        if a.strip()]
    from tmath.engine.experiment import Experiment

    public = {n for n in vars(Experiment) if not n.startswith("_") and callable(getattr(Experiment, n))}
    assert public | {"tolerance"} == set(listed)
    for name, shown in listed.items():
        assert shown == _parameters(name), (name, shown, _parameters(name))
