"""The layers of the package (docs/design.md): import-linter's contracts in pyproject.toml (the
packages by stage; the checker and its typed tree importing no backend's code), and no import
cycle anywhere.

A wrong import fails here with the modules involved: the contract's report lists each import
that points up and the chain of modules that makes it."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import grimp
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent

def test_every_module_imports_only_its_own_layer_and_those_below() -> None:
    report = io.StringIO()
    with contextlib.redirect_stdout(report):
        status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert status == 0, report.getvalue()
    assert "2 kept, 0 broken" in report.getvalue()


def _circles(graph: grimp.ImportGraph) -> list[set[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                circle = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    circle.add(member)
                    if member == module:
                        break
                if len(circle) > 1:
                    found.append(circle)
    return found


def test_no_module_imports_itself_through_others_even_for_type_checking() -> None:
    # (imports made only for annotations, `if TYPE_CHECKING:`, count too: a reader follows them)
    graph = grimp.build_graph("cardrules", exclude_type_checking_imports=False)
    assert _circles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for module in ("p.a", "p.b", "p.c", "p.d"):
        graph.add_module(module)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.c")
    graph.add_import(importer="p.c", imported="p.a")
    graph.add_import(importer="p.c", imported="p.d")
    assert _circles(graph) == [{"p.a", "p.b", "p.c"}]
