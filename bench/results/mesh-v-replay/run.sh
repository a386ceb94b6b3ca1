#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The mesh-partition halo graphs' schedules replayed on the latency-only machine (README.md):
#   bash bench/results/mesh-v-replay/run.sh [PLAN] > bench/results/mesh-v-replay/replay.txt
# PLAN: the cartcoll-plan program (default build/dev/tools/plan/cartcoll-plan).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
plan=${1:-$repo/build/dev/tools/plan/cartcoll-plan}
for p in 256 1024 4096; do
  for cells in 24 8; do  # about cells^3 cells a part, as scripts/simulate.sh --mesh
    n=$(awk -v p="$p" -v c="$cells" 'BEGIN { printf "%d", c * p ^ (1 / 3) + 0.5 }')
    for o in 0.5 1 2; do
      echo "== --mesh-partition $p 3 $n 1 --replay $o 1"
      # the graph, the alltoall summary and the replayed times; not the per-process rows
      "$plan" --mesh-partition "$p" 3 "$n" 1 --replay "$o" 1 | sed -n '2p;/^alltoall /p;/^replayed/,/graph-routing  /p'
    done
  done
done
