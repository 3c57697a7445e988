"""The layout stays readable: modules live in folders that say their job, nothing imports in
a circle, and the claim modules read at a glance."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "tmath"
SHARED_TOP_LEVEL = {"__init__.py", "__main__.py", "errors.py", "exitcodes.py", "defaults.py"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The tmath modules a module imports, at any depth of its code (lazy imports included).
    ``from pkg import name`` counts as importing ``pkg.name`` when that is a module."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in known else node.module)
    return {m for m in found if m in known}


def test_only_shared_modules_sit_at_the_top_of_the_package():
    top = {p.name for p in PACKAGE.glob("*.py")}
    assert top <= SHARED_TOP_LEVEL, sorted(top - SHARED_TOP_LEVEL)


def test_no_import_cycles():
    known = modules()
    graph = {name: imports_of(path, set(known)) - {name} for name, path in known.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, "\n".join(" → ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path):
    """The guard above can fail: two modules importing each other are reported."""
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from tmath.b import x\n")
    b.write_text("import tmath.a\n")
    assert imports_of(a, {"tmath.b", "tmath.a"}) == {"tmath.b"}
    assert imports_of(b, {"tmath.b", "tmath.a"}) == {"tmath.a"}


CLAIMS = PACKAGE.parent / "claims"
MAX_LINES_PER_CLAIM = 100
AVERAGE_LINES_PER_CLAIM = 60


def claim_spans(path: Path) -> list[tuple[str, int]]:
    """(name, lines) of each ``@claim``-decorated class of a module, decorator included."""
    spans = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                call = decorator.func if isinstance(decorator, ast.Call) else decorator
                if isinstance(call, ast.Name) and call.id == "claim":
                    spans.append((node.name, node.end_lineno - decorator.lineno + 1))
    return spans


def test_built_in_claims_read_at_a_glance():
    """The section modules (imports and helpers included) average at most 60 lines per claim,
    and no claim is longer than 100."""
    modules = sorted(CLAIMS.glob("s[0-9][0-9]_*.py"))
    total_lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in modules)
    spans = [span for p in modules for span in claim_spans(p)]
    average = total_lines / len(spans)
    print(f"\n{len(modules)} section modules, {len(spans)} claims, {total_lines} lines: "
          f"{average:.1f} lines per claim (at most {AVERAGE_LINES_PER_CLAIM}); longest claim "
          f"{max(spans, key=lambda s: s[1])}")
    assert len(modules) == 15 and spans
    assert average <= AVERAGE_LINES_PER_CLAIM
    long = [s for s in spans if s[1] > MAX_LINES_PER_CLAIM]
    assert not long, long


def test_the_claim_length_guard_can_fail(tmp_path: Path):
    module = tmp_path / "s99_long.py"
    body = "".join(f"    x{i} = {i}\n" for i in range(120))
    module.write_text(f"@claim(id='long')\nclass Long:\n{body}\n", encoding="utf-8")
    assert claim_spans(module) == [("Long", 122)]
