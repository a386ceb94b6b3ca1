#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The runs of README.md: cartcoll-bench --halo 3 1 8,32,64 at 27 processes (3x3x3), Open MPI over TCP
# loopback and over shared memory, RUNS times each (default 3), alternating the transports, into
# OUT (default this folder): TRANSPORT-K.csv and .log, and load.txt (the load average before each run).
#   bash bench/results/halo-overlap-openmpi/run.sh [BUILD_DIR] [IMPLS]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
build=${1:-$repo/build/dev}
impls=${2:-cc-trivial-persistent,cc-combining-persistent,cc-overlap-combining-persistent,cc-auto-persistent,cart-combining-persistent,cart-overlap-combining-persistent,mpi-neighbor,mpi-neighbor-persistent,direct}
out=${OUT:-$here}
runs=${RUNS:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
for ((k = 1; k <= runs; ++k)); do
  for transport in tcp-loopback sm; do
    btl=()
    [ "$transport" = tcp-loopback ] && btl=(--mca btl tcp,self)
    echo "$transport-$k: load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
    timeout 300 mpirun -n 27 --bind-to none --mca pml ob1 "${btl[@]}" "$build/bench/cartcoll-bench" \
      --halo 3 1 8,32,64 --impl "$impls" --reps 60 --warmup 10 --transport "$transport" --pinning none \
      --csv "$out/$transport-$k.csv" >"$out/$transport-$k.log" 2>&1
  done
done
