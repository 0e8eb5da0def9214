"""The package's import graph, counting imports inside functions and under TYPE_CHECKING: which
modules need which. A cycle means no module of it can be understood (or tested) before the others."""
from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "mcugen"


def imports() -> dict[str, set[str]]:
    """module -> the mcugen modules it imports (a name imported from a package counts as that module)."""
    modules = {".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): p
               for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    name = f"{node.module}.{alias.name}"
                    if name in modules or node.module in modules:
                        graph[module].add(name if name in modules else node.module)
            elif isinstance(node, ast.Import):
                graph[module] |= {a.name for a in node.names if a.name in modules}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_cycle():
    assert cycles(imports()) == []
