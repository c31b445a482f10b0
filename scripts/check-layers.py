#!/usr/bin/env python3
"""Fails when a source file includes a header from a layer above its own.

The layer order is written once, in docs/architecture.md, in the fenced block marked `layers`: one
floor per line, the top floor first, folders of one floor separated by spaces. A file may include
headers of its own folder and of any folder on a lower floor; folders of the same floor are
independent of each other. Every folder of src/ must appear in the order, so a new folder gets a
floor before it gets code.

Usage: check-layers.py [--src DIR] [--doc FILE]   (defaults: src, docs/architecture.md)
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"')


def read_floors(doc_path):
    """Returns {folder: floor}, floor 0 being the lowest."""
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"^```layers\n(.*?)^```", text, re.M | re.S)
    if not block:
        sys.exit(f"check-layers: {doc_path} has no ```layers block")
    rows = [line.split() for line in block.group(1).splitlines() if line.strip()]
    floors = {}
    for floor, row in enumerate(reversed(rows)):
        for folder in row:
            if folder in floors:
                sys.exit(f"check-layers: {folder} appears twice in the layer order")
            floors[folder] = floor
    return floors


def unit_of(src, path):
    """The layer a file belongs to: its top folder under src, or the file's name at the top."""
    rel = os.path.relpath(path, src)
    parts = rel.split(os.sep)
    return parts[0] if len(parts) > 1 else parts[0]


def check(src, floors):
    problems = []
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".h", ".cpp")):
                continue
            path = os.path.join(root, name)
            unit = unit_of(src, path)
            if unit not in floors:
                problems.append(f"{path}: {unit} has no floor in the layer order")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if target == unit or not os.path.isdir(os.path.join(src, target)):
                        continue  # its own folder, or a library's header (<x/y.h> style in quotes)
                    if target not in floors:
                        problems.append(f"{path}:{number}: includes {target}/, which has no floor")
                    elif floors[target] >= floors[unit]:
                        where = "the same floor as" if floors[target] == floors[unit] else "a floor above"
                        problems.append(f"{path}:{number}: {unit} includes {target}/, {where} it")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default="src")
    parser.add_argument("--doc", default="docs/architecture.md")
    args = parser.parse_args()
    floors = read_floors(args.doc)
    problems = check(args.src, floors)
    for p in problems:
        print(p)
    if problems:
        print(f"check-layers: {len(problems)} include(s) against the layer order in {args.doc}")
        return 1
    print(f"check-layers: every include of {args.src} points down ({len(floors)} layers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
