#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ghost_update_time (this folder) natively and through one or more builds of libcartcoll_mpi.so,
# runs interleaved (native, each library, native, ...) so that a machine's changing load hits all
# alike; prints each run's median per call and, per variant, the median over runs and its ratio to
# native. The variant `plain` (in place of a library) runs the program natively with --plain: the
# same messages without a neighborhood collective. Open MPI, shared memory (btl self,vader).
#   bash bench/tools/ghost_update_compare.sh [-n PROCS] [-r RUNS] PROGRAM LIB.so|plain... [-- PROGRAM ARGS]
set -euo pipefail
procs=4 runs=7
while getopts n:r: option; do
  case $option in
    n) procs=$OPTARG ;;
    r) runs=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
program=$1
shift
libraries=()
while (($#)) && [[ $1 != -- ]]; do libraries+=("$1"); shift; done
(($#)) && shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
one_run() {  # $1: library or "native"; prints the median per call in microseconds
  local preload=() extra=()
  case $1 in
    native) ;;
    plain) extra=(--plain) ;;
    *) preload=(-x "LD_PRELOAD=$1") ;;
  esac
  shift
  mpirun -n "$procs" --mca btl self,vader "${preload[@]}" "$program" "$@" "${extra[@]}" | awk '{for (i = 1; i < NF; ++i) if ($i == "median_us_per_call") print $(i + 1); if ($NF != 0) exit 1}'
}
declare -A times
variants=(native "${libraries[@]}")
for ((r = 0; r < runs; ++r)); do
  for v in "${variants[@]}"; do
    t=$(one_run "$v" "$@")
    times[$v]+="$t "
    echo "run $r $v $t us"
  done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# Besides the ratio of medians, the median of each round's ratio to that round's native run, which
# a load that changes between rounds disturbs less.
native=$(echo "${times[native]}" | median)
native_best=$(echo "${times[native]}" | tr ' ' '\n' | grep -v '^$' | sort -g | head -1)
read -ra native_runs <<<"${times[native]}"
for v in "${variants[@]}"; do
  m=$(echo "${times[$v]}" | median)
  read -ra runs_of <<<"${times[$v]}"
  paired=$(for ((r = 0; r < runs; ++r)); do awk -v a="${runs_of[r]}" -v b="${native_runs[r]}" 'BEGIN {print a / b}'; done | median)
  best=$(echo "${times[$v]}" | tr ' ' '\n' | grep -v '^$' | sort -g | head -1)
  echo "median over $runs runs: $v $m us, ratio to native $(awk -v a="$m" -v b="$native" 'BEGIN {printf "%.3f", a / b}'), median of paired ratios $(awk -v a="$paired" 'BEGIN {printf "%.3f", a}'), fastest run $best us ($(awk -v a="$best" -v b="$native_best" 'BEGIN {printf "%.3f", a / b}'))"
done
