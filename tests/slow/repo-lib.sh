# Shared by the test-repo makers (make-test-repo.sh, make-era-repo.sh):
# the ready check, the guard that never removes a directory they did not
# make, and git with a fixed identity. Sourced, not run; needs $me (the
# maker's name, for messages) and $dir.

# True when $dir holds a finished repo: its last commit is subject $1 and
# every further subject given ($2 ...) is in its history.
repo_ready() {
    [ -d "$dir/.git" ] && git -C "$dir" log -1 --format=%s 2>/dev/null | grep -qxF "$1" || return 1
    shift
    local s
    for s in "$@"; do git -C "$dir" log --format=%s | grep -qxF "$s" || return 1; done
}

# Empties $dir for a new repo, unless it holds something else: a
# non-empty $dir is removed only when its history has the commit subject
# $1, which only the maker writes.
repo_fresh() {
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] &&
        ! git -C "$dir" log --format=%s 2>/dev/null | grep -qxF "$1"; then
        echo "$me: $dir exists and is not a repo of $me; not touching it" >&2
        exit 1
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
}

g() { git -c user.name="lab test" -c user.email="lab@localhost" -c commit.gpgsign=false "$@"; }
