#!/usr/bin/env python3
"""The folders' layering, from their includes (part of tests/check-shape.sh).

A folder is a directory holding C files (host/plan, kernels, lab, ...). An
include of "DIR/file.h" from a file in another folder is an edge between the
two folders. It fails (exit 1) on:
  - a cycle between folders (a strongly connected set of two or more), named
    with one include that makes each edge;
  - a pure folder (PURE below, or --pure) that reaches <libvirt/...>, through
    its own files or through any folder it includes.
  folders.py [--root DIR] [--pure FOLDER ...]
  folders.py --self-test   (the checker on trees it writes: a cycle and a
                            pure folder reaching libvirt must fail, a clean
                            tree must pass)
"""
import os
import re
import sys
import tempfile

PURE = ['host/hdd', 'host/store', 'host/plan', 'host/stats']
SKIP = ('tests', '.git', 'build')
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')


def scan(root):
    """folder -> {folder it includes: 'file:line'}, and folder -> libvirt site."""
    edges, libvirt = {}, {}
    for d, subdirs, files in os.walk(root):
        subdirs[:] = [s for s in subdirs if s not in SKIP and not s.startswith('.')]
        rel = os.path.relpath(d, root)
        for f in sorted(files):
            if not f.endswith(('.c', '.h')):
                continue
            path = os.path.join(d, f)
            for n, line in enumerate(open(path, errors='replace'), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                where = '%s:%d' % (os.path.relpath(path, root), n)
                target = m.group(2)
                if m.group(1) == '<':
                    if target.startswith('libvirt/'):
                        libvirt.setdefault(rel, where)
                    continue
                folder = os.path.dirname(target)
                if folder and folder != rel and os.path.isdir(os.path.join(root, folder)):
                    edges.setdefault(rel, {}).setdefault(folder, where)
    return edges, libvirt


def cycles(edges):
    """Tarjan's strongly connected components with two or more folders."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(set(edges) | {w for e in edges.values() for w in e}):
        if v not in index:
            visit(v)
    return out


def reaches_libvirt(folder, edges, libvirt):
    """The include path by which a folder reaches libvirt, or None."""
    seen, todo = {folder}, [(folder, [])]
    while todo:
        f, path = todo.pop(0)
        if f in libvirt:
            return path + [libvirt[f]]
        for g, where in sorted(edges.get(f, {}).items()):
            if g not in seen:
                seen.add(g)
                todo.append((g, path + [where]))
    return None


def check(root, pure):
    edges, libvirt = scan(root)
    problems = []
    for comp in cycles(edges):
        sites = ['%s -> %s (%s)' % (a, b, edges[a][b])
                 for a in comp for b in sorted(edges.get(a, {})) if b in comp]
        problems.append('include cycle between folders %s: %s'
                        % (' '.join(comp), '; '.join(sites)))
    for folder in pure:
        path = reaches_libvirt(folder, edges, libvirt)
        if path:
            problems.append('pure folder %s reaches libvirt: %s' % (folder, ' -> '.join(path)))
    return problems


def self_test():
    def tree(files):
        root = tempfile.mkdtemp(prefix='lab-shape-')
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), 'w') as f:
                f.write(text)
        return root

    clean = {'host/a/a.c': '#include "host/b/b.h"\n', 'host/b/b.h': '#include <stdio.h>\n',
             'host/c/c.c': '#include <libvirt/libvirt.h>\n#include "host/a/a.h"\n',
             'host/a/a.h': ''}
    cyclic = dict(clean)
    cyclic['host/b/b.h'] = '#include "host/a/a.h"\n'
    impure = dict(clean)
    impure['host/b/b.h'] = '#include "host/c/c.h"\n'
    impure['host/c/c.h'] = ''
    cases = [('clean tree', clean, 0, ''), ('cycle a<->b', cyclic, 1, 'include cycle between folders host/a host/b'),
             ('pure a reaches libvirt via b, c', impure, None, 'pure folder host/a reaches libvirt')]
    failed = 0
    for name, files, want, text in cases:
        got = check(tree(files), ['host/a'])
        ok = (not got) if want == 0 else any(text in p for p in got)
        print('%s: %s%s' % ('ok' if ok else 'FAIL', name, '' if ok else ' -> %r' % got))
        failed += not ok
    return 1 if failed else 0


def main(argv):
    if argv[1:2] == ['--self-test']:
        return self_test()
    root, pure = '.', list(PURE)
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == '--root':
            root = args.pop(0)
        elif a == '--pure':
            pure.append(args.pop(0))
    problems = check(root, pure)
    for p in problems:
        print('check-shape: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
