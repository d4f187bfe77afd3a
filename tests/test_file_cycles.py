#!/usr/bin/env python3
"""No circle of files: a module (a .h with its .c/.cpp of the same name) includes another's
header, directly or through others, only if that one never includes it back. The folders of
the project's C and C++ code are read; a header not among them (a system or a generated one)
is no module.

    test_file_cycles.py ROOT [FOLDER...]   exit 1, printing each circle, if there is one
                                           (through a module of one of the folders, if given)
"""
import os
import re
import sys

DIRS = ["sim", "checker", "dpi", "rtl_bridge", "rtl_bridge/opentpu", "gen", "shrink", "vectors"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def graph(root):
    """module name (folder/stem) -> the modules its files include"""
    files = {}
    for d in DIRS:
        path = os.path.join(root, d)
        if not os.path.isdir(path):
            continue
        for f in sorted(os.listdir(path)):
            stem, ext = os.path.splitext(f)
            if ext in (".h", ".c", ".cpp"):
                files.setdefault(f"{d}/{stem}", []).append(os.path.join(path, f))
    by_header = {}
    for mod, paths in files.items():
        if any(p.endswith(".h") for p in paths):
            by_header.setdefault(os.path.basename(mod) + ".h", []).append(mod)
    edges = {}
    for mod, paths in files.items():
        out = set()
        for p in paths:
            for inc in INCLUDE.findall(open(p, errors="replace").read()):
                targets = by_header.get(os.path.basename(inc), [])
                # a header beside the including file is the one the compiler finds first
                near = [t for t in targets if os.path.dirname(t) == os.path.dirname(mod)]
                for target in near or targets:
                    if target != mod:
                        out.add(target)
        edges[mod] = sorted(out)
    return edges


def cycles(edges):
    """each circle found by a depth-first walk, as the list of its modules"""
    found, state, stack = [], {}, []

    def walk(m):
        state[m] = 1
        stack.append(m)
        for n in edges.get(m, []):
            if state.get(n) == 1:
                found.append(stack[stack.index(n):] + [n])
            elif n not in state:
                walk(n)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            walk(m)
    return found


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    edges = graph(sys.argv[1])
    judged = [f.rstrip("/") + "/" for f in sys.argv[2:]]
    # the walker itself must see a circle when there is one
    if not cycles({"a": ["b"], "b": ["c"], "c": ["a"]}) or cycles({"a": ["b"], "b": []}):
        print("FAIL: the circle finder is wrong")
        return 1
    found = [c for c in cycles(edges)
             if not judged or any(m.startswith(f) for m in c for f in judged)]
    for c in found:
        print("circle: " + " -> ".join(c))
    print(f"{len(edges)} modules, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
