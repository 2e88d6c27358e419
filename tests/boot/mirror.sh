#!/bin/bash
# Kernels by name through a mirror: a directory laid out like kernel.org's
# pub/linux/kernel/ (v2.6/linux-2.6.11.tar.xz, v2.6/testing/patch-2.6.12-rc2.xz,
# each directory's sha256sums.asc) made from ../shared/kernels, and the same
# tree served over http on 127.0.0.1 for the libcurl path. `lab run
# --kernels 2.6.11,2.6.12-rc2,2.6.11+VARIANT` fetches, patches, builds,
# smoke-tests and runs them (the build cache is shared by builder hash, so
# a warm machine only boots); the prepatch must have made 2.6.12-rc2 (the
# agent's uname), the variant (a one-line change written here) runs beside
# its base under its label in the table, JSON and HTML, and the store holds
# its patch. A second run fetches and builds nothing. Refused, with nothing
# cached: a bad checksum, a truncated patch, a hunk that does not apply, a
# name the mirror lacks (exit 2, every URL tried), an unreachable mirror
# (exit 2 within the connect timeout). Two labs fetching one kernel: one
# waits and says so.
. "$(dirname "$0")/lib.sh"

here=$(cd "$(dirname "$0")/../.." && pwd)
srcs=${LAB_ERA_SOURCES:-$here/../shared/kernels}
for f in linux-2.6.11.tar.xz patch-2.6.12-rc2.xz; do
    if [ ! -r "$srcs/$f" ]; then
        not_ok "the era source $srcs/$f is there"
        finish
        exit
    fi
done

# The mirror: links to the shared files, never copies; sha256sums.asc as
# kernel.org signs them (only the "HEX  NAME" lines count).
mirror=$tmp/mirror
mkdir -p "$mirror/v2.6/testing" "$mirror/v2.4"
ln -s "$srcs/linux-2.6.11.tar.xz" "$mirror/v2.6/"
ln -s "$srcs/patch-2.6.12-rc2.xz" "$mirror/v2.6/testing/"
sums() {  # DIR: its sha256sums.asc, clear-signed like kernel.org's
    { echo '-----BEGIN PGP SIGNED MESSAGE-----'; echo 'Hash: SHA256'; echo
      (cd "$1" && sha256sum -- *.xz)
      echo '-----BEGIN PGP SIGNATURE-----'; echo 'x'; echo '-----END PGP SIGNATURE-----'
    } >"$1/sha256sums.asc"
}
# A stable patch beside the release, made here as kernel.org's are (a
# "-p1" diff of linux-2.6.11 against linux-2.6.11.1, xz'd): the version
# bump and one line, the default readahead window halved.
mkdir -p "$tmp/s/linux-2.6.11/mm" "$tmp/s/linux-2.6.11.1/mm"
tar -xOJf "$srcs/linux-2.6.11.tar.xz" linux-2.6.11/Makefile >"$tmp/s/linux-2.6.11/Makefile"
tar -xOJf "$srcs/linux-2.6.11.tar.xz" linux-2.6.11/mm/readahead.c >"$tmp/s/linux-2.6.11/mm/readahead.c"
sed 's/^EXTRAVERSION =$/EXTRAVERSION = .1/' "$tmp/s/linux-2.6.11/Makefile" >"$tmp/s/linux-2.6.11.1/Makefile"
sed 's|^\t.ra_pages\t= (VM_MAX_READAHEAD \* 1024)|\t.ra_pages\t= (VM_MAX_READAHEAD * 1024 / 2)|' \
    "$tmp/s/linux-2.6.11/mm/readahead.c" >"$tmp/s/linux-2.6.11.1/mm/readahead.c"
(cd "$tmp/s" && diff -urN linux-2.6.11 linux-2.6.11.1) | xz >"$mirror/v2.6/patch-2.6.11.1.xz"
sums "$mirror/v2.6"
sums "$mirror/v2.6/testing"
export LAB_KERNEL_MIRROR=$mirror

# The variant: one line of 2.6.11, the default readahead window doubled
# (one file: the build cache and ccache keep the rest).
mkdir -p "$tmp/a/mm" "$tmp/b/mm"
tar -xOJf "$srcs/linux-2.6.11.tar.xz" linux-2.6.11/mm/readahead.c >"$tmp/a/mm/readahead.c"
sed 's|^\t.ra_pages\t= (VM_MAX_READAHEAD \* 1024)|\t.ra_pages\t= (2 * VM_MAX_READAHEAD * 1024)|' \
    "$tmp/a/mm/readahead.c" >"$tmp/b/mm/readahead.c"
