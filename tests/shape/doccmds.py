#!/usr/bin/env python3
"""Examples that parse (part of tests/check-shape.sh): every `lab ...`
command line in a fenced code block of README.md or docs/*.md must parse
with the current binary: its command (and `lab kernels` subcommand) exists
and every option on it is one the command lists. The binary checks it in
its parse-only mode (LAB_PARSE_ONLY=1, lab/help.c), which runs nothing:
kernel and experiment names need not resolve, values are not checked.

A line counts when it starts with `lab ` or `$ lab `, after any
`VAR=value` assignments (`$ LAB_HOME=/x lab kernels build ...`); a
trailing `\\` joins the next line; a `# comment`, and anything after a
`;`, `|`, `&&` or a redirection, is left out; `[` and `]` of usage
notation are dropped. Blocks between `<!-- example: ... -->` markers are
pasted output (tests/docs-examples.py) and are skipped.

  doccmds.py [--root DIR] LAB      (LAB: the built binary, build/lab)
  doccmds.py --self-test LAB       (a known-bad line must fail, a good
                                    one pass; also run before the docs)
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r'^\s*```')
EXAMPLE_OPEN = re.compile(r'<!-- example: .* -->')
EXAMPLE_CLOSE = '<!-- /example -->'
ASSIGN = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*=')
CUT = {';', '|', '||', '&', '&&', '>', '>>', '<', '2>', '>&', '(', ')'}


def code_lines(path):
    """(line number, text) of every line inside a fenced block outside the
    example markers, continuation lines joined. In a block with `$ `
    prompts only the prompted lines are commands: the rest is their output
    (`lab doctor: a cell can run here`)."""
    blocks, block = [], []
    for no, text in block_lines(path):
        if no is None:
            blocks.append(block)
            block = []
        else:
            block.append((no, text))
    out = []
    for b in blocks:
        prompted = any(text.startswith('$ ') for _, text in b)
        out += [(no, text) for no, text in b if not prompted or text.startswith('$ ')]
    return out


def block_lines(path):
    """The lines of fenced blocks outside the example markers, continuation
    lines joined; (None, None) ends each block."""
    out, in_code, in_example, pending = [], False, False, None
    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.rstrip('\n')
        if EXAMPLE_OPEN.search(line):
            in_example = True
            continue
        if line.strip() == EXAMPLE_CLOSE:
            in_example = False
            continue
        if FENCE.match(line):
            if in_code and not in_example:
                out.append((None, None))
            in_code = not in_code
            pending = None
            continue
        if not in_code or in_example:
            continue
        if pending:
            pending = (pending[0], pending[1] + ' ' + line.strip())
        else:
            pending = (no, line)
        if pending[1].endswith('\\'):
            pending = (pending[0], pending[1][:-1])
            continue
        out.append(pending)
        pending = None
    return out


def lab_args(text):
    """The arguments after `lab` of a command line, or None when the line
    is not a `lab` command."""
    s = text[2:] if text.startswith('$ ') else text
    if text.startswith((' ', '\t')):
        return None
    try:
        lex = shlex.shlex(s, posix=True, punctuation_chars=True)
        lex.whitespace_split = True
        lex.commenters = '#'
        words = list(lex)
    except ValueError:
        return None
    while words and ASSIGN.match(words[0]):
        words.pop(0)
    if not words or words[0] != 'lab':
        return None
    args = []
    for w in words[1:]:
        if w in CUT or (set(w) <= set(';|&<>') and w):
            if args and args[-1].isdigit():
                args.pop()  # the 2 of 2>log
            break
        w = w.strip('[]')
        if w:
            args.append(w)
    return args


# Options a command's parser takes but its --help does not list, so the
# parse-only check (which reads the --help) refuses them: each must be
# fixed in the command's usage, and then removed here (the check fails on
# an entry that parses, so this list only shrinks).
KNOWN_HELP_GAPS = {
}


def gap_of(args, why):
    """The KNOWN_HELP_GAPS entry a refusal is, or None."""
    m = re.search(r"unknown option '([^']+)' of lab (.+?) \(", why)
    return (m.group(2), m.group(1)) if m and (m.group(2), m.group(1)) in KNOWN_HELP_GAPS else None


def parses(lab, args):
    env = dict(os.environ, LAB_PARSE_ONLY='1')
    p = subprocess.run([lab] + args, env=env, capture_output=True, text=True, timeout=30)
    return p.returncode == 0, (p.stderr.strip().split('\n') or [''])[0]


def self_test(lab):
    cases = [
        (['run', '--kernels', '2.6.0,2.6.1-rc1', '-e', 'readahead-sweep', '-p', 'pata-2003'], True),
        (['run', '--kernels', 'a,b', '--no-such-option'], False),
        (['run', '-k', 'a', '-Z'], False),
        (['no-such-command'], False),
        (['kernels', 'no-such-subcommand'], False),
        (['kernels', 'build', '--repo', 'r', '--ref', 'v6.1', '--no-such-option'], False),
        (['show', '3', '--format', 'json'], True),
        (['show', '--no-such-option'], False),
    ]
    ok = True
    for args, want in cases:
        got, why = parses(lab, args)
        if got != want:
            print(f'doccmds self-test: lab {" ".join(args)}: '
                  f'{"parsed" if got else "refused"}, expected {"parse" if want else "refusal"} ({why})')
            ok = False
    for (cmd, opt), where in KNOWN_HELP_GAPS.items():
        got, _ = parses(lab, cmd.split() + [opt, 'x'])
        if got:
            print(f'doccmds self-test: lab {cmd} {opt} parses now: remove it from KNOWN_HELP_GAPS')
            ok = False
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, 'README.md'), 'w') as f:
            f.write('```\n$ lab run --kernels a,b --no-such-option\nlab doctor: output, not a command\n```\n'
                    '<!-- example: lab --help -->\n```\nlab COMMAND pasted output\n```\n<!-- /example -->\n'
                    '```sh\nlab run --kernels a \\\n    -e seqread\n```\n')
        got = check_docs(tmp, lab, say=lambda s: None)
        if got != (2, 1):
            print(f'doccmds self-test: a doc with one bad and one good command line gave {got}, not (2, 1)')
            ok = False
    line = lab_args('$ LAB_HOME=/x lab run --kernels a [-e E] 2>log; cat log  # note')
    if line != ['run', '--kernels', 'a', '-e', 'E']:
        print(f'doccmds self-test: a doc line split as {line}')
        ok = False
    return ok


def check_docs(root, lab, say=print):
    """(command lines, lines that do not parse) of root's README.md and
    docs/*.md, each bad one said."""
    bad = n = 0
    for path in [os.path.join(root, 'README.md')] + sorted(glob.glob(os.path.join(root, 'docs', '*.md'))):
        if not os.path.exists(path):
            continue
        for no, text in code_lines(path):
            args = lab_args(text)
            if args is None:
                continue
            n += 1
            ok, why = parses(lab, args)
            gap = None if ok else gap_of(args, why)
            if gap:
                say(f'doccmds: {os.path.relpath(path, root)}:{no}: known gap, not failed: '
                    f'lab {gap[0]} {gap[1]} ({KNOWN_HELP_GAPS[gap]})')
            elif not ok:
                say(f'doccmds: {os.path.relpath(path, root)}:{no}: `lab {" ".join(args)}` does not parse: {why}')
                bad += 1
    return n, bad


def main():
    argv = sys.argv[1:]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if '--root' in argv:
        i = argv.index('--root')
        root = argv[i + 1]
        del argv[i:i + 2]
    only_self = '--self-test' in argv
    argv = [a for a in argv if a != '--self-test']
    lab = os.path.abspath(argv[0] if argv else os.path.join(root, 'build', 'lab'))
    if not os.access(lab, os.X_OK):
        print(f'doccmds: no {lab} (make all)')
        return 2
    if not self_test(lab):
        print('doccmds: the self-test failed')
        return 1
    if only_self:
        print('doccmds: self-test ok')
        return 0
    n, bad = check_docs(root, lab)
    print(f'doccmds: {n} `lab` command line(s) in the docs, {bad} that do not parse')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
