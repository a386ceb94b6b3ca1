#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What the layer's work at graph creation costs a DOLFINx run: scripts/clients/dolfinx_poisson.py
# under the default algorithm (`auto`), natively and through libcartcoll_mpi.so, runs alternating,
# each with graph_create_cost.so (this folder) preloaded ahead: per run, mpirun's wall time and the
# library's line (MPI_Dist_graph_create* calls per process; their time, MPI's part and the layer's,
# summed per process, slowest process; the layer's part of the first call alone). Prints every run, then per process count and variant the
# medians, and the layer's share of the layered run's wall time (median of the per-run shares).
# Environment as scripts/clients.sh sets it (repeatable partition, one thread per process, FFCx's
# cache; run scripts/clients.sh once first so that the cache holds the compiled forms).
#   bash bench/tools/dolfinx_setup_cost.sh [-r RUNS] [-p "4 8"] LIBCARTCOLL_MPI.so GRAPH_CREATE_COST.so
set -euo pipefail
runs=3 counts="4 8"
while getopts r:p: option; do
  case $option in
    r) runs=$OPTARG ;;
    p) counts=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
layer=$(realpath "$1") shim=$(realpath "$2")
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export SCOTCH_PTHREAD_NUMBER=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OMPI_MCA_topo=basic
export XDG_CACHE_HOME=${XDG_CACHE_HOME:-$repo/build/clients/dolfinx/cache}
results=$(mktemp)
for procs in $counts; do
  for ((r = 1; r <= runs; ++r)); do
    for how in native layer; do
      preload=$shim
      [[ $how == layer ]] && preload=$shim:$layer
      started=$(date +%s.%N)
      line=$(timeout 300 mpirun -n "$procs" -x LD_PRELOAD="$preload" /usr/bin/python3 \
        "$repo/scripts/clients/dolfinx_poisson.py" 2>/dev/null | grep '^graph_create_cost:')
      wall=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
      echo "$how wall_s $wall $line" | tee -a "$results"
    done
  done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { awk -v p="$1" -v h="$2" -v f="$3" '$1 == h { for (i = 1; i < NF; ++i) if ($i == "processes") n = $(i + 1);
  for (i = 1; i < NF; ++i) if ($i == f && n == p) print $(i + 1) }' "$results"; }
echo
printf '%-9s %-7s %6s %9s %11s %13s %12s %14s %11s\n' processes variant calls "wall (s)" "MPI in (s)" "creation (s)" \
  "layer's (s)" "its first (s)" "layer/wall"
for procs in $counts; do
  for how in native layer; do
    share=$(paste <(field "$procs" "$how" layer_max_s) <(field "$procs" "$how" wall_s) |
      awk '{ printf "%.4f\n", $1 / $2 }' | median)
    printf '%-9s %-7s %6s %9s %11s %13s %12s %14s %10.1f%%\n' "$procs" "$how" \
      "$(field "$procs" "$how" calls_max | median)" "$(field "$procs" "$how" wall_s | median)" \
      "$(field "$procs" "$how" run_max_s | median)" "$(field "$procs" "$how" whole_max_s | median)" \
      "$(field "$procs" "$how" layer_max_s | median)" "$(field "$procs" "$how" layer_first_max_s | median)" \
      "$(awk -v s="$share" 'BEGIN { print 100 * s }')"
  done
done
rm -f "$results"