(cd "$tmp" && diff -u a/mm/readahead.c b/mm/readahead.c) >"$tmp/ra2x.diff"
check "the variant's patch is one changed line" \
    test "$(grep -c '^+.*2 \* VM_MAX_READAHEAD' "$tmp/ra2x.diff")" -eq 1

# Unreachable: nothing listens on port 9 of 127.0.0.1; a black-holed
# address runs into the connect timeout. Both in an empty LAB_HOME: a 2.6.0
# made by name earlier on this machine would run without asking a mirror.
start=$(date +%s)
LAB_HOME=$tmp/home-unreach LAB_KERNEL_MIRROR=http://127.0.0.1:9/pub/linux/kernel/ \
    LAB_KERNEL_DOWNLOADS=$tmp/dl-none \
    "$lab" run --kernels 2.6.0 -e seqread -p pata-2003 >"$tmp/unreach" 2>&1
rc=$?
cat "$tmp/unreach"
check "an unreachable mirror: exit 2 (got $rc)" test $rc -eq 2
check "naming the URL and LAB_KERNEL_MIRROR" \
    grep -q 'cannot reach http://127.0.0.1:9/pub/linux/kernel/v2.6/linux-2.6.0.tar.xz.*LAB_KERNEL_MIRROR' \
    "$tmp/unreach"
start=$(date +%s)
LAB_HOME=$tmp/home-unreach LAB_KERNEL_MIRROR=http://10.255.255.1/ LAB_KERNEL_CONNECT_TIMEOUT=3 \
    LAB_KERNEL_DOWNLOADS=$tmp/dl-none \
    "$lab" run --kernels 2.6.0 -e seqread >"$tmp/unreach2" 2>&1
rc=$?
took=$(($(date +%s) - start))
check "a silent mirror: exit 2 within the connect timeout (got $rc after $took s)" \
    test $rc -eq 2 -a $took -le 10

# A name the mirror does not have: exit 2 with every URL tried.
LAB_KERNEL_DOWNLOADS=$tmp/dl-none "$lab" kernels fetch 2.6.99 >"$tmp/absent" 2>&1
rc=$?
cat "$tmp/absent"
check "2.6.99: exit 2 (got $rc)" test $rc -eq 2
check "saying what was tried" grep -q 'tried .*linux-2.6.99.tar.xz, .*linux-2.6.99.tar.bz2, .*linux-2.6.99.tar.gz' "$tmp/absent"
"$lab" kernels fetch 2.6.1x >"$tmp/bad" 2>&1
rc=$?
cat "$tmp/bad"
check "a malformed name: exit 2 (got $rc)" test $rc -eq 2

# libcurl over http: the same tree on 127.0.0.1, with a bad checksum and a
# truncated patch beside it (other trees, other ports' worth of names).
bad=$tmp/badmirror
mkdir -p "$bad/good/v2.6/testing" "$bad/sum/v2.6/testing" "$bad/trunc/v2.6/testing"
for d in good sum trunc; do ln -s "$srcs/linux-2.6.11.tar.xz" "$bad/$d/v2.6/"; done
ln -s "$srcs/patch-2.6.12-rc2.xz" "$bad/good/v2.6/testing/"
ln -s "$srcs/patch-2.6.12-rc2.xz" "$bad/sum/v2.6/testing/"
head -c 1000000 "$srcs/patch-2.6.12-rc2.xz" >"$bad/trunc/v2.6/testing/patch-2.6.12-rc2.xz"
sums "$bad/good/v2.6"
sums "$bad/good/v2.6/testing"
sed 's/^e06a63ca/00000000/' "$mirror/v2.6/testing/sha256sums.asc" >"$bad/sum/v2.6/testing/sha256sums.asc"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
timeout 900 python3 -m http.server --bind 127.0.0.1 --directory "$bad" "$port" >"$tmp/http.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
url=http://127.0.0.1:$port

no_partial() { ! find "$1" -name '*.part-*' 2>/dev/null | grep -q .; }
# Ctrl-C mid-download: the transfer stops, nothing is kept.
LAB_KERNEL_MIRROR=$url/good/ LAB_KERNEL_DOWNLOADS=$tmp/dl-int timeout -s INT 0.3 \
    "$lab" kernels fetch 2.6.11 >"$tmp/int" 2>&1
