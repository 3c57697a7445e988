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
