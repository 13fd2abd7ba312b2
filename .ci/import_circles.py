#!/usr/bin/env python3
"""Fails when two modules of src/ import each other, directly or through others.

A unit is a top-level module (`position`, `search`, `eval`, ...), except `search::params`,
the leaf that the transposition table imports instead of `search`. An import is any
`crate::name` path, or a `super::name` path that leaves the unit, outside `#[cfg(test)]`
code. Prints the import graph's cycles and exits 1 when there is one.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
LEAVES = {("search", "params"): "search::params"}


def unit(path):
    return LEAVES.get(tuple(path[:2]), path[0])


def module_path(file):
    parts = os.path.relpath(file, ROOT)[:-3].split(os.sep)
    return parts[:-1] if parts[-1] == "mod" else parts


graph = {}
for directory, _, files in os.walk(ROOT):
    for name in files:
        if not name.endswith(".rs"):
            continue
        file = os.path.join(directory, name)
        path = module_path(file)
        if path in (["lib"], ["main"]):
            continue
        me = unit(path)
        text = open(file, encoding="utf-8").read().split("#[cfg(test)]")[0]
        targets = set()
        for match in re.finditer(r"\bcrate::([a-z_0-9]+)(?:::([a-z_0-9]+))?", text):
            targets.add(unit([g for g in match.groups() if g]))
        parent = path if name == "mod.rs" else path[:-1]
        for match in re.finditer(r"\bsuper::([a-z_0-9]+)", text):
            if parent:
                targets.add(unit(parent + [match.group(1)]))
        graph.setdefault(me, set()).update(t for t in targets if t != me)

# Tarjan's strongly connected components: any component of two or more units is a circle.
index, low, stack, on_stack, circles = {}, {}, [], set(), []


def visit(node):
    index[node] = low[node] = len(index)
    stack.append(node)
    on_stack.add(node)
    for other in graph.get(node, ()):
        if other not in index:
            visit(other)
            low[node] = min(low[node], low[other])
        elif other in on_stack:
            low[node] = min(low[node], index[other])
    if low[node] == index[node]:
        component = []
        while True:
            other = stack.pop()
            on_stack.discard(other)
            component.append(other)
            if other == node:
                break
        if len(component) > 1:
            circles.append(sorted(component))


for node in sorted(graph):
    if node not in index:
        visit(node)

if circles:
    for circle in circles:
        members = set(circle)
        edges = [f"{a} -> {b}" for a in circle for b in sorted(graph[a] & members)]
        print("import circle: " + ", ".join(edges))
    sys.exit(1)
print(f"import circles: none among {len(graph)} modules")
