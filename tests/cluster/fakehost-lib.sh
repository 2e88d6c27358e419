# Fake hosts on one machine (issue 11): each a network+mount namespace
# (unshare -m -n, held open by a sleep) with a tmpfs over /run (so its own
# libvirtd, virtlogd, /run/libvirt and /run/lab) and over the lab's spool;
# kernels and images stay shared. Reached through an ssh stand-in, DIR/ssh
# HOST COMMAND, that runs COMMAND in HOST's namespaces (nsenter): the
# sshlogin file DIR/hosts names it, as GNU parallel allows. Sourced.
# fakehost_up DIR HOST...; fakehost_in DIR HOST COMMAND...; fakehost_down DIR.
fakehost_in() {
    local d=$1 h=$2; shift 2
    nsenter -t "$(cat "$d/$h.pid")" -m -n -- "$@"
}

fakehost_up() {
    local d=$1 h p spool=${LAB_HOME:-/var/cache/lab}/spool; shift
    mkdir -p "$d" "$spool"
    : >"$d/hosts"
    for h; do
        unshare --mount --net --propagation private sleep infinity &
        p=$!
        echo $p >"$d/$h.pid"
        for _ in $(seq 50); do [ "$(readlink /proc/$p/ns/net)" != "$(readlink /proc/self/ns/net)" ] && break; sleep 0.1; done
        fakehost_in "$d" "$h" sh -c "ip link set lo up && mount -t tmpfs -o mode=755 tmpfs /run &&
            mount -t tmpfs -o mode=755 tmpfs '$spool' && mkdir -p /run/libvirt /run/lab &&
            virtlogd -d && libvirtd -d" || return 1
        for _ in $(seq 100); do
            fakehost_in "$d" "$h" virsh -c qemu:///system version >/dev/null 2>&1 && break
            sleep 0.2
        done
        fakehost_in "$d" "$h" virsh -c qemu:///system version >/dev/null 2>&1 || return 1
        echo "$d/ssh $h" >>"$d/hosts"
    done
    cat >"$d/ssh" <<SSH
#!/bin/bash
# ssh stand-in: [ssh options] HOST COMMAND... runs COMMAND in HOST's namespaces.
while [ \$# -gt 0 ]; do
    case \$1 in -o|-l|-p|-i|-F) shift 2;; --) shift; break;; -*) shift;; *) break;; esac
done
host=\$1; shift
[ "\${1:-}" = -- ] && shift
exec nsenter -t "\$(cat '$d'/\$host.pid)" -m -n -- bash -c "\$*"
SSH
    chmod +x "$d/ssh"
}

# The pid of HOST's libvirtd (in its own /run).
fakehost_libvirtd() { fakehost_in "$1" "$2" cat /run/libvirtd.pid 2>/dev/null; echo; }

fakehost_down() {
    local d=$1 f h p
    for f in "$d"/*.pid; do
        [ -e "$f" ] || continue
        h=$(basename "$f" .pid)
        # Its daemons: the processes in its network namespace (pid files
        # have no newline, and a killed one has none left).
        local ns
        ns=$(readlink "/proc/$(cat "$f")/ns/net")
        for sig in TERM KILL; do
            for p in $(pgrep -x 'libvirtd|virtlogd'); do
                [ "$(readlink /proc/$p/ns/net 2>/dev/null)" = "$ns" ] && kill -$sig "$p" 2>/dev/null
            done
            [ $sig = TERM ] && sleep 1
        done
        kill "$(cat "$f")" 2>/dev/null
        rm -f "$f"
    done
}
