#!/usr/bin/env python3
"""Checks that BenchKit's folders do not depend on each other in circles.

A folder depends on another when its code (comments and strings stripped) names a type or function declared at the
top level of the other's files and not declared in its own (a nested type of the same name is its own). Prints each folder's dependencies; exits 1 naming each cycle of two or more folders.

usage: python3 scripts/dev/folder_cycles.py [Sources/BenchKit]
"""
import collections
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "Sources/BenchKit"
DECLARATION = re.compile(
    r"^(?:(?:package|public|internal|fileprivate|private|final|indirect)\s+)*(?:struct|class|enum|protocol|typealias|actor|func|let|var)\s+(\w+)",
    re.M)


def code(text):
    """The text without comments and string literals' contents, so that prose naming a type is not a use."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


NESTED = re.compile(r"^\s+(?:(?:package|public|internal|fileprivate|private|final|indirect)\s+)*(?:struct|class|enum|protocol|typealias)\s+(\w+)", re.M)
sources = collections.defaultdict(str)
declared = {}
own = collections.defaultdict(set)
for folder in sorted(os.listdir(root)):
    for path, _, names in os.walk(os.path.join(root, folder)):
        for name in sorted(names):
            if name.endswith(".swift"):
                text = code(open(os.path.join(path, name), encoding="utf-8").read())
                sources[folder] += text + "\n"
                for match in DECLARATION.finditer(text):
                    declared.setdefault(match.group(1), folder)
                    own[folder].add(match.group(1))
                # A nested type (Metric.Comparison) named like another folder's is the folder's own.
                own[folder].update(match.group(1) for match in NESTED.finditer(text))

uses = collections.defaultdict(lambda: collections.defaultdict(set))
for folder, text in sources.items():
    for word in set(re.findall(r"\b[A-Za-z_]\w*\b", text)):
        owner = declared.get(word)
        if owner and owner != folder and word not in own[folder]:
            uses[folder][owner].add(word)

for folder in sorted(sources):
    print(f"{folder} -> {', '.join(sorted(uses[folder])) or '(nothing)'}")

# Strongly connected components (Tarjan): each of two or more folders is a cycle.
index, low, stack, on_stack, cycles, counter = {}, {}, [], set(), [], [0]


def visit(node):
    index[node] = low[node] = counter[0]
    counter[0] += 1
    stack.append(node)
    on_stack.add(node)
    for other in uses[node]:
        if other not in index:
            visit(other)
            low[node] = min(low[node], low[other])
        elif other in on_stack:
            low[node] = min(low[node], index[other])
    if low[node] == index[node]:
        component = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        if len(component) > 1:
            cycles.append(sorted(component))


for folder in sorted(sources):
    if folder not in index:
        visit(folder)
for cycle in cycles:
    detail = "; ".join(f"{a} uses {b}'s {', '.join(sorted(uses[a][b])[:4])}" for a in cycle for b in cycle if b in uses[a])
    print(f"cycle: {' <-> '.join(cycle)} ({detail})")
if cycles:
    sys.exit(1)
print("no cycles")
