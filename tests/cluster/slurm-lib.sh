# A single-node Slurm of the test's own (issue 11): munged with a generated
# key on a private socket, slurmctld and slurmd from a generated slurm.conf
# in $1, ports of their own, no cgroups, no accounting; the node has the
# feature lab-class-a. Sourced. slurm_up DIR; slurm_down stops all of it.
slurm_up() {
    local d=$1 host
    host=$(hostname -s)
    mkdir -p "$d/state" "$d/slurmd" "$d/munge"
    chmod 700 "$d/munge"
    dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$d/munge/munge.key"
    munged --force --key-file="$d/munge/munge.key" --socket="$d/munge/munge.sock" \
        --pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" \
        --seed-file="$d/munge/munged.seed" || return 1
    local cpus mem
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
    cat >"$d/slurm.conf" <<CONF
ClusterName=labtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
SlurmctldPort=${SLURM_TEST_PORT:-16917}
SlurmdPort=$(( ${SLURM_TEST_PORT:-16917} + 1 ))
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/slurmd
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
JobRequeue=1
NodeName=$host CPUs=$cpus RealMemory=$mem Feature=lab-class-a State=UNKNOWN
PartitionName=lab Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$d/slurm.conf
    slurmctld -f "$d/slurm.conf" -i || return 1
    slurmd -f "$d/slurm.conf" || return 1
    local _
    for _ in $(seq 100); do
        sinfo -h -o '%T' 2>/dev/null | grep -q '^idle' && return 0
        sleep 0.2
    done
    echo "slurm did not come up:"; tail -5 "$d/slurmctld.log" "$d/slurmd.log"
    return 1
}

slurm_down() {
    local d=$1 f p
    scancel --user=root >/dev/null 2>&1
    for f in slurmd.pid slurmctld.pid munge/munged.pid; do
        p=$(cat "$d/$f" 2>/dev/null) && [ -n "$p" ] && kill "$p" 2>/dev/null
    done
    for f in slurmd.pid slurmctld.pid munge/munged.pid; do
        p=$(cat "$d/$f" 2>/dev/null) || continue
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
}
