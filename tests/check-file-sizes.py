#!/usr/bin/env python3
"""No source file over 1,000 lines (HACKING.md): every C, header,
JavaScript and Python file of the tree, one TAP line each that is over,
or one passing line.  Usage: check-file-sizes.py SOURCE_ROOT"""
import os
import subprocess
import sys

LIMIT = 1000
ENDINGS = ('.c', '.h', '.js', '.mjs', '.py')


def tracked(root):
    """The git checkout's files, or, in a tree that is not one (a source
    tarball), every file below root outside build and package folders."""
    out = subprocess.run(['git', '-C', root, 'ls-files', '-z'], capture_output=True, check=False)
    if out.returncode == 0:
        return [p for p in out.stdout.decode('utf-8').split('\0') if p.endswith(ENDINGS)]
    found = []
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(('build', '.')) and d != 'node_modules']
        found += [os.path.relpath(os.path.join(top, n), root) for n in names if n.endswith(ENDINGS)]
    return found


def main():
    root = sys.argv[1]
    files = tracked(root)
    print('TAP version 13')
    over = []
    for path in files:
        with open(f'{root}/{path}', 'rb') as f:
            n = f.read().count(b'\n')
        if n > LIMIT:
            over.append((path, n))
    print(f'1..{max(1, len(over))}')
    if not over:
        print(f'ok 1 - {len(files)} source files, none over {LIMIT} lines')
    for k, (path, n) in enumerate(over, 1):
        print(f'not ok {k} - {path}: {n} lines, over {LIMIT}')
    return 1 if over else 0


sys.exit(main())
