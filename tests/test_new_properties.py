"""Property: whatever the document's file name, the claim id and the LaTeX line, ``tmath new``
writes a skeleton that compiles, loads through the claims loader, calls nothing of what it
records, and reports its claim as "not written yet" (an error, never a pass)."""

from __future__ import annotations

import ast
import string
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tmath.cli.new import _default_id
from tmath.defaults import DEFAULT_SEED
from tmath.engine.registry import load
from tmath.engine.runner import verify_one
from tmath.errors import UsageError
from tmath.gate.document import read_document
from tmath.gate.skeleton import at_line, claim_source

CALLS = {"sp.Symbol", "sp.symbols", "sp.IndexedBase", "sp.Function", "Statement", "Foil",
         "Figure", "claim", "not_written_yet", "NotImplementedError"}
"""Everything a skeleton may call: a call to anything else would run what a document says."""

PAYLOADS = ['"""', "'''", '"', "'", "\\", '__import__("os").system("touch PWNED")', "{x}",
            "\n", "\r", "\x00", "\u2028", "\x85", "None", "True", "sp", "claim", "Figure",
            "lambda", "class", "1abc", "$", "$$", "\\text{", "}", "#", "²"]
file_names = st.lists(st.sampled_from(PAYLOADS) | st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="/\x00"), max_size=8),
    max_size=4).map("".join).map(lambda s: (s[:60] or "n") + ".md")
claim_ids = st.from_regex(r"[a-z0-9]{1,6}(-[a-z0-9]{1,6}){0,3}", fullmatch=True) | \
    st.sampled_from(["none", "true", "false", "1abc", "sp", "claim", "figure", "not-written-yet"])
latex = st.lists(st.sampled_from(PAYLOADS + ["x", "d_{model}", "\\alpha", "W_Q", "=", "+",
                                             "^{2}", "\\frac{1}{2}", "x\\_y", "42", "0.5"]),
                 min_size=1, max_size=8).map(" ".join)
prose = st.lists(st.sampled_from(PAYLOADS + ["is", "42", "0.5", "1/3", "61,400"]),
                 min_size=1, max_size=8).map(" ".join)


def called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return func.id if isinstance(func, ast.Name) else ast.dump(func)


@settings(derandomize=True, max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(name=file_names, own_id=claim_ids, use_default=st.booleans(), formula=latex,
       text=prose, display=st.booleans())
def test_every_skeleton_compiles_loads_runs_nothing_and_is_not_written_yet(
        name, own_id, use_default, formula, text, display):
    formula = formula.replace("$", "").replace("\n", " ").strip() or "x"
    line = f"$${formula}$$" if display else f"where {text} and 7 more"
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        path = root / name
        try:
            path.write_text(f"# Notes\n\n## 1. Part\n\n{line}\n", encoding="utf-8")
        except (OSError, UnicodeEncodeError):
            return  # a name the file system refuses is not a document
        try:
            document = read_document(path)
        except UsageError:
            return  # not a text document (a NUL byte): `tmath new` says so in one line
        content = at_line(document, 5)
        if content.formula is None and not content.figures:
            return  # nothing to claim there: `tmath new` refuses it (tested in test_new.py)
        claim_id = _default_id(path, 5) if use_default else own_id
        source = claim_source(content, claim_id, f"{path.name}:5")

        tree = ast.parse(source)  # compiles
        calls = {called(n) for n in ast.walk(tree) if isinstance(n, ast.Call)}
        assert calls <= CALLS, calls - CALLS
        assert [ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))] \
            == ["import sympy as sp", "from tmath import Figure, Foil, Statement, claim"]

        claims = root / "claims"
        claims.mkdir()
        (claims / f"{claim_id.replace('-', '_')}.py").write_text(source, encoding="utf-8")
        registry = load([claims], builtin=False)
        assert not registry.errors, (source, registry.errors)
        spec = registry.get(claim_id)
        if content.formula is not None:
            assert spec.formulas == (content.formula,)
        assert [f.printed for f in spec.figures] == [p for p, _, _ in content.figures]
        result = verify_one(spec, DEFAULT_SEED)
        assert result.verdict == "error" and "not written yet" in result.proof.reason
        assert not list(root.rglob("PWNED")) and not Path("PWNED").exists()
