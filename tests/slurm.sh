#!/bin/sh
# slurm.sh: `make test-slurm`. Brings up a real single-node Slurm cluster
# (Debian's slurm-wlm and munge) whose configuration, state, logs and munge
# key live in a temporary directory, submits the job-array script of docs/sweeps.md
# (examples/slurm/fdtune-array.sh) as a 4-job array over a compile-only plan
# of two problems, waits for it (sbatch --wait), merges the shard databases
# with fdtune merge and checks that they equal an unsharded compile-only
# sweep of the same plan: the same configurations with the same statuses,
# none twice. Only the daemons it started are stopped, by their PIDs, on
# any exit. Ends with "tests: N passed, N failed" like tests/run.sh.
# Runs as root (munged and slurmd need it); FDTUNE is the fdtune to test.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
FDTUNE=${FDTUNE:-$root/fdtune}
t=$(mktemp -d /tmp/fdt_slurmXXXXXX)
p=0 f=0 pids=""

stop() {
	for pid in $pids; do
		kill "$pid" 2>/dev/null
	done
	for pid in $pids; do
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	done
	pids=""
	rm -rf "$t"
}
trap stop EXIT
trap 'exit 1' INT TERM HUP

check() {   # check WHAT COMMAND...: one test
	what=$1
	shift
	if "$@"; then
		p=$((p + 1))
		echo "[       OK ] $what"
	else
		f=$((f + 1))
		echo "[  FAILED  ] $what"
	fi
}
finish() {
	echo "tests: $p passed, $f failed, 0 skipped"
	[ "$f" -eq 0 ]
	exit
}
logs() {
	for l in "$t"/*.log "$t"/out/*.txt; do
		[ -f "$l" ] && { echo "--- $l"; tail -n 20 "$l"; }
	done
}

if [ "$(id -u)" != 0 ]; then
	echo "slurm.sh: needs root, to run munged and slurmd" >&2
	check "running as root" false
	finish
fi
for b in munged slurmctld slurmd sbatch scontrol sqlite3; do
	command -v $b >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	if ! command -v $b >/dev/null 2>&1; then
		check "$b is installed (sh .ci/deps.sh slurm)" false
		finish
	fi
done

# munge, with its own key, socket and files
mkdir -p "$t/munge" "$t/state" "$t/spool" "$t/out" "$t/cache"
chmod 700 "$t/munge"
dd if=/dev/urandom of="$t/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$t/munge/munge.key"
sock="$t/munge/munge.sock"
munged -F -f --socket="$sock" --key-file="$t/munge/munge.key" \
	--pid-file="$t/munge/munged.pid" --seed-file="$t/munge/munge.seed" \
	--log-file="$t/munged.log" > "$t/munged.out" 2>&1 &
pids="$pids $!"

# Slurm on this node, ports away from the defaults (6817, 6818)
host=$(hostname -s)
base=$((20000 + $$ % 20000))
cpus=$(nproc)
cat > "$t/slurm.conf" <<CONF
ClusterName=fdtune-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
GresTypes=gpu
NodeName=$host CPUs=$cpus Gres=gpu:4 State=UNKNOWN
PartitionName=fdtune Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# four stand-in GPUs (char devices like /dev/null) for the script's
# --gpus=1 to be granted; the jobs run compile-only
for g in 0 1 2 3; do
	mknod "$t/gpu$g" c 1 3 || cp -p /dev/null "$t/gpu$g" 2>/dev/null
done
echo "NodeName=$host Name=gpu File=$t/gpu[0-3]" > "$t/gres.conf"
export SLURM_CONF="$t/slurm.conf"
i=0
while [ ! -S "$sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
slurmctld -D -f "$SLURM_CONF" > "$t/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" > "$t/slurmd.out" 2>&1 &
pids="$pids $!"
up() {
	i=0
	until scontrol show node "$host" 2>/dev/null | grep -q 'State=IDLE '; do
		[ $i -ge 300 ] && return 1
		sleep 0.2
		i=$((i + 1))
	done
}
check "a single-node cluster comes up" up || { logs; finish; }

# The plan: two problems of small spaces, four shards, compile-only
cat > "$t/plan.txt" <<PLAN
# two problems of the test's plan
xyz 2 16
xyz 3 12x10x9 fp32
PLAN
space="-p vec=1,2,4 -p bx=32 -p by=2 -p ypt=1 -p lds=0,1 -p nw=8 -p nt=0 -p pf=0 -p zu=1"
export FDTUNE PLAN="$t/plan.txt" SHARDS=4 OUT="$t/out" BUDGET=10m
export SWEEP_ARGS="--compile-only -j 1 $space" FDTUNE_CACHE="$t/cache"
cd "$t" || exit 1
check "sbatch --wait: the array of 4 jobs ran the script of docs/sweeps.md" \
	timeout 150 sbatch --wait --array=0-3 --output="$t/out/job-%a.txt" -Q "$root/examples/slurm/fdtune-array.sh"
ls "$t"/out/shard-*.db > /dev/null 2>&1 || logs
check "four shard databases" test "$(ls "$t"/out/shard-*.db 2>/dev/null | wc -l)" -eq 4
check "fdtune merge of the shards" "$FDTUNE" merge --db "$t/merged.db" "$t"/out/shard-*.db \
	> "$t/merge.log" 2>&1
# shellcheck disable=SC2086
check "the unsharded plan" "$FDTUNE" sweep --plan "$PLAN" $SWEEP_ARGS -q --db "$t/whole.db" \
	2> "$t/whole.log"
q="select p.family, p.radius, p.nx, p.ny, p.nz, p.precision, c.params, b.status"
from="builds b join sweeps s on s.id = b.sweep_id join problems p on p.id = s.problem_id
	join configs c on c.id = b.config_id"
n_whole=$(sqlite3 "$t/whole.db" "select count(*) from builds")
n_merged=$(sqlite3 "$t/merged.db" "select count(*) from builds")
check "the plan has configurations ($n_whole)" test "$n_whole" -gt 8
check "merged: as many builds as the plan ($n_merged)" test "$n_merged" -eq "$n_whole"
diff1=$(sqlite3 "$t/merged.db" "attach '$t/whole.db' as w;
	select count(*) from ($q from $from except $q from w.$(echo "$from" |
	sed 's/join /join w./g'))")
diff2=$(sqlite3 "$t/merged.db" "attach '$t/whole.db' as w;
	select count(*) from ($q from w.$(echo "$from" | sed 's/join /join w./g') except $q from $from)")
check "merged and unsharded: the same configurations and statuses" \
	test "$diff1" = 0 -a "$diff2" = 0
twice=$(sqlite3 "$t/merged.db" "select count(*) from (select 1 from $from
	group by s.problem_id, b.config_id having count(*) > 1)")
check "none twice" test "$twice" = 0
check "one sweep per problem and shard" \
	test "$(sqlite3 "$t/merged.db" "select count(*) from sweeps where status = 'done'")" -eq 8
[ "$f" -eq 0 ] || logs
finish
