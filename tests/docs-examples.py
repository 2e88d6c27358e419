#!/usr/bin/env python3
"""Examples that stay true: `make docs-examples`.

README.md and docs/*.md mark the output of cheap commands like this:

    <!-- example: lab profiles -->
    ```
    $ lab profiles
    ... (pasted here by this script)
    ```
    <!-- /example -->

This script runs each marked command with the current build and pastes
its output between the markers, with the machine's paths replaced: the
temporary LAB_HOME it runs under by $LAB_HOME, the checkout by $SRC,
other /tmp paths by $TMP, pids by N. `| head -n N` after the command keeps
the first N lines (then a line "...").

Only commands that neither boot, build nor fetch may be marked (the
CHEAP list); anything else is refused, so this never boots a guest: a
booting example stays quoted real output with its date and command.

  tests/docs-examples.py [--check] [LAB]   (LAB: build/lab by default)
  --check: change nothing, exit 1 when a block is out of date.
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r'(<!-- example: (.*?) -->\n)(.*?)(<!-- /example -->)', re.S)
HEAD = re.compile(r'^(.*?)\s*\|\s*head -n (\d+)$')

# argv prefixes (after `lab`) that print without booting, building or
# fetching anything; any command ending in --help is cheap as well.
CHEAP = [
    ['--help'],
    ['help'],
    ['experiments'],
    ['profiles'],
    ['cpus'],
    ['kernels', 'list'],
    ['kernels', 'era'],
    ['kernels', 'toolchain'],
]


def is_cheap(args):
    if args and args[-1] == '--help':
        return True
    return any(args[:len(p)] == p for p in CHEAP)


def clean(text, home):
    text = text.replace(home, '$LAB_HOME').replace(ROOT, '$SRC')
    text = text.replace('/var/cache/lab', '$LAB_HOME')
    text = re.sub(r'/tmp/[A-Za-z0-9._-]+', '$TMP', text)
    text = re.sub(r'\bpid \d+', 'pid N', text)
    return text


def no_network_prefix():
    """unshare -n where it works (root): a cheap command has no business
    on the network, and this makes sure of it."""
    try:
        ok = subprocess.run(['unshare', '-n', 'true'], capture_output=True).returncode == 0
    except OSError:
        ok = False
    return ['unshare', '-n'] if ok else []


def run_example(lab, spec, home, prefix):
    head = None
    m = HEAD.match(spec)
    if m:
        spec, head = m.group(1), int(m.group(2))
    words = shlex.split(spec)
    if not words or words[0] != 'lab':
        raise SystemExit(f'docs-examples: not a lab command: {spec!r}')
    if not is_cheap(words[1:]):
        raise SystemExit(f'docs-examples: {spec!r} may boot, build or fetch: '
                         'quote its real output instead of marking it')
    env = dict(os.environ, LAB_HOME=home, LAB_STORE=os.path.join(home, 'results.db'),
               LAB_PROGRESS='off')
    p = subprocess.run(prefix + [lab] + words[1:], env=env, capture_output=True,
                       text=True, timeout=60)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        raise SystemExit(f'docs-examples: {spec!r} exited {p.returncode}:\n{out}')
    lines = clean(out, home).rstrip('\n').split('\n')
    if head is not None and len(lines) > head:
        lines = lines[:head] + ['...']
    return '```\n$ ' + spec.split('|')[0].strip() + '\n' + '\n'.join(lines) + '\n```\n'


def main():
    args = sys.argv[1:]
    check = '--check' in args
    args = [a for a in args if a != '--check']
    lab = os.path.abspath(args[0] if args else os.path.join(ROOT, 'build', 'lab'))
    if not os.access(lab, os.X_OK):
        raise SystemExit(f'docs-examples: no {lab} (make all)')
    prefix = no_network_prefix()
    home = tempfile.mkdtemp(prefix='lab-docs-examples.')
    stale = changed = blocks = 0
    try:
        files = [os.path.join(ROOT, 'README.md')] + sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md')))
        for path in files:
            text = open(path).read()

            def fill(m):
                nonlocal blocks
                blocks += 1
                return m.group(1) + run_example(lab, m.group(2), home, prefix) + m.group(4)

            new = MARK.sub(fill, text)
            if new != text:
                rel = os.path.relpath(path, ROOT)
                if check:
                    print(f'docs-examples: {rel} is out of date')
                    stale += 1
                else:
                    open(path, 'w').write(new)
                    print(f'docs-examples: updated {rel}')
                    changed += 1
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f'docs-examples: {blocks} example(s), {changed} file(s) updated, {stale} out of date')
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main())
