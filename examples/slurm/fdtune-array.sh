#!/bin/sh
#SBATCH --job-name=fdtune --array=0-7 --gpus=1 --time=10:00:00
# fdtune-array.sh: one share of a plan per job of a Slurm job array, each
# into its own database; merge them when the array is done:
#     sbatch examples/slurm/fdtune-array.sh
#     fdtune merge --db results/fdtune.db results/shard-*.db
# The shares are dealt round-robin over every configuration of every problem
# of the plan, so the merged shards are the whole plan, nothing twice.
# The environment may change (make test-slurm sets all of them):
#     FDTUNE      the fdtune executable (./fdtune)
#     PLAN        the plan, one problem a line (examples/slurm/plan.txt)
#     SHARDS      the number of jobs of the array (8, as --array=0-7)
#     OUT         the directory of the shard databases (results)
#     BUDGET      each job's time budget (9h30m, within --time)
#     SWEEP_ARGS  more fdtune sweep options (-s exhaustive: every configuration,
#                 so that the shards add up to the whole plan; --compile-only, -p ...)
set -eu
task=${SLURM_ARRAY_TASK_ID:?submit this with sbatch, as a job array}
out=${OUT:-results}
mkdir -p "$out"
# shellcheck disable=SC2086
exec "${FDTUNE:-./fdtune}" sweep --plan "${PLAN:-examples/slurm/plan.txt}" \
	--shard "$task/${SHARDS:-8}" --budget "${BUDGET:-9h30m}" -q \
	--db "$out/shard-$task.db" ${SWEEP_ARGS:--s exhaustive}
