"""``--claims DIR`` adds to the built-in claims and ``--no-builtin`` uses only the given
folders, the same in every command; every printed reproduce command carries them."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tmath.cli import app
from tmath.engine.registry import catalog, load
from tmath.exitcodes import ExitCode
from conftest import die_claim

runner = CliRunner()
DOCS = Path(__file__).resolve().parent / "docs"


@pytest.fixture
def folder(claims_dir):
    return claims_dir({"dice.py": die_claim(), "wrong.py": die_claim("die-wrong", value="4")})


def listed(*args: str) -> set[str]:
    result = runner.invoke(app, ["list", "-f", "json", *args])
    assert result.exit_code == ExitCode.OK, result.output
    return {c["id"] for c in json.loads(result.stdout)}


def test_list_adds_with_claims_and_uses_only_them_with_no_builtin(folder):
    both = listed("--claims", str(folder))
    assert {"die-mean", "die-wrong", "dot-product-variance"} <= both
    assert listed("--claims", str(folder), "--no-builtin") == {"die-mean", "die-wrong"}


def test_the_catalog_and_registry_functions_mean_the_same(folder):
    assert "dot-product-variance" in catalog([folder]).claims
    assert set(catalog([folder], builtin=False).claims) == {"die-mean", "die-wrong"}
    assert set(load([folder], builtin=False).claims) == {"die-mean", "die-wrong"}


@pytest.mark.parametrize("command", [
    ["list"], ["verify", "die-mean"], ["audit", "die-mean"], ["explain", "die-mean"],
    ["report", "-f", "markdown", "-o", "{out}"], ["check", str(DOCS / "dice.txt")],
])
def test_every_command_finds_a_builtin_claim_only_without_no_builtin(folder, tmp_path, command):
    command = [part.format(out=tmp_path / "r.md") for part in command]
    builtin_id = "product-term-moments"
    if command[0] in ("verify", "audit", "explain"):
        with_builtin = runner.invoke(app, [command[0], builtin_id, "--claims", str(folder)])
        assert with_builtin.exit_code == ExitCode.OK, with_builtin.output
        without = runner.invoke(app, [command[0], builtin_id, "--claims", str(folder),
                                      "--no-builtin"])
        assert without.exit_code == ExitCode.USAGE and "no claim with id" in without.output
    user = runner.invoke(app, [*command, "--claims", str(folder), "--no-builtin"])
    assert user.exit_code in (ExitCode.OK, ExitCode.FAILED), user.output


@pytest.mark.parametrize("command", [["list"], ["verify"], ["audit"], ["explain", "die-mean"],
                                     ["report", "-o", "r.html"],
                                     ["check", str(DOCS / "dice.txt")]])
def test_no_builtin_without_claims_is_a_usage_error_everywhere(command):
    result = runner.invoke(app, [*command, "--no-builtin"])
    assert result.exit_code == ExitCode.USAGE
    assert "--no-builtin needs at least one --claims" in result.output


def test_reproduce_commands_carry_the_claims_they_need(folder):
    args = ["--claims", str(folder), "--no-builtin"]
    expected = f"tmath verify die-wrong --seed 20261130 {shlex.join(args)}"
    doc = json.loads(runner.invoke(app, ["verify", "die-wrong", *args, "-f", "json"]).stdout)
    assert doc["claims"][0]["reproduce"] == expected
    table = runner.invoke(app, ["verify", "die-wrong", *args], env={"COLUMNS": "400"})
    assert f"reproduce: {expected}" in table.output
    explained = runner.invoke(app, ["explain", "die-wrong", *args], env={"COLUMNS": "400"})
    assert expected in explained.output
    builtin = json.loads(runner.invoke(app, ["verify", "die-wrong", "--claims", str(folder),
                                             "-f", "json"]).stdout)
    assert builtin["claims"][0]["reproduce"].endswith(f"--claims {shlex.quote(str(folder))}")


def test_a_reproduce_command_reproduces(folder):
    """Run the printed command (it can fail: without its --claims it would be a usage error)."""
    doc = json.loads(runner.invoke(app, ["verify", "die-wrong", "--claims", str(folder),
                                         "--no-builtin", "-f", "json"]).stdout)
    printed = shlex.split(doc["claims"][0]["reproduce"])
    assert printed[:2] == ["tmath", "verify"]
    again = runner.invoke(app, [*printed[1:], "-f", "json"])
    assert json.loads(again.stdout)["claims"][0]["verdict"] == "failed"
    bare = runner.invoke(app, printed[1:5])  # the same command without --claims
    assert bare.exit_code == ExitCode.USAGE


def test_a_folder_named_twice_is_loaded_once(folder):
    twice = ["--claims", str(folder), "--claims", str(folder / ".." / folder.name)]
    result = runner.invoke(app, ["list", "-f", "json", *twice, "--no-builtin"])
    assert result.exit_code == ExitCode.OK, result.output  # no "already defined" load errors
    assert {c["id"] for c in json.loads(result.stdout)} == {"die-mean", "die-wrong"}
