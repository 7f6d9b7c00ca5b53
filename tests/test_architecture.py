"""The import graph has no cycle at all, counting every import statement.

`./x lint` runs import-linter's contracts (layers, and no cycle between sibling modules),
but neither sees a module that imports names from its own package's ``__init__`` while
that ``__init__`` imports the module (even lazily, inside a function). This test builds
the graph with grimp (import-linter's engine) from every import in the source, function
bodies included, and requires it to be acyclic; a second test counts the imports under
``if TYPE_CHECKING:`` too, since a reader follows annotations as well.
"""

from __future__ import annotations

import grimp


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_cycle_finder_reports_a_parent_child_loop() -> None:
    edges = {"p": {"p.a"}, "p.a": {"p"}, "p.b": {"p.a"}, "q": set()}
    assert _cycles(edges) == [["p", "p.a"]]
    assert _cycles({"p": {"p.a"}, "p.a": set()}) == []


def _graph_cycles(*, type_only_too: bool) -> list[list[str]]:
    graph = grimp.build_graph(
        "mnemic", exclude_type_checking_imports=not type_only_too, cache_dir=None
    )
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert len(edges) > 100  # the whole package was read
    return _cycles(edges)


def test_no_module_is_part_of_an_import_cycle() -> None:
    assert _graph_cycles(type_only_too=False) == []


def test_no_cycle_even_counting_type_only_imports() -> None:
    """A reader follows annotations too: counting the imports under ``TYPE_CHECKING``,
    no module is part of a cycle (the shared types sit below their users)."""
    assert _graph_cycles(type_only_too=True) == []
