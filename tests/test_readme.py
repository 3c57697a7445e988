"""The README's commands are the ones CI runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```bash", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.strip().splitlines()]


def test_readme_starts_with_the_two_commands():
    install_and_verify, install_and_test = readme_commands()
    assert install_and_verify.endswith("pip install . && tmath verify all")
    assert "'.[test]'" in install_and_test


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert readme_commands()[1] in ci


def test_the_readme_example_claim_proves_and_passes_its_audit(tmp_path):
    """The claim README teaches with is a working claim: proved, checked, every foil rejected."""
    import re

    from tmath.engine.registry import load
    from tmath.engine.runner import audit_one

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    source = re.search(r"```python\n# my_claims/dice.py\n(.*?)```", text, re.S).group(1)
    (tmp_path / "dice.py").write_text(source, encoding="utf-8")
    spec = load([tmp_path], builtin=False).get("die-mean")
    audit = audit_one(spec)
    assert audit.statement.proof.status == "proved" and audit.strong
