#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Real, unmodified MPI clients through libcartcoll_mpi (docs/transparent.md). Debian's PETSc 3.18
# (built against Open MPI) and its own tutorial programs, with -sf_type neighbor (PetscSF over
# MPI_Dist_graph_create_adjacent + MPI_(I)neighbor_alltoallv):
#   1. every program at several process counts, without and with the layer preloaded: the outputs
#      must be byte-identical;
#   2. a larger KSP solve timed both ways (PETSc's own -log_view: whole run, and VecScatterBegin +
#      VecScatterEnd, one neighborhood call and its completion each, per call);
#   3. the layer's report (CARTCOLL_REPORT=1) of one run.
# Ends with a line "N identical, N differ". Heavy (PETSc and its dependencies, about 1 GB), so not
# part of scripts/test.sh. Usage: bash scripts/clients.sh [--quick]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
quick=0
[[ ${1:-} == --quick ]] && quick=1
packages+=(petsc-dev libpetsc3.18-dev-examples)
install_dependencies
# The build scripts/demo.sh makes (so the demonstration's last step reuses it).
build "$repo/build/openmpi" -DCMAKE_BUILD_TYPE=Release -DCARTCOLL_BUILD_TESTS=OFF
layer="$repo/build/openmpi/src/interpose/libcartcoll_mpi.so"
out="$repo/build/clients"

# PETSc's tutorials, compiled as they are.
examples=/usr/share/petsc/3.18/share/petsc/examples/src
petsc_flags=$(PKG_CONFIG_PATH=/usr/lib/petsc/lib/pkgconfig pkg-config --cflags --libs petsc)
mkdir -p "$out/petsc"
cd "$out/petsc"
mpicc -O2 -o ksp_ex2 "$examples/ksp/ksp/tutorials/ex2.c" $petsc_flags
mpicc -O2 -o sf_ex1 "$examples/vec/is/sf/tutorials/ex1.c" $petsc_flags

# run <procs> <native|layer> <program> [args...]: the program's stdout (stderr to <program>.err).
run() {
  local procs=$1 how=$2 program=$3
  shift 3
  local preload=()
  [[ $how == layer ]] && preload=(-x "LD_PRELOAD=$layer")
  mpirun -n "$procs" "${preload[@]}" "./$program" "$@" 2>"$program.err"
}

cases=("ksp_ex2 -m 30 -n 30 -ksp_monitor_short -ksp_converged_reason"
       "ksp_ex2 -m 17 -n 23 -pc_type jacobi -ksp_type bcgs -ksp_monitor_short")
for test in bcast reduce degree gather scatter embed invert; do cases+=("sf_ex1 -test_$test"); done
procs_list=(1 2 3 4 6)
((quick)) && procs_list=(2 4)

echo "== PETSc with -sf_type neighbor, without and with $layer"
identical=0 differ=0
for procs in "${procs_list[@]}"; do
  for case in "${cases[@]}"; do
    read -r -a words <<<"$case"
    run "$procs" native "${words[@]}" -sf_type neighbor >native.out
    run "$procs" layer "${words[@]}" -sf_type neighbor >layer.out
    if cmp -s native.out layer.out && [[ -s native.out ]]; then
      identical=$((identical + 1))
      printf 'identical  %2d processes  %s (%d lines)\n' "$procs" "$case" "$(wc -l <native.out)"
    else
      differ=$((differ + 1))
      printf 'DIFFER     %2d processes  %s\n' "$procs" "$case"
      diff native.out layer.out | head -n 10
    fi
  done
done

# The solve timed without and with the layer, runs alternating (the machine's load drifts), 5 each:
# the median of PETSc's whole-run time, and of microseconds per neighborhood call (the slowest
# process's VecScatterBegin + VecScatterEnd over their count: one MPI_Ineighbor_alltoallv and its
# MPI_Waitall each).
solve=(ksp_ex2 -m 300 -n 300 -ksp_max_it 400 -ksp_type cg -pc_type jacobi -sf_type neighbor -log_view)
((quick)) && solve=(ksp_ex2 -m 100 -n 100 -ksp_max_it 200 -ksp_type cg -pc_type jacobi -sf_type neighbor -log_view)
seconds() {
  run "$1" "$2" "${solve[@]}" | awk '
    /^Time \(sec\):/ { total = $3 }
    /^VecScatterBegin / { calls = $2; begin = $4 }
    /^VecScatterEnd / { end = $4 }
    END { printf "%.3f %.1f\n", total, 1e6 * (begin + end) / calls }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo
echo "== Time of ${solve[*]} ($(nproc) cores, Open MPI $(ompi_info --version 2>/dev/null | head -n 1 | grep -o '[0-9.]*$'), medians of 5)"
printf '%-10s %-8s %14s %26s\n' processes layer "whole run (s)" "per neighborhood call (us)"
for procs in 2 4; do
  rm -f times.native times.layer
  for repetition in 1 2 3 4 5; do
    for how in native layer; do seconds "$procs" "$how" >>"times.$how"; done
  done
  for how in native layer; do
    printf '%-10s %-8s %14s %26s\n' "$procs" "$how" "$(cut -d' ' -f1 "times.$how" | median)" \
      "$(cut -d' ' -f2 "times.$how" | median)"
  done
done

echo
echo "== The layer's report of one run (CARTCOLL_REPORT=1)"
CARTCOLL_REPORT=1 mpirun -n 4 -x LD_PRELOAD="$layer" -x CARTCOLL_REPORT ./ksp_ex2 -m 30 -n 30 -sf_type neighbor \
  2>&1 >/dev/null | grep '^cartcoll:' | sort

echo
echo "$identical identical, $differ differ"
((differ == 0))
