"""docs/writing-claims.md runs: each of its examples is a test, evaluated in order in one
scratch folder, as a reader following the guide would run them.

Sybil finds the examples. A Python block opening with ``# my_claims/NAME.py`` is a file the
reader saves (it is written, then loaded by later examples); a Markdown block opening with
``<!-- NAME.md -->`` is a document; other Python blocks run (``>>>`` blocks as doctests, the
rest as code); each line of a bash block is a ``tmath`` or ``python`` command run in the
folder, which must exit 0, or the code its ``# exit N`` comment gives.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from sybil import Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "writing-claims.md"
PYTHON_FILE = re.compile(r"# (my_claims/[\w/]+\.py)\n")
DOCUMENT = re.compile(r"<!-- ([\w-]+\.md) -->\n")
EXIT = re.compile(r"#\s*exit (\d+)\s*$")
FOLDER = "__guide_folder__"


def _write(pattern: re.Pattern):
    def evaluate(example) -> None:
        source = str(example.parsed)
        path = Path(example.namespace[FOLDER]) / pattern.match(source).group(1)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return evaluate


class _Python(PythonCodeBlockParser):
    """Python blocks; those naming a claims module are saved instead of run."""

    def __call__(self, document):
        for region in super().__call__(document):
            if PYTHON_FILE.match(str(region.parsed)):
                region.evaluator = _write(PYTHON_FILE)
            yield region


class _Markdown(CodeBlockParser):
    language = "markdown"

    def evaluate(self, example) -> None:
        if DOCUMENT.match(str(example.parsed)):
            _write(DOCUMENT)(example)


class _Bash(CodeBlockParser):
    language = "bash"

    def evaluate(self, example) -> None:
        for line in str(example.parsed).splitlines():
            command, _, comment = line.partition("#")
            if not command.strip():
                continue
            expected = EXIT.search("#" + comment)
            words = shlex.split(command)
            assert words[0] in ("tmath", "python"), f"the guide runs only tmath or python: {line}"
            argv = [sys.executable, *(["-m", "tmath"] if words[0] == "tmath" else []), *words[1:]]
            done = subprocess.run(argv, cwd=example.namespace[FOLDER], capture_output=True,
                                  text=True, timeout=600)
            want = int(expected.group(1)) if expected else 0
            assert done.returncode == want, (f"{line!r} exited {done.returncode}, not {want}:\n"
                                             f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


SYBIL = Sybil(parsers=[_Python(), _Markdown(), _Bash()], path=str(GUIDE.parent))
EXAMPLES = list(SYBIL.parse(GUIDE).examples())


class _Reader:
    """The guide's examples run once each, in order, in one folder (the reader's)."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.done, self.failed = folder, 0, None
        EXAMPLES[0].namespace[FOLDER] = str(folder)

    def run_through(self, index: int) -> None:
        while self.done <= index:
            example = EXAMPLES[self.done]
            if self.failed is not None:
                pytest.fail(f"an earlier example failed (line {self.failed})", pytrace=False)
            here = os.getcwd()
            os.chdir(self.folder)
            try:
                example.evaluate()
            except BaseException:
                self.failed = example.line
                raise
            finally:
                os.chdir(here)
                self.done += 1


@pytest.fixture(scope="module")
def reader(tmp_path_factory):
    return _Reader(tmp_path_factory.mktemp("reader"))


@pytest.mark.xdist_group("guide")
@pytest.mark.parametrize("index", range(len(EXAMPLES)),
                         ids=[f"line{e.line}" for e in EXAMPLES])
def test_the_guide_example_runs(reader, index):
    reader.run_through(index)


def test_the_guide_has_examples_of_every_kind():
    """Files saved, documents written, Python run, commands run: none of them is silently
    skipped by a parser that no longer matches."""
    text = GUIDE.read_text(encoding="utf-8")
    fenced = re.findall(r"^```(\w+)\n(.*?)^```", text, re.S | re.M)
    runnable = [(lang, body) for lang, body in fenced if lang in ("python", "bash", "markdown")]
    assert len(EXAMPLES) >= len(runnable) and len(runnable) >= 10
    assert {lang for lang, _ in runnable} == {"python", "bash", "markdown"}
    assert any(PYTHON_FILE.match(body) for _, body in runnable)
    assert any(b.startswith(">>>") for lang, b in runnable if lang == "python")
