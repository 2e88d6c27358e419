#!/bin/bash
# Installs what the lab needs on Debian 12 (idempotent: apt-get runs only
# when a package is missing) and makes sure libvirtd is running.
set -eu
packages=(
    build-essential pkg-config clang-format
    libvirt-daemon-system libvirt-clients libvirt-dev qemu-system-x86 qemu-utils
    libguestfs-dev libguestfs-tools nbdkit nbdkit-plugin-dev
    libcmocka-dev libsqlite3-dev libgsl-dev libxml2-dev libarchive-dev liblzma-dev libssl-dev
    libjson-c-dev libseccomp-dev sqlite3 e2fsprogs kmod xz-utils dpkg-dev bc
    libxml2-utils python3 chromium  # output checks: xmllint, json.tool, the HTML page
    linux-image-amd64  # a host kernel for the libguestfs appliance that checks images
    ccache flex bison libelf-dev  # lab kernels build
    libcurl4-openssl-dev patch  # kernels by name: the mirror (libcurl), patch(1)
    clang libclang-rt-14-dev  # make fuzz: libFuzzer and the sanitizer runtimes
    universal-ctags  # tests/check-shape.sh: function lengths
    help2man debhelper fakeroot  # make install: man pages; make deb: the Debian package
    tini  # reaps libvirtd's QEMUs at once (host/cell/vm.c start_libvirtd)
)
# make check-cluster (CLUSTER=1): a single-node Slurm and GNU parallel over
# ssh to fake hosts (network namespaces).
if [ "${CLUSTER:-0}" = 1 ]; then
    packages+=(slurm-wlm munge parallel rsync iproute2)
fi
# The i386 guest kernels (Debian's 686 flavour) come from the i386 archive.
if [ "$(id -u)" = 0 ] && ! dpkg --print-foreign-architectures | grep -qx i386; then
    echo "lab: adding the i386 architecture for the 32-bit guest kernels" >&2
    dpkg --add-architecture i386
    refresh=1
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "lab: missing packages: ${missing[*]}" >&2
        echo "lab: run as root: apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
    echo "lab: installing ${missing[*]}" >&2
    refresh=1
fi
# A mirror caught mid-sync fails one index (seen for bookworm-security i386);
# apt keeps the old one, so that is a warning, not the end of the setup.
if [ "${refresh:-0}" = 1 ]; then
    apt-get update -qq || echo "lab: warning: apt-get update reported errors; continuing" >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# libvirtd is not started on a fresh machine (no systemd in containers/CI).
# It runs under tini -s: libvirt ends a domain only once its orphaned QEMU
# is reaped, and a PID 1 that reaps late (1-2 s on this machine type)
# would hold up the end of every cell (host/cell/vm.c start_libvirtd).
if [ "$(id -u)" = 0 ] && ! virsh -c qemu:///system version >/dev/null 2>&1; then
    echo "lab: starting virtlogd and libvirtd (under tini -s)" >&2
    pgrep -x virtlogd >/dev/null || virtlogd -d
    pgrep -x libvirtd >/dev/null || setsid tini -s -- libvirtd </dev/null >/dev/null 2>&1 &
    for _ in $(seq 50); do virsh -c qemu:///system version >/dev/null 2>&1 && break; sleep 0.2; done
fi
