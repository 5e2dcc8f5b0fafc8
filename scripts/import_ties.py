#!/usr/bin/env python3
"""Counts the import ties inside src/games/: which module of src/games/
refers to which other, by the paths written in its files (`use` lines and
paths in code), and the pairs that refer to each other both ways.

A unit is a game's folder (`chess`), or one top-level file of src/games/
(`mod`, `query`, `game`, `registry`, ...). An edge A -> B means a file of A
names a path into B: `crate::games::B...`, `super::B...` resolved from the
file's own module, or (in the top-level files only) a bare `B::` for a game or a
top-level file.
A path that ends at an item of games/mod.rs (`super::Game`) is an edge to
`mod`. `pub mod B;` declarations are the module tree, not imports.

    scripts/import_ties.py [SRC_GAMES_DIR]   (default: src/games)
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "src/games"
games = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
top = sorted(f[:-3] for f in os.listdir(root) if f.endswith(".rs"))


def module_of(path):
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] == "mod":
        rel = rel[:-1]
    return ["games"] + rel


def unit_of(mod_path):
    if len(mod_path) < 2:
        return "mod"
    first = mod_path[1]
    if first in games:
        return first
    if first in top:
        return first
    return "mod"  # an item of games/mod.rs (a trait, a function)


PATH = re.compile(r"\b((?:crate|super)(?:::super)*)::(\{[^;]*?\}|[A-Za-z_][A-Za-z0-9_]*)", re.S)


def first_segments(group):
    """The first segment of each path in a `{a::b, c, d::{e}}` group."""
    body = group[1:-1]
    depth, cur, out = 0, "", []
    for ch in body:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [s.strip().split("::")[0].strip() for s in out if s.strip()]


def inline_modules(src):
    """The spans of inline `mod name { ... }` blocks."""
    spans = []
    for m in re.finditer(r"\bmod\s+\w+\s*\{", src):
        depth = 0
        for k in range(m.end() - 1, len(src)):
            if src[k] == "{":
                depth += 1
            elif src[k] == "}":
                depth -= 1
                if depth == 0:
                    spans.append((m.end(), k))
                    break
    return spans


edges = {}
for dirpath, _, files in os.walk(root):
    for f in files:
        if not f.endswith(".rs"):
            continue
        path = os.path.join(dirpath, f)
        me = module_of(path)
        src = open(path, encoding="utf-8").read()
        src = re.sub(r"//[^\n]*", "", src)
        u_from = unit_of(me)
        targets = set()
        inline = inline_modules(src)
        for m in PATH.finditer(src):
            head, rest = m.group(1), m.group(2)
            if head == "crate":
                if rest != "games":
                    continue
                after = src[m.end():]
                m2 = re.match(r"::(\{[^;]*?\}|[A-Za-z_][A-Za-z0-9_]*)", after)
                if not m2:
                    continue
                base, seg = ["games"], m2.group(1)
            else:
                # a file `x.rs` is module games::...::x; `super` is its
                # parent, less one for each inline `mod m { }` around it
                ups = head.count("super") - sum(a <= m.start() < b for a, b in inline)
                base = me[: len(me) - ups] if ups > 0 else me
                seg = rest
            segs = first_segments(seg) if seg.startswith("{") else [seg]
            for s in segs:
                if s in ("self",):
                    targets.add(unit_of(base))
                else:
                    targets.add(unit_of(base + [s]))
        if len(me) == 2 and me[1] in top or len(me) == 1:
            for g in games + [t for t in top if t != "mod" and t != me[-1]]:
                if re.search(r"(?<![:\w])" + g + r"::", src):
                    targets.add(g)
        for t in targets:
            if t != u_from:
                edges.setdefault(u_from, set()).add(t)

pairs = sorted({tuple(sorted((a, b))) for a, bs in edges.items() for b in bs if a in edges.get(b, set())})
for a in sorted(edges):
    print(f"{a} -> {', '.join(sorted(edges[a]))}")
print(f"two-way ties: {len(pairs)}")
for a, b in pairs:
    print(f"  {a} <-> {b}")
