"""The package's import structure: no import circles in `pbem/` (a module-level import
graph with no cycle), none hidden in the services by a function-level import, and no
function-level imports in core and the games (the CLI and the tick import lazily, for
start-up speed)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "pbem"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PKG.rglob("*.py"):
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _top_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    out: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            todo.extend(node.body + node.orelse)
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
    return out


def _targets(name: str, node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> set[str]:
    """The pbem modules one import statement loads (a package's __init__ included)."""
    if isinstance(node, ast.Import):
        found = {a.name for a in node.names}
    else:
        base = node.module or ""
        if node.level:
            here = name.split(".") if modules[name].name == "__init__.py" else name.split(".")[:-1]
            here = here[: len(here) - node.level + 1]
            base = ".".join(here + ([base] if base else []))
        found = {f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names}
    out = set()
    for target in found:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target.startswith("pbem") and target != name:
            out.add(target)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: set().union(*(_targets(name, n, modules) for n in
                                _top_level_imports(ast.parse(path.read_text()))))
            for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_checker_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle_in_the_package() -> None:
    graph = import_graph()
    assert "pbem.core.kit.game" in graph["pbem.rulesets.helios.ruleset"] | set().union(
        *(graph[m] for m in graph["pbem.rulesets.helios.ruleset"]))  # the graph sees imports
    assert circles(graph) == []


def _all_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def test_no_circle_hidden_by_a_function_level_import_in_the_services() -> None:
    """A function-level import may load lazily (start-up speed), never hide a circle: with
    every import counted, the services still form no circle."""
    modules = _modules()
    graph = {name: set().union(*(_targets(name, n, modules) for n in
                                 _all_imports(ast.parse(path.read_text()))))
             for name, path in modules.items() if name.startswith("pbem.service")}
    graph = {name: {t for t in targets if t in graph} for name, targets in graph.items()}
    assert circles(graph) == []


def test_no_function_level_imports_in_core_and_the_games() -> None:
    found = []
    for area in ("core", "rulesets"):
        for path in (PKG / area).rglob("*.py"):
            for fn in ast.walk(ast.parse(path.read_text())):
                if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found += [f"{path.relative_to(PKG.parent)}:{n.lineno}" for n in ast.walk(fn)
                              if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert found == []
