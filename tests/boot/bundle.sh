#!/bin/bash
# A cell as a unit of work (issue 11): `lab cell --write` plans one tiny
# cell job (fast profile, 8 MiB seqread in 512 KiB blocks, 1 run after the
# warm-up) from an experiment file the worker never sees; `lab cell` runs
# it, with no experiment files, into a result bundle (a job whose plan was
# changed is refused without a boot); `lab import` loads it once; a
# second import changes nothing; a truncated, a corrupted and a partial
# (no manifest) bundle are refused with a clear message, exit 1, and the
# store unchanged.
. "$(dirname "$0")/lib.sh"

k=6.12.113
here=$(cd "$(dirname "$0")/../.." && pwd)
# The job carries its plan (issue 20): planned from the user's own
# experiment file, which the worker never sees (it is gone, and the
# worker's LAB_EXPERIMENTS is an empty directory). Its 512 KiB blocks are
# not the shipped seqread's 1 MiB: the cell must read with them.
sed 's/^block_size = .*/block_size = 512K/' "$here/lab/experiments/seqread.exp" >"$tmp/mine.exp"
"$lab" cell --write "$tmp/CELL.json" --kernel $k --experiment "$tmp/mine.exp" \
    --set file_size=8M --set reps=1 2>"$tmp/err"
rc=$?
cat "$tmp/err"
check "lab cell --write exits 0 (got $rc)" test $rc -eq 0
check "the job holds the plan, not a path" \
    test "$(json "$tmp/CELL.json" '"block_size = 524288" in d["plan"]["experiment"] and "mine.exp" not in json.dumps(d)')" = True
rm "$tmp/mine.exp"
mkdir "$tmp/empty"
python3 - "$tmp/CELL.json" "bundle-test-$$" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["key"] = sys.argv[2]; d["rt_note"] = "off: bundle test"
json.dump(d, open(sys.argv[1], "w"))
PY

# The same job with its plan changed behind the hash: the worker refuses
# to run it (a bundle of one failed cell saying why), without booting.
python3 - "$tmp/CELL.json" "$tmp/TAMPERED.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["key"] = "tampered"
d["plan"]["experiment"] = d["plan"]["experiment"].replace("file_size = 8388608", "file_size = 9437184")
json.dump(d, open(sys.argv[2], "w"))
PY
LAB_EXPERIMENTS=$tmp/empty "$lab" cell --spec "$tmp/TAMPERED.json" --out "$tmp/tampered" 2>"$tmp/err"
rc=$?
cat "$tmp/err"
check "a tampered plan: lab cell exits 1 (got $rc)" test $rc -eq 1
check "a tampered plan: the bundle says the plan differs" \
    grep -q 'plans the cell differently' "$tmp/tampered/MANIFEST.json"

b=$tmp/bundle
LAB_EXPERIMENTS=$tmp/empty LAB_HOST=fakehost-1 "$lab" cell --spec "$tmp/CELL.json" --out "$b" \
    2>"$tmp/err"
rc=$?
cat "$tmp/err"
check "lab cell exits 0 (got $rc)" test $rc -eq 0
check "the bundle has a manifest, a sealed store and the console" \
    test -s "$b/MANIFEST.json" -a -s "$b/cell.db" -a -s "$b/cell-0-$k.console.log"
check "no live store, -wal or -shm left in the bundle" \
    bash -c "! ls '$b'/live.db* '$b'/cell.db-* 2>/dev/null"
want=$(sha256sum "$b/cell.db" | cut -d' ' -f1)
got=$(json "$b/MANIFEST.json" 'next(f["sha256"] for f in d["files"] if f["name"] == "cell.db")')
check "the manifest's SHA-256 of cell.db is sha256sum's" test "$want" = "$got"
check "the manifest names the host and attempt 1" \
    test "$(json "$b/MANIFEST.json" 'd["host"] + " " + str(d["attempt"]) + " " + d["status"]')" = \
    "fakehost-1 1 ok"

counts() { sql "select (select count(*) from runs), (select count(*) from cells),
                       (select count(*) from samples), (select count(*) from records)"; }
"$lab" import "$b" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
check "lab import exits 0 (got $rc)" test $rc -eq 0
check "it says imported" grep -q 'imported as cell' "$tmp/out"
check "2 samples stored (1 warm-up + 1 run)" test "$(sql "select count(*) from samples")" -eq 2
check "the cell has its key, attempt 1 and host" test "$(sql "select cell_key || ' ' || attempt ||
    ' ' || host || ' ' || status from cells")" = "bundle-test-$$ 1 fakehost-1 ok"
check "every sample read 8 MiB" test "$(sql "select count(*) from samples where bytes = 8388608")" -eq 2
check "in the planned 512 KiB blocks (lab.bs, and bs in every end record)" \
    test "$(sql "select count(*) from cells where params like '%lab.bs=524288 %'") $(sql \
        "select count(*) from samples where extra like '%bs=524288%'")" = "1 2"
check "the manifest records the plan's hash" \
    test "$(json "$b/MANIFEST.json" 'd["plan"]')" = "$(json "$tmp/CELL.json" 'd["plan"]["sha256"]')"
before=$(counts)

"$lab" import "$b" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
check "a second import exits 0 (got $rc)" test $rc -eq 0
check "it says already imported, nothing changed" grep -q 'already imported.*nothing changed' "$tmp/out"
check "the second import changed nothing ($before)" test "$(counts)" = "$before"

refused() {  # name, expected message pattern, bundle dir
    "$lab" import "$3" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    cat "$tmp/out" "$tmp/err"
    check "$1: refused, exit 1 (got $rc)" test $rc -eq 1
    check "$1: the message says why" grep -q "bundle $3 refused: $2" "$tmp/err"
    check "$1: the store is unchanged" test "$(counts)" = "$before"
}
cp -r "$b" "$tmp/truncated"
truncate -s 4096 "$tmp/truncated/cell.db"
sed -i 's/bundle-test-[0-9]*/bundle-test-other/' "$tmp/truncated/MANIFEST.json"
refused "a truncated store" "cell.db is 4096 bytes, the manifest says [0-9]*: truncated" "$tmp/truncated"
cp -r "$b" "$tmp/corrupt"
printf 'X' | dd of="$tmp/corrupt/cell-0-$k.console.log" bs=1 seek=10 conv=notrunc 2>/dev/null
sed -i 's/bundle-test-[0-9]*/bundle-test-other/' "$tmp/corrupt/MANIFEST.json"
refused "a changed console log" "cell-0-$k.console.log does not match its SHA-256" "$tmp/corrupt"
cp -r "$b" "$tmp/partial"
rm "$tmp/partial/MANIFEST.json"
refused "no manifest" "partial: no MANIFEST.json" "$tmp/partial"
check_no_leaks
finish
