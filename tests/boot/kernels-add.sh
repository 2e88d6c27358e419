#!/bin/bash
# `lab kernels add` with a real bzImage (Debian's 6.12.113 from the cache, to
# keep CI fast), in a private LAB_HOME that reuses the shared kernel cache:
# show prints the version read from the image; a cell whose bus driver the
# kernel's .config lacks is refused before anything boots (exit 2, the
# message names the option); remove drops it.
. "$(dirname "$0")/lib.sh"

"$lab" kernels fetch 6.12.113 >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; not_ok "fetch 6.12.113"; finish; exit; }
src=${LAB_HOME:-/var/cache/lab}/kernels/6.12.113
rel=6.12.113+deb12-amd64
name=ci-add-$$

# A .config without AHCI: sata must be refused from the config alone.
sed -e 's/^CONFIG_SATA_AHCI=.*/# CONFIG_SATA_AHCI is not set/' "$src/boot/config-$rel" >"$tmp/config"
check "the modified .config has no AHCI" bash -c "! grep -q '^CONFIG_SATA_AHCI=' '$tmp/config'"

"$lab" kernels add "$name" --image "$src/boot/vmlinuz-$rel" --config "$tmp/config" \
    --modules "$src/lib/modules/$rel" >"$tmp/add" 2>&1
rc=$?
cat "$tmp/add"
check "kernels add exits 0 (got $rc)" test $rc -eq 0

"$lab" kernels show "$name" >"$tmp/show" 2>&1
check "show prints the upstream version from the image's banner" \
    grep -qE '^  version +6\.12\.113$' "$tmp/show"
check "show prints the release from the image (uname -r)" \
    awk -v r="$rel" '$1 == "release" && $2 == r { f = 1 } END { exit !f }' "$tmp/show"
check "show prints the image's kernel_version string" \
    grep -q 'image version.*6.12.113+deb12-amd64 (debian-kernel@lists.debian.org)' "$tmp/show"
check "show says sata is not drivable per the .config" \
    grep -qE '^  sata +no +kernel .* lacks CONFIG_SATA_AHCI' "$tmp/show"
check "list has it" bash -c "'$lab' kernels list | grep -q '^$name '"
dir=${LAB_HOME:-/var/cache/lab}/kernels/user/$name
check "the image is readable by QEMU's user (0644)" \
    test "$(stat -c %a "$dir/bzImage")" = 644

# Refused before booting: exit 2 and the option named.
"$lab" run --boots 1 --kernels "$name" --bus sata --reps 1 --set file_size=16M >"$tmp/run" 2>&1
rc=$?
cat "$tmp/run"
check "a sata cell on a kernel without AHCI exits 2 (got $rc)" test $rc -eq 2
check "the refusal names CONFIG_SATA_AHCI" grep -q 'CONFIG_SATA_AHCI' "$tmp/run"
check "nothing booted" bash -c "! grep -q 'MB/s' '$tmp/run'"

# A truncated image: refused on add, naming both sizes; and one cut short
# after it was added is refused before it boots.
size=$(stat -c %s "$src/boot/vmlinuz-$rel")
head -c 5000000 "$src/boot/vmlinuz-$rel" >"$tmp/trunc"
"$lab" kernels add "ci-trunc-$$" --image "$tmp/trunc" >"$tmp/add" 2>&1
rc=$?
cat "$tmp/add"
check "a truncated bzImage is refused (got $rc)" test $rc -ne 0
check "the refusal names the expected and the actual size" \
    grep -q "truncated: the header says $size bytes .* the file has 5000000" "$tmp/add"
check "it is not registered" bash -c "! '$lab' kernels list | grep -q '^ci-trunc-$$ '"
"$lab" kernels remove "ci-trunc-$$" >/dev/null 2>&1 # (a lab that accepted it leaves nothing)
truncate -s 5000000 "$dir/bzImage"
"$lab" run --kernels "$name" --reps 1 --set file_size=16M >"$tmp/run" 2>&1
rc=$?
cat "$tmp/run"
check "a kernel truncated after add fails before booting (got $rc)" test $rc -eq 1
check "the cell names the truncated image" grep -q "truncated: the header says $size bytes" "$tmp/run"

"$lab" kernels remove "$name"
check "remove exits 0" test $? -eq 0
check "removed from the list" bash -c "! '$lab' kernels list | grep -q '^$name '"
check "its directory is gone" test ! -e "$dir"
check_no_leaks
finish
