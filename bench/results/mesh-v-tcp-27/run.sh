#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# alltoallv on mesh-partition halo graphs of 27 processes over Open MPI's TCP loopback (README.md).
#   bash bench/results/mesh-v-tcp-27/run.sh OUT_DIR [SEEDS] [REPS]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
out=${1:?an output directory} seeds=${2:-1,2} reps=${3:-40}
bench=${BENCH:-$repo/build/dev/bench/cartcoll-bench}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
IFS=, read -r -a seed_list <<<"$seeds"
for seed in "${seed_list[@]}"; do
  # 72^3 cells in 27 parts: about 24^3 cells a part, as the simulated mesh steps
  timeout 1200 mpirun -n 27 --bind-to none --mca pml ob1 --mca topo basic --mca btl tcp,self \
    "$bench" --op alltoallv --type double --mesh-partition 27 3 72 "$seed" --sizes 1,10,100 \
    --impl cc-trivial,cc-graph-combining,cc-graph-routing,cc-auto,mpi-neighbor --reps "$reps" \
    --transport tcp-loopback --pinning none --csv "$out/results.csv" | tee "$out/seed-$seed.txt"
done
