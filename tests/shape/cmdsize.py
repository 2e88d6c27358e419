#!/usr/bin/env python3
"""Small subcommands (part of tests/check-shape.sh). Fails (exit 1) when a
lab/cmd_*.c has MAX (250) lines or more: a subcommand's file is its command
line and its printing, and one that grows past that holds a second concern
(split it by concern, lab/README.md, or move the work down into the layer
that owns it).
  cmdsize.py [--root DIR]
  cmdsize.py --self-test   (a tree with a 250-line lab/cmd_x.c must fail,
                            one with 249 lines must pass)
"""
import glob
import os
import sys
import tempfile

MAX = 250


def check(root):
    problems = []
    files = sorted(glob.glob(os.path.join(root, 'lab', 'cmd_*.c')))
    for path in files:
        with open(path, errors='replace') as f:
            n = sum(1 for _ in f)
        if n >= MAX:
            problems.append('check-shape: lab/%s: %d lines (a cmd_*.c stays under %d: split it by concern)'
                            % (os.path.basename(path), n, MAX))
    for p in problems:
        print(p)
    if not problems:
        print('check-shape: %d lab/cmd_*.c file(s), each under %d lines' % (len(files), MAX))
    return 1 if problems else 0


def self_test():
    ok = True
    for lines, want in ((MAX - 1, 0), (MAX, 1)):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'lab'))
            with open(os.path.join(d, 'lab', 'cmd_x.c'), 'w') as f:
                f.write('int x;\n' * lines)
            with open(os.path.join(d, 'lab', 'big.c'), 'w') as f:
                f.write('int y;\n' * (2 * MAX))  # not a cmd_*.c: free
            if check(d) != want:
                print('self-test: lab/cmd_x.c of %d lines %s' % (lines, 'failed' if want == 0
                                                                     else 'passed'))
                ok = False
    return 0 if ok else 1


def main(argv):
    if argv[1:2] == ['--self-test']:
        return self_test()
    root = argv[2] if argv[1:2] == ['--root'] else '.'
    return check(root)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
