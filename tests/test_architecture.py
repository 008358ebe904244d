"""The package's shape (issue 13): imports at module top, no circles, short functions.

The layers themselves (a module imports only from layers below it) are import-linter's contract in
``pyproject.toml`` (``lint-imports`` in CI); these tests read the sources for what it cannot see.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "szwadron"

#: Past this many lines a function needs a reason written beside it (a ``# long:`` comment on the
#: line above its ``def`` or its decorators).
LONGEST = 80


def _modules() -> Iterator[tuple[str, ast.Module, list[str]]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts).removesuffix(".__init__")
        text = path.read_text(encoding="utf-8")
        yield name, ast.parse(text), text.splitlines()


def _type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(
    tree: ast.AST, *, in_function: bool = False
) -> Iterator[tuple[ast.ImportFrom | ast.Import, bool]]:
    """Every import with whether it sits inside a function; ``if TYPE_CHECKING`` blocks skipped."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.If) and _type_checking(child):
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function
        inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        yield from _imports(child, in_function=inner)


def _targets(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    return [node.module or ""] if node.level == 0 else []


def test_library_imports_at_module_top() -> None:
    """Issue 13: library modules import the package at their top; laziness (for a quick start)
    only inside the CLI, whose commands load what they need when they run."""
    local = [
        f"{name}:{node.lineno}"
        for name, tree, _ in _modules()
        if not name.startswith("szwadron.cli") and name != "szwadron.__main__"
        for node, in_function in _imports(tree)
        if in_function and any(t == "szwadron" or t.startswith("szwadron.") for t in _targets(node))
    ]
    assert local == []


def test_no_import_circles() -> None:
    """Issue 13: no circle among the modules' run-time imports (a package's ``__init__`` importing
    its own modules is not a circle)."""
    names = {name for name, _, _ in _modules()}
    graph: dict[str, set[str]] = {}
    for name, tree, _ in _modules():
        edges = graph.setdefault(name, set())
        for node, in_function in _imports(tree):
            if in_function:
                continue
            for target in _targets(node):
                candidates = [target]
                if isinstance(node, ast.ImportFrom):
                    candidates = [f"{target}.{a.name}" for a in node.names] + [target]
                for c in candidates:
                    if c in names and c != name and not name.startswith(c + "."):
                        edges.add(c)
                        break
    # Tarjan's strongly connected components
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert circles == []


def test_long_functions_say_why() -> None:
    """Issue 13: no function over ~80 lines without a reason written beside it."""
    unexplained = []
    for name, tree, lines in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            assert node.end_lineno is not None
            if node.end_lineno - node.lineno + 1 <= LONGEST:
                continue
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if not lines[first - 2].strip().startswith("# long:"):
                unexplained.append(f"{name}.{node.name} ({node.end_lineno - node.lineno + 1} lines)")
    assert unexplained == []
