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
