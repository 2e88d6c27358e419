#!/usr/bin/env python3
"""True docs (part of tests/check-shape.sh). Fails (exit 1) on:
  - a README.md or docs/*.md naming a repository file that does not exist:
    a path in `code` or a link target whose first part is a top-level
    entry of the repository (host/plan/cellplan.c, ../docs/era-facts.md),
    or a bare file name listed as a folder README lists its files (the
    first cell of a table row, the start of a list item: `store.{c,h}`),
    which is looked up in the README's own folder. Globs must match
    something; {a,b} expands. Prose, kernel-tree paths (include/linux/...)
    and build outputs (build/...) are not paths of the repository;
  - a folder README that leaves out one of its folder's .c files;
  - any file citing a design document kept outside the repository.
  docpaths.py [--root DIR]
  docpaths.py --self-test   (the checker on a tree it writes: a missing
                             path, a missing .c and an outside citation
                             must fail, a clean tree must pass)
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys
import tempfile

EXT = ('c', 'h', 'sh', 'py', 'mk', 'md', 'exp', 'profile', 'txt', 'json', 'xml', 'frag',
       'config', 'cfg', 'dict', 'png', 'svg', 'html')
PATHLIKE = re.compile(r'^[A-Za-z0-9_.\-/{},*]+$')
CODE = re.compile(r'`([^`\n]+)`')
LINK = re.compile(r'\]\(([^)\s#]+)(?:#[^)]*)?\)')
LISTED = re.compile(r'^\s*(?:\|\s*|[-*]\s+)`([^`]+)`')
PLACEHOLDER = re.compile(r'^(NAME|VERSION|KEY|ID|RUN|DIR|PATH|FILE|HOST|ATTEMPT|N|X|SPOOL)$')
OUTSIDE = ('LAB-' + 'DESIGN', 'shared/' + 'design')
SKIP = ('.git', 'build')


def expand(p):
    """store.{c,h} -> store.c store.h (one brace group per level)."""
    m = re.search(r'\{([^{}]*)\}', p)
    if not m:
        return [p]
    out = []
    for alt in m.group(1).split(','):
        out += expand(p[:m.start()] + alt + p[m.end():])
    return out


def has_ext(p):
    base = p.rstrip('/').rsplit('/', 1)[-1]
    return p.endswith('/') or any(base.endswith('.' + e) or base.endswith('.{' + e) or
                                  re.search(r'\.\{[^}]*\b%s\b' % e, base) for e in EXT)


def exists(root, rel):
    full = os.path.normpath(os.path.join(root, rel))
    return bool(glob.glob(full)) if any(c in rel for c in '*?') else os.path.exists(full)


def files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-co', '--exclude-standard'],
                             capture_output=True, text=True, check=True).stdout.split('\n')
        return sorted(f for f in out if f and os.path.exists(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, subdirs, names in os.walk(root):
            subdirs[:] = [s for s in subdirs if s not in SKIP]
            found += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return sorted(found)


def check_doc(root, doc, top, problems):
    here = os.path.dirname(doc)
    for n, line in enumerate(open(os.path.join(root, doc), errors='replace'), 1):
        listed = LISTED.match(line)
        spans = [(m.group(1), 'code') for m in CODE.finditer(line)]
        spans += [(m.group(1), 'link') for m in LINK.finditer(line)]
        for text, kind in spans:
            text = text.strip()
            if not PATHLIKE.match(text) or not has_ext(text) or '://' in text:
                continue
            first = text.split('/', 1)[0]
            if '/' in text:
                if (first == '..' or first == '.') and kind == 'code':
                    continue  # a command's path from the checkout (../shared/kernels)
                if first == '..' or first == '.':
                    base = here  # a link: relative to the doc
                elif first in top and first != 'build':
                    base = ''
                else:
                    continue  # a kernel tree's path, /proc, an output
            elif listed and listed.group(1) == text and here and not here.startswith('docs'):
                base = here  # a folder README's list of its files
            else:
                continue  # a bare name in prose
            if any(PLACEHOLDER.match(c.split('.')[0]) for c in text.split('/')):
                continue  # a template: lab/experiments/NAME.exp
            for p in expand(text):
                if not exists(root, os.path.join(base, p)):
                    problems.append('%s:%d: names %s, which does not exist' % (doc, n, p))


def check_listing(root, readme, problems):
    """Every .c of the README's folder named in it."""
    here = os.path.dirname(readme)
    text = open(os.path.join(root, readme), errors='replace').read()
    named = set()
    for m in CODE.finditer(text):
        for p in expand(m.group(1).strip()):
            named.add(os.path.basename(p))
    for c in sorted(glob.glob(os.path.join(root, here, '*.c'))):
        name = os.path.basename(c)
        if not any(fnmatch.fnmatchcase(name, n) for n in named):
            problems.append('%s: does not name %s (a file of its folder)' % (readme, name))


def check(root):
    problems = []
    all_files = files(root)
    top = {f.split('/', 1)[0] for f in all_files}
    for f in all_files:
        name = os.path.basename(f)
        if name == 'README.md' or (f.startswith('docs/') and f.endswith('.md')):
            check_doc(root, f, top, problems)
        if name == 'README.md' and os.path.dirname(f):
            check_listing(root, f, problems)
        if f.startswith('tests/fuzz/corpus/') or f == 'tests/shape/docpaths.py':
            continue
        try:
            text = open(os.path.join(root, f), errors='replace').read()
        except (IsADirectoryError, FileNotFoundError):
            continue
        for n, line in enumerate(text.split('\n'), 1):
            for o in OUTSIDE:
                if o in line:
                    problems.append('%s:%d: cites %s, a document outside the repository; '
                                    'the facts belong in docs/' % (f, n, o))
    for p in problems:
        print('check-shape: ' + p)
    print('check-shape: docs name %s' % ('only files that exist' if not problems
                                           else '%d missing thing(s)' % len(problems)))
    return 1 if problems else 0


def write(root, files_):
    for path, text in files_.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'w') as f:
            f.write(text)


def self_test():
    clean = {
        'README.md': 'See `host/a.c` and [the facts](docs/facts.md). In prose `b.c` is fine,\n'
                     'so is `include/linux/fs.h` and `build/lab`.\n',
        'docs/facts.md': 'Measured here. [back](../README.md), `host/*.c`.\n',
        'host/README.md': '| file | owns |\n|---|---|\n| `a.{c,h}` | a |\n',
        'host/a.c': '/* docs/facts.md */\n',
        'host/a.h': '',
    }
    bad = [
        ('README.md', 'See `host/gone.c`.\n'),
        ('docs/facts.md', '[x](../host/gone.md)\n'),
        ('host/README.md', '| file | owns |\n|---|---|\n| `a.{c,h}` | a |\n| `b.c` | b |\n'),
        ('host/b.c', ''),  # a .c its README does not name
        ('host/a.c', '/* see ' + OUTSIDE[0] + '.md */\n'),
    ]
    ok = True
    with tempfile.TemporaryDirectory() as d:
        write(d, clean)
        if check(d) != 0:
            print('self-test: a clean tree failed')
            ok = False
    for path, text in bad:
        with tempfile.TemporaryDirectory() as d:
            write(d, clean)
            write(d, {path: text})
            if check(d) == 0:
                print('self-test: %s with %r passed' % (path, text))
                ok = False
    return 0 if ok else 1


def main(argv):
    if argv[1:2] == ['--self-test']:
        return self_test()
    root = argv[2] if argv[1:2] == ['--root'] else '.'
    return check(root)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
