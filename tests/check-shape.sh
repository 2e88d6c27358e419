#!/bin/bash
# The code's shape (issue 12), checked by make check:
#  1. no call cycle between the guest agent's files: the call graph comes
#     from the compiler (gcc -fcallgraph-info, direct calls of each function
#     of guest-agent/*.c), folded to files; a file may call itself;
#  2. no function longer than 100 lines (first line to closing brace, as
#     universal-ctags gives them) outside tests/, in host kernels images lab
#     guest-agent common, except those listed in tests/shape-allow.txt
#     ("path function lines", a list that only shrinks: an entry whose
#     function has grown, or is gone or short, fails too, so the file stays
#     true). guest-agent may have no entries.
#  3. the folders' layering, from their includes (tests/shape/folders.py):
#     no include cycle between folders, and the pure folders (host/hdd,
#     store, plan, stats) never reach libvirt; the checker's own self-test
#     (a cyclic and an impure tree it writes must fail) runs first;
#  4. true docs (tests/shape/docpaths.py): a README.md or docs/*.md naming a
#     repository file that does not exist, a folder README leaving out one
#     of its folder's .c files, or any file citing a design document kept
#     outside the repository fails; its self-test runs first;
#  5. one kernel-version rules table: a kernel version is compared (a
#     version constant, its parts, lab_kver_in, a version field with < or >)
#     only in kernels/rules.c and the era table (kernels/era.{c,h}), and in
#     the compat layer's own tables of what gcc 12 needs per version range
#     (kernels/compat.c, toolchain.c); tests are free to;
#  6. examples that parse (tests/shape/doccmds.py): every `lab ...` command
#     line in a code block of README.md or docs/*.md parses with the built
#     binary ($LAB_SHAPE_LAB, else build/lab) in its parse-only mode
#     (LAB_PARSE_ONLY=1: command, subcommand and option names; nothing
#     runs); its self-test (a known-bad line must fail) runs first;
#  7. small subcommands (tests/shape/cmdsize.py): a lab/cmd_*.c of 250
#     lines or more fails; its self-test runs first;
#  8. examples that stay true: every block between `<!-- example: lab ...
#     -->` markers is what the built binary prints today (make
#     docs-examples rewrites them; tests/docs-examples.py --check);
#   tests/check-shape.sh [--list]   (--list: print every long function)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root" || exit 2
max=100
allow=$here/shape-allow.txt
for tool in gcc ctags python3; do
    command -v $tool >/dev/null || { echo "check-shape: no $tool (tests/deps.sh installs it)"; exit 2; }
done
ctags --version 2>/dev/null | grep -q 'Universal Ctags' ||
    { echo "check-shape: ctags is not universal-ctags (tests/deps.sh installs it)"; exit 2; }