cat "$tmp/int"
if grep -q 'interrupted; nothing kept' "$tmp/int"; then
    ok "Ctrl-C during a download says so"
    check "and leaves nothing in the download cache" \
        test -z "$(find "$tmp/dl-int" -type f 2>/dev/null)"
else
    echo "(the download finished within 0.3 s: Ctrl-C not exercised)"
fi
LAB_KERNEL_MIRROR=$url/sum/ LAB_KERNEL_DOWNLOADS=$tmp/dl-sum "$lab" kernels fetch 2.6.12-rc2 \
    >"$tmp/sum" 2>&1
rc=$?
grep 'error' "$tmp/sum"
check "a patch whose sha256 the mirror's list contradicts is refused (exit $rc)" test $rc -ne 0
check "saying so" grep -q 'sha256sums.asc on the mirror says 00000000' "$tmp/sum"
check "and nothing of it is cached" test ! -e "$tmp/dl-sum/v2.6/testing/patch-2.6.12-rc2.xz"
check "no partial file left" no_partial "$tmp/dl-sum"
LAB_KERNEL_MIRROR=$url/trunc/ LAB_KERNEL_DOWNLOADS=$tmp/dl-trunc "$lab" kernels fetch 2.6.12-rc2 \
    >"$tmp/trunc" 2>&1
rc=$?
grep 'error' "$tmp/trunc"
check "a truncated patch is refused (exit $rc)" test $rc -ne 0
check "as truncated" grep -q 'truncated or damaged' "$tmp/trunc"
check "and not cached" test ! -e "$tmp/dl-trunc/v2.6/testing/patch-2.6.12-rc2.xz"
check "no partial file left" no_partial "$tmp/dl-trunc"

# A hunk that does not apply: the variant's patch on a tree it was not
# made for is refused before anything builds, naming patch, file and hunk.
sed 's/^-\(.*\)VM_MAX_READAHEAD \* 1024/-\1VM_MIN_READAHEAD * 1024/' "$tmp/ra2x.diff" >"$tmp/stale.diff"
"$lab" kernels fetch "2.6.11+$tmp/stale.diff" >"$tmp/stale" 2>&1
rc=$?
grep 'error' "$tmp/stale"
check "a hunk that does not apply: refused (exit $rc)" test $rc -ne 0
check "naming the patch, the file and the hunk" \
    grep -q "patch $tmp/stale.diff does not apply.*hunk #1 of mm/readahead.c FAILED" "$tmp/stale"
check "before anything built" bash -c "! grep -q 'building linux' '$tmp/stale'"

# The run: 2.6.11, 2.6.12-rc2 from its prepatch, and the variant.
kernels="2.6.11,2.6.12-rc2,2.6.11+$tmp/ra2x.diff"
small=(--boots 1 -e seqread -p pata-2003 --set file_size=32M --set warmup_size=4M --set reps=2)
start=$(date +%s)
"$lab" run --kernels "$kernels" "${small[@]}" --json "$tmp/run.json" >"$tmp/run" 2>"$tmp/run.err"
rc=$?
cat "$tmp/run"
grep -E 'lab: (fetched|applied|building|built|preparing|linux .* cached)|error' "$tmp/run.err"
check "lab run --kernels $kernels exits 0 (got $rc, $(($(date +%s) - start)) s)" test $rc -eq 0
run=$(sql "SELECT max(id) FROM runs")
hello=$(sql "SELECT r.line FROM records r JOIN cells c ON r.cell = c.id WHERE c.run = $run" |
        grep ' hello ')
check "the prepatch applied: a cell's agent ran on uname 2.6.12-rc2" grep -q 'uname=2.6.12-rc2 ' <<<"$hello"
check "and one on 2.6.11" grep -q 'uname=2.6.11 ' <<<"$hello"
check "the table labels the variant with its base and patch" grep -q '2.6.11+ra2x.diff' "$tmp/run"
check "so does the JSON" grep -q '"2.6.11+ra2x.diff' "$tmp/run.json"
"$lab" report "$run" --html "$tmp/html" >/dev/null 2>&1
check "and the HTML page" grep -q '2.6.11+ra2x.diff' "$tmp/html/index.html"
text=$(sql "SELECT text FROM kernel_patches WHERE kernel = '2.6.11+ra2x.diff'" 2>/dev/null)
check "the store holds the variant's patch text" grep -q '^+.*2 \* VM_MAX_READAHEAD' <<<"$text"
sha=$(sql "SELECT sha256 FROM kernel_patches WHERE kernel = '2.6.11+ra2x.diff'" 2>/dev/null)
check "and its sha256" test "$sha" = "$(sha256sum <"$tmp/ra2x.diff" | cut -c1-64)"
"$lab" kernels show 2.6.12-rc2 >"$tmp/show"
cat "$tmp/show"
check "kernels show: the base tarball's URL and sha256" \
    grep -q "origin_base_sha256 *788e0067a933e9ea688fe90c647fa41cd5907377f38f732c7e2b95e43a7772e0" "$tmp/show"
