# A throwaway single-node Slurm cluster on 127.0.0.1, shared by the end-to-end
# tests test-local-slurm.sh and test-local-slurm-board.sh (sourced, not run).
#
# The test sets WORK (wiped), TIMEOUT (seconds per wait) and PORT (slurmctld;
# slurmd uses PORT+1), then calls, in order:
#   cluster_prepare              checks root and WORK, stops leftovers, wipes WORK
#   cluster_install              installs Debian's slurm-wlm and munge if missing
#   cluster_binary               copies nimlab to $bin (built if missing)
#   cluster_start NAME SELECT EXTRA
#                                starts munged, slurmctld, slurmd with all state
#                                under $WORK/cluster (the system's /etc/slurm and
#                                /etc/munge are not touched); SELECT is
#                                SelectTypeParameters, EXTRA more slurm.conf lines
# and uses pass/fail/info/die, wait_jobs, job_field. `failures` counts FAILs.
# On exit the daemons it started are stopped; logs stay in $WORK.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
slurm_scripts=$repo/scripts/slurm
C=$WORK/cluster

failures=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
info() { echo "---- $*"; }
die() { echo "FAIL setup: $*"; exit 1; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.1f", b-a}'; }

# Stops a daemon of ours from its pid file, only if that pid is still that program.
stop_pidfile() { # pidfile comm
    local f=$1 comm=$2 pid
    [[ -f $f ]] || return 0
    pid=$(cat "$f" 2>/dev/null) || return 0
    [[ $pid =~ ^[0-9]+$ ]] || return 0
    if [[ -r /proc/$pid/comm && $(cat "/proc/$pid/comm") == "$comm" ]]; then
        kill "$pid" 2>/dev/null
        for _ in $(seq 50); do [[ -e /proc/$pid ]] || break; sleep 0.1; done
        [[ -e /proc/$pid ]] && kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$f"
}
stop_cluster() {
    stop_pidfile "$C/slurmd.pid" slurmd
    stop_pidfile "$C/slurmctld.pid" slurmctld
    stop_pidfile "$C/munge/munged.pid" munged
}
cleanup() {
    local rc=$?
    # Jobs still queued (after a failure or timeout) would die with the daemons anyway.
    [[ -f $C/slurm.conf ]] && SLURM_CONF=$C/slurm.conf scancel --quiet --user=root 2>/dev/null
    stop_cluster
    echo "---- stopped slurmd, slurmctld, munged; logs and outputs kept in $WORK"
    exit "$rc"
}

cluster_prepare() {
    [[ $EUID -eq 0 ]] || die "run as root (it installs packages and starts Slurm daemons as root)"
    case $WORK in /tmp/?* | /var/tmp/?* | /scratch/?* | "$HOME"/?*) ;; *) die "NIMLAB_SLURM_TEST_DIR=$WORK: use a directory under /tmp, /var/tmp or \$HOME (it is wiped)" ;; esac
    # Leftovers of an earlier run that was killed before it could clean up.
    stop_cluster
    rm -rf "$WORK"
    mkdir -p "$C"/{state,spool,log,munge}
}

cluster_install() {
    local need=()
    command -v slurmctld >/dev/null || need+=(slurmctld)
    command -v slurmd >/dev/null || need+=(slurmd)
    command -v sbatch >/dev/null || need+=(slurm-client)
    command -v munged >/dev/null || need+=(munge)
    if ((${#need[@]})); then
        info "installing slurm-wlm munge (missing: ${need[*]})"
        apt-get update -qq || die "apt-get update"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >"$WORK/apt.log" 2>&1 ||
            die "apt-get install slurm-wlm munge (see $WORK/apt.log)"
    fi
    info "$(slurmctld -V), $(munged --version 2>&1 | head -1)"
}

cluster_binary() {
    local src_bin=${NIMLAB:-$repo/target/release/nimlab}
    if [[ ! -x $src_bin ]]; then
        info "building nimlab (cargo build --release)"
        (cd "$repo" && cargo build --release -q) || die "cargo build --release"
    fi
    # A private copy: a rebuild of target/ during the test must not change the binary under test.
    bin=$WORK/nimlab
    cp "$src_bin" "$bin"
    info "nimlab: $("$bin" --version) ($src_bin)"
}

start_munge() {
    dd if=/dev/urandom of="$C/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$C/munge/munge.key"
    chmod 700 "$C/munge"
    munged --force --key-file="$C/munge/munge.key" --socket="$C/munge/munge.socket" \
        --pid-file="$C/munge/munged.pid" --log-file="$C/munge/munged.log" \
        --seed-file="$C/munge/munged.seed" 2>"$C/log/munged.err" ||
        die "munged did not start: $(cat "$C/log/munged.err")"
    munge -S "$C/munge/munge.socket" -n </dev/null | unmunge -S "$C/munge/munge.socket" >/dev/null ||
        die "munge credential round trip failed"
}

write_slurm_conf() { # name select extra
    cat >"$C/slurm.conf" <<EOF
# Throwaway single-node cluster of scripts/slurm/local-cluster.sh ($1)
ClusterName=$1
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$C/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/log/slurmctld.log
SlurmdLogFile=$C/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=$2
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
MinJobAge=3600
KillWait=5
MailProg=/bin/true
InactiveLimit=0
$3
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

cluster_start() { # name select extra-conf-lines
    trap cleanup EXIT
    trap 'exit 130' INT TERM
    host=$(hostname -s)
    read -r cpus mem < <(slurmd -C | awk '/^NodeName/ {for (i = 1; i <= NF; i++) {split($i, kv, "="); v[kv[1]] = kv[2]} print v["CPUs"], v["RealMemory"]}')
    [[ -n ${cpus:-} && -n ${mem:-} ]] || die "slurmd -C did not report CPUs and memory"
    mem=$((mem * 9 / 10)) # leave room, or the node is drained as having less memory than configured
    start_munge
    write_slurm_conf "$1" "$2" "$3"
    export SLURM_CONF=$C/slurm.conf
    slurmctld -c -f "$SLURM_CONF" || die "slurmctld did not start (see $C/log/slurmctld.log)"
    slurmd -f "$SLURM_CONF" || die "slurmd did not start (see $C/log/slurmd.log)"
    local t=0
    until [[ $(sinfo -h -n "$host" -o %T 2>/dev/null) == idle ]]; do
        ((t++ < 120)) || die "node $host not idle after 60 s: $(sinfo -h -N -o '%N %T %E' 2>&1) (see $C/log/)"
        sleep 0.5
    done
    pass "single-node Slurm up: node $host (127.0.0.1), $cpus CPUs, ${mem} MB, ports $PORT/$((PORT + 1))"
}

# Waits until none of the given jobs is pending or running. Returns 1 on timeout.
wait_jobs() { # ids-comma-separated
    local t0=$SECONDS
    while [[ -n $(squeue -h -j "$1" -o %i 2>/dev/null) ]]; do
        ((SECONDS - t0 < TIMEOUT)) || { echo "timeout after ${TIMEOUT}s waiting for $1: $(squeue -h -j "$1" -o '%i %T %r')"; return 1; }
        sleep 0.25
    done
}
# One field of `scontrol show job` for a job or array task (1234 or 1234_2).
job_field() { scontrol -o show job "$1" 2>/dev/null | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }
