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


def folder_of(module: str) -> str:
    """mcugen.ir.graph -> ir; a top-level module (mcugen.errors, mcugen.runtime) is its own name."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "mcugen"


def test_each_folder_imports_only_what_its_docstring_allows():
    """Every folder's __init__ says what it may import ("Imports: a, b."); the graph keeps to it, so the
    folders read in data-flow order and none reaches up."""
    allowed = {}
    for init in PACKAGE.glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        stated = [line for line in doc.splitlines() if line.startswith("Imports:")]
        assert stated, f"{init.parent.name}/__init__.py does not say what it may import"
        names = stated[0].removeprefix("Imports:").split("(")[0]
        allowed[init.parent.name] = {n.strip(" .") for n in names.split(",")} | {"mcugen", init.parent.name}
    for module, needed in imports().items():
        here = folder_of(module)
        if here in allowed:
            reached = {folder_of(m) for m in needed} - allowed[here]
            assert not reached, f"{module} imports from {sorted(reached)}, which {here}/__init__.py does not allow"