# (file:// on a fresh cache; on a warm one, whichever of this test's
# mirrors last prepared it: the http fetch below refreshes it.)
check "kernels show: the prepatch's URL" \
    grep -Eq "origin_patch_url *(file|http)://.*/v2.6/testing/patch-2.6.12-rc2.xz" "$tmp/show"
check "kernels show: the compat layer's id" grep -q 'build_compat *compat-' "$tmp/show"

# A stable release: the base plus its patch from the same mirror, no
# change to the lab; the agent runs on its uname.
"$lab" run --kernels 2.6.11.1 "${small[@]}" >"$tmp/stable" 2>"$tmp/stable.err"
rc=$?
grep -E 'lab: (fetched|applied|built)|error' "$tmp/stable.err"
check "a stable patch: lab run --kernels 2.6.11.1 exits 0 (got $rc)" test $rc -eq 0
"$lab" kernels show 2.6.11.1 >"$tmp/show-stable" 2>&1
check "the stable patch came from beside its release" \
    grep -Eq "origin_patch_url *(file|http)://.*/v2.6/patch-2.6.11.1.xz" "$tmp/show-stable"
run=$(sql "SELECT max(id) FROM runs")
check "its agent ran on uname 2.6.11.1" grep -q 'uname=2.6.11.1 ' <<<"$(sql "SELECT r.line FROM records r
    JOIN cells c ON r.cell = c.id WHERE c.run = $run")"

# Again: nothing is fetched or built.
"$lab" run --kernels "$kernels" "${small[@]}" >"$tmp/run2" 2>"$tmp/run2.err"
rc=$?
check "the second run exits 0 (got $rc)" test $rc -eq 0
check "and fetches nothing" bash -c "! grep -q 'lab: fetched' '$tmp/run2.err'"
check "and builds nothing" bash -c "! grep -q 'building linux' '$tmp/run2.err'"

# libcurl: the http mirror fills a new download cache; the build is the
# same (same bytes, same key). Two labs at once: one waits, saying so.
LAB_KERNEL_MIRROR=$url/good/ LAB_KERNEL_DOWNLOADS=$tmp/dl-http "$lab" kernels fetch 2.6.12-rc2 \
    >"$tmp/h1" 2>&1 &
first=$!
sleep 0.3
LAB_KERNEL_MIRROR=$url/good/ LAB_KERNEL_DOWNLOADS=$tmp/dl-http "$lab" kernels fetch 2.6.12-rc2 \
    >"$tmp/h2" 2>&1
rc2=$?
wait $first
rc1=$?
cat "$tmp/h1" "$tmp/h2" | grep -E 'lab: (fetched|another|preparing)|error'
check "both fetches over http exit 0 ($rc1, $rc2)" test $rc1 -eq 0 -a $rc2 -eq 0
check "the prepatch came over http, checked against sha256sums.asc" \
    grep -q "fetched $url/good/v2.6/testing/patch-2.6.12-rc2.xz.*matches v2.6/testing/sha256sums.asc" "$tmp/h1"
check "its bytes are kernel.org's" \
    test "$(sha256sum <"$tmp/dl-http/v2.6/testing/patch-2.6.12-rc2.xz" | cut -c1-64)" = \
    e06a63caed7febdd24d2e214ca22a6903cef3e601e007d1b3f2e802bf6d887cb
check "the second lab waited for the first, saying so" grep -q 'another lab is preparing 2.6.12-rc2' "$tmp/h2"
check "the server saw the GETs" grep -q 'GET /good/v2.6/testing/patch-2.6.12-rc2.xz' "$tmp/http.log"
kill "$server" 2>/dev/null
wait "$server" 2>/dev/null
check_no_leaks
finish
