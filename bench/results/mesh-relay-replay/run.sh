#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# neighbor-relay beside the direct exchange, graph-combining and graph-routing on the mesh-partition
# halo graphs, replayed on the latency-only machine (README.md):
#   bash bench/results/mesh-relay-replay/run.sh [PLAN] > bench/results/mesh-relay-replay/replay.txt
# PLAN: the cartcoll-plan program (default build/dev/tools/plan/cartcoll-plan).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
plan=${1:-$repo/build/dev/tools/plan/cartcoll-plan}
cells_side() {  # about $2^3 cells a part for $1 parts, as scripts/simulate.sh --mesh
  awk -v p="$1" -v c="$2" 'BEGIN { printf "%d", c * p ^ (1 / 3) + 0.5 }'
}
# the graph, the alltoall summary and the replayed times; not the per-process rows
summary() { sed -n '2p;/^alltoall /p;/^replayed/,/neighbor-relay  /p'; }
for p in 256 1024 4096; do
  for cells in 24 8; do
    n=$(cells_side "$p" "$cells")
    for o in 0.5 1 2; do
      echo "== --mesh-partition $p 3 $n 1 --replay $o 1"
      "$plan" --mesh-partition "$p" 3 "$n" 1 --replay "$o" 1 | summary
    done
  done
done
# the spread over the graphs' seeds at 1024 processes, o = 0.5 us
for seed in 2 3 4 5; do
  for cells in 24 8; do
    n=$(cells_side 1024 "$cells")
    echo "== --mesh-partition 1024 3 $n $seed --replay 0.5 1"
    "$plan" --mesh-partition 1024 3 "$n" "$seed" --replay 0.5 1 | summary
  done
done
# every schedule proven in the simulator against the reference model at 1024 processes
for cells in 24 8; do
  n=$(cells_side 1024 "$cells")
  echo "== --mesh-partition 1024 3 $n 1 --verify"
  "$plan" --mesh-partition 1024 3 "$n" 1 --verify | grep '^verified'
done
