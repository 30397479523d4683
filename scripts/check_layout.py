#!/usr/bin/env python3
"""The structure drawn from the includes: every #include "..." of the libraries and front ends
points down the folder order of docs/architecture.md (core, games, players, results,
experiments, studies, app), only app/ includes Qt, and no two files include each other
through a cycle (a file is its header and its source together).

usage: check_layout.py SOURCE_DIR   (exit 1 listing each upward include, Qt use or cycle)
"""
import pathlib
import re
import sys

ORDER = ["core", "games", "players", "results", "experiments", "studies", "app"]
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def modules(root):
    """{module: set of included modules}, a module being a path without its extension."""
    graph = {}
    for folder in ORDER:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".h", ".cpp") or not path.is_file():
                continue
            module = str(path.relative_to(root).with_suffix(""))
            edges = graph.setdefault(module, set())
            for kind, target in INCLUDE.findall(path.read_text(errors="replace")):
                if kind == '"' and (root / target).is_file():
                    other = str(pathlib.Path(target).with_suffix(""))
                    if other != module:
                        edges.add(other)
                elif kind == "<" and target.startswith("Q") and not module.startswith("app/"):
                    edges.add("<Qt>")
    return graph


def layer(module):
    top = module.split("/")[0]
    return ORDER.index(top) if top in ORDER else None


def cycles(graph):
    """Each cycle once, found by depth-first search (Tarjan's strongly connected components)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    graph = modules(root)
    problems = []
    for module, edges in sorted(graph.items()):
        for other in sorted(edges):
            if other == "<Qt>":
                problems.append(f"{module} includes Qt outside app/")
            elif layer(other) is not None and layer(other) > layer(module):
                problems.append(f"{module} includes {other}, a folder above it")
    for component in cycles(graph):
        problems.append("include cycle: " + " <-> ".join(component))
    for problem in problems:
        print(problem)
    print(f"{len(graph)} files, {sum(len(e) for e in graph.values())} includes, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