tmp=$(mktemp -d /tmp/lab-shape.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0

list=0
[ "${1:-}" = --list ] && list=1

# 1. The agent's call graph, one .ci file per translation unit.
[ $list = 1 ] || for f in guest-agent/*.c; do
    b=$(basename "$f" .c)
    if ! gcc -c -O0 -std=gnu11 -ffreestanding -Iguest-agent -I. -fcallgraph-info \
        -dumpdir "$tmp/" -o "$tmp/$b.o" "$f" 2>"$tmp/$b.err"; then
        echo "check-shape: cannot compile $f:"; cat "$tmp/$b.err"; exit 2
    fi
done
[ $list = 1 ] || python3 - "$tmp" <<'EOF' || fail=1
import glob, os, re, sys
tmp = sys.argv[1]
node = re.compile(r'^node: \{ title: "([^"]*)" label: "[^"]*"( shape : ellipse)? \}')
edge = re.compile(r'^edge: \{ sourcename: "([^"]*)" targetname: "([^"]*)"(?: label: "([^"]*)")?')
defined = {}   # global function -> file
calls = []     # (file, caller, callee, where)
for ci in sorted(glob.glob(os.path.join(tmp, '*.ci'))):
    f = os.path.basename(ci)[:-3] + '.c'
    for line in open(ci):
        m = node.match(line)
        if m and not m.group(2) and ':' not in m.group(1):
            defined[m.group(1)] = f
        m = edge.match(line)
        if m:
            calls.append((f, m.group(1).split(':')[-1], m.group(2), m.group(3) or ''))
graph = {}
for f, caller, callee, where in calls:
    g = defined.get(callee)
    if g and g != f:
        graph.setdefault(f, {}).setdefault(g, (caller, callee, where))
# Tarjan's strongly connected components: any with two files is a cycle.
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in graph.get(v, {}):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v: break
        if len(c) > 1: sccs.append(sorted(c))
sys.setrecursionlimit(10000)
for v in sorted(set(graph) | set(defined.values())):
    if v not in index: visit(v)
for c in sccs:
    print('check-shape: call cycle between guest-agent files: ' + ' '.join(c))
    for f in c:
        for g, (caller, callee, where) in sorted(graph.get(f, {}).items()):
            if g in c:
                print('    %s -> %s: %s calls %s (%s)' % (f, g, caller, callee, where))
if not sccs:
    print('check-shape: no call cycle among %d guest-agent files' % len(set(defined.values())))
sys.exit(1 if sccs else 0)
EOF

# 3. The folders' layering: the checker proves itself, then checks the tree.
if [ $list = 0 ]; then
    python3 "$here/shape/folders.py" --self-test >"$tmp/self" ||
        { echo "check-shape: the folder checker's self-test failed:"; cat "$tmp/self"; fail=1; }
    python3 "$here/shape/folders.py" --root "$root" || fail=1
fi

# 4. True docs: the checker proves itself, then checks the tree.
if [ $list = 0 ]; then
    python3 "$here/shape/docpaths.py" --self-test >"$tmp/docself" ||
        { echo "check-shape: the docs checker's self-test failed:"; cat "$tmp/docself"; fail=1; }
    python3 "$here/shape/docpaths.py" --root "$root" || fail=1
fi

# 5. Version comparisons only in the rules table (and the builder's rules).
if [ $list = 0 ]; then
    kver='LAB_KV(4|_RC)?\(|LAB_KV_(MAJOR|MINOR|PATCH|SUB|RCNUM)\(|lab_kver_in\(|(->|\.)version\s*[<>]'
    allowed='^kernels/(rules\.c|rules\.h|era\.c|era\.h|toolchain\.c|compat\.c):'
    grep -nE "$kver" -r --include='*.c' --include='*.h' host kernels images lab guest-agent common |
        grep -vE "$allowed" >"$tmp/kver"
    if [ -s "$tmp/kver" ]; then
        sed 's/^/check-shape: a version compared outside kernels\/rules.c: /' "$tmp/kver"; fail=1
    else
        echo "check-shape: kernel versions are compared only in the rules table"
    fi
fi

# 6. The docs' command lines parse with the binary as built.
if [ $list = 0 ]; then
    lab_bin=${LAB_SHAPE_LAB:-$root/build/lab}
    if [ ! -x "$lab_bin" ]; then
        echo "check-shape: no $lab_bin to parse the docs' command lines with (make all)"; fail=1
    else
        python3 "$here/shape/doccmds.py" --self-test "$lab_bin" >"$tmp/cmdself" ||
            { echo "check-shape: the command-line checker's self-test failed:"; cat "$tmp/cmdself"; fail=1; }
        python3 "$here/shape/doccmds.py" --root "$root" "$lab_bin" || fail=1
    fi
fi

# 7. Small subcommands: the checker proves itself, then checks the tree.
if [ $list = 0 ]; then
    python3 "$here/shape/cmdsize.py" --self-test >"$tmp/sizeself" ||
        { echo "check-shape: the subcommand size checker's self-test failed:"; cat "$tmp/sizeself"; fail=1; }
    python3 "$here/shape/cmdsize.py" --root "$root" || fail=1
fi

# 8. The docs' pasted examples are today's output (cheap commands only).
if [ $list = 0 ] && [ -x "${lab_bin:-}" ]; then
    python3 "$here/docs-examples.py" --check "$lab_bin" ||
        { echo "check-shape: an example in the docs is stale: make docs-examples"; fail=1; }
fi

# 2. Function lengths.
dirs=()
for d in host kernels images lab guest-agent common; do [ -d "$d" ] && dirs+=("$d"); done
find "${dirs[@]}" -name '*.c' -o -name '*.h' | sort >"$tmp/files"
ctags -x --languages=C --kinds-C=f --_xformat='%F %N %n %e' -L "$tmp/files" |
    awk -v max=$max '$4 != "" { n = $4 - $3 + 1; if (n > max) print $1, $2, n }' | sort >"$tmp/long"
if [ $list = 1 ]; then cat "$tmp/long"; exit 0; fi
[ -f "$allow" ] || : >"$allow"
grep -v '^\s*\(#\|$\)' "$allow" | sort >"$tmp/allow"
while read -r file fn n; do
    case $file in
    guest-agent/*) echo "check-shape: $file $fn: $n lines (the agent has no allowance)"; fail=1 ;;
    *)
        a=$(awk -v f="$file" -v g="$fn" '$1 == f && $2 == g { print $3 }' "$tmp/allow")
        if [ -z "$a" ]; then
            echo "check-shape: $file $fn: $n lines (at most $max; split it)"; fail=1
        elif [ "$n" -gt "$a" ]; then
            echo "check-shape: $file $fn: $n lines, longer than its allowance of $a"; fail=1
        fi
        ;;
    esac
done <"$tmp/long"
while read -r file fn a; do
    n=$(awk -v f="$file" -v g="$fn" '$1 == f && $2 == g { print $3 }' "$tmp/long")
    case $file in guest-agent/*)
        echo "check-shape: $allow: guest-agent may have no entries ($file $fn)"; fail=1; continue ;;
    esac
    if [ -z "$n" ]; then
        echo "check-shape: $file $fn is no longer over $max lines: remove it from $allow"; fail=1
    elif [ "$n" -lt "$a" ]; then
        echo "check-shape: $file $fn is now $n lines: lower its allowance ($a) in $allow"; fail=1
    fi
done <"$tmp/allow"
echo "check-shape: $(wc -l <"$tmp/long") function(s) over $max lines, $(wc -l <"$tmp/allow") allowed"
exit $fail
