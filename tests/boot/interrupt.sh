#!/bin/bash
# Ctrl-C mid-run: the first kernel's samples stay in the store, the second
# cell is marked interrupted, and nothing of the lab is left running.
. "$(dirname "$0")/lib.sh"

"$lab" run --boots 1 --kernels 6.1.0-47,6.12.113 --reps 1 --set file_size=16M >"$tmp/out" 2>"$tmp/err" &
pid=$!
# Wait until the second cell's domain runs, then interrupt like a terminal would.
for _ in $(seq 600); do
    virsh -c qemu:///system list --name 2>/dev/null | grep -q "^lab-$pid-1-" && break
    sleep 0.2
done
check "the second cell's domain was running" \
    bash -c "virsh -c qemu:///system list --name | grep -q '^lab-$pid-1-'"
kill -INT $pid
wait $pid
rc=$?
cat "$tmp/err"
check "lab exits 130 after SIGINT (got $rc)" test $rc -eq 130
run=$(sql "select max(id) from runs")
check "the run is stored as interrupted" test "$(sql "select status from runs where id=$run")" = interrupted
n=$(sql "select count(*) from samples s join cells c on s.cell = c.id
         where c.run = $run and c.kernel = '6.1.0-47'")
check "the first kernel's samples (warm-up + 1) are kept (got $n)" test "$n" -eq 2
st=$(sql "select status from cells where run = $run and kernel = '6.12.113'")
check "the second cell is marked interrupted (got $st)" test "$st" = interrupted
# ---- Ctrl-C during lab bisect ----
# A fake kernel repo: its "build" sleeps (a file in the tree says how long)
# and yields Debian's 6.12.113 image with a .config claiming the drivers a
# cell needs, so the bisection reaches its build and its first cell fast.
# An interrupted step must give no verdict and the bisection must end
# interrupted, exit 130.
src=${LAB_HOME:-/var/cache/lab}/kernels/6.12.113
"$lab" kernels fetch 6.12.113 >/dev/null 2>&1
repo=$tmp/repo
mkdir -p "$repo"
cat >"$repo/Makefile" <<MK
VERSION = 6
PATCHLEVEL = 12
SUBLEVEL = 113
EXTRAVERSION =
NAME = lab fake tree
tinyconfig allnoconfig:
	cp \$(CURDIR)/dotconfig .config
olddefconfig oldconfig:
	printf 'CONFIG_%s=y\n' ATA_PIIX BLK_DEV_SD EXT2_FS EXT4_FS VIRTIO_PCI VIRTIO_CONSOLE BLK_DEV_INITRD >>.config
bzImage:
	sleep \$\$(cat \$(CURDIR)/build-seconds)
	mkdir -p arch/x86/boot && cp $src/boot/vmlinuz-6.12.113+deb12-amd64 arch/x86/boot/bzImage
MK
cp "$src/boot/config-6.12.113+deb12-amd64" "$repo/dotconfig"
mkdir -p "$repo/scripts/kconfig" # a kconfig tree, as the builder tells them from 2.4's
echo '# allnoconfig tinyconfig: in the top Makefile of this fake' >"$repo/scripts/kconfig/Makefile"
g() { git -C "$repo" -c user.name=lab -c user.email=lab@localhost -c commit.gpgsign=false "$@"; }
g init -q
bisect_tree() {  # seconds a build takes; a commit per call, so no build is cached
    echo "$1" >"$repo/build-seconds"
    echo "$RANDOM $$ $(date +%s%N)" >"$repo/nonce"
    g add -A && g commit -qm "tree $(date +%s%N)"
}
export LAB_HOME=$tmp/home  # its own build cache, readable by QEMU's user
mkdir -p "$LAB_HOME/kernels"
chmod 755 "$tmp" "$LAB_HOME" "$LAB_HOME/kernels"
ln -s "$src" "$LAB_HOME/kernels/6.12.113"

bisect_interrupt() {  # what, wait-for pattern in stderr (or "domain")
    local what=$1 when=$2
    "$lab" bisect --repo "$repo" --good HEAD~1 --bad HEAD --metric mbps --reps 2 \
        --accel tcg --set file_size=16M >"$tmp/out" 2>"$tmp/err" &
    local pid=$!
    for _ in $(seq 900); do
        if [ "$when" = domain ]; then
            virsh -c qemu:///system list --name 2>/dev/null | grep -q "^lab-$pid-" && break
        else
            grep -q "$when" "$tmp/err" && break
        fi
        sleep 0.2
    done
    sleep 1
    kill -INT $pid
    wait $pid
    local rc=$?
    cat "$tmp/err"
    check "bisect interrupted while $what: exit 130 (got $rc)" test $rc -eq 130
    local id
    id=$(sql "select max(id) from bisect")
    check "bisect interrupted while $what: stored as interrupted" \
        test "$(sql "select status from bisect where id = $id")" = interrupted
    check "bisect interrupted while $what: no verdict for the interrupted step" \
        test "$(sql "select count(*) from bisect_steps where bisect = $id")" -eq 0
    check "bisect interrupted while $what: no skip, no nbdkit blamed" \
        bash -c "! grep -qE 'skip|nbdkit did not open' '$tmp/err' '$tmp/out'"
    [ "$when" = domain ] && check "bisect interrupted while $what: its cell is interrupted" \
        test "$(sql "select status from cells where run = (select run from bisect where id = $id)")" = interrupted
    check "bisect interrupted while $what: its run is interrupted" \
        test "$(sql "select status from runs where id = (select run from bisect where id = $id)")" = interrupted
}
bisect_tree 0
bisect_tree 30
bisect_tree 30
bisect_interrupt building "building linux 6.12.113"
bisect_tree 0
bisect_tree 0
# A lab build is used only once it passed the IO smoke test, which this
# fake (Debian's image, no modules) cannot: build the good endpoint once
# (the bisection then stops, refused), and mark it passed in this private
# LAB_HOME, so the next bisection reaches its first cell.
"$lab" bisect --repo "$repo" --good HEAD~1 --bad HEAD --metric mbps --reps 2 --accel tcg \
    --set file_size=16M >/dev/null 2>&1
for conf in "$LAB_HOME"/kernels/user/build-*/kernel.conf; do
    sed -i '/^verified=/d' "$conf"
    echo verified=passed >>"$conf"
done
bisect_interrupt measuring domain
# ---- Ctrl-C during lab kernels build ----
# make and what it runs stop with the lab: exit 130 at once, not when the
# build would have ended, no process of the build left, no work tree kept.
bisect_tree 67
"$lab" kernels build --repo "$repo" --ref HEAD >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 300); do
    grep -q "building linux 6.12.113" "$tmp/err" && break
    sleep 0.2
done
sleep 1
t0=$(date +%s)
kill -INT $pid
wait $pid
rc=$?
took=$(($(date +%s) - t0))
cat "$tmp/err"
check "kernels build interrupted: exit 130 (got $rc)" test $rc -eq 130
check "kernels build interrupted: stopped within 10 s, not at the build's end (took $took s)" \
    test "$took" -le 10
check "kernels build interrupted: make and its sleep are gone" \
    bash -c "! pgrep -f '^sleep 67\$' >/dev/null"
check "kernels build interrupted: no work tree kept" \
    bash -c "! ls -d '$LAB_HOME'/kernels/build/*.work 2>/dev/null | grep -q ."
unset LAB_HOME

check_no_leaks
finish
