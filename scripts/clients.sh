#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Real, unmodified MPI clients through libcartcoll_mpi (docs/transparent.md):
# - Debian's PETSc 3.18 (built against Open MPI) and its own tutorial programs, with -sf_type neighbor
#   (PetscSF over MPI_Dist_graph_create_adjacent + MPI_(I)neighbor_alltoallv);
# - Debian's DOLFINx 0.5.2 (python3-dolfinx, Open MPI) running this repository's two programs in
#   scripts/clients/: a Poisson solve, and a ghost-update loop (Function.x.scatter_forward and
#   scatter_reverse: MPI_Ineighbor_alltoallv + MPI_Wait) that checks every ghost and every sum itself.
# Steps:
#   1. every program at several process counts, without and with the layer preloaded (DOLFINx's also
#      with graph-combining and with graph-routing forced): the outputs (stdout) must be
#      byte-identical, and at the largest count each forced run's report (CARTCOLL_REPORT) must show
#      MPI_Ineighbor_alltoallv calls that send fewer messages than the process has edges (v calls
#      combined or routed);
#   2. a larger KSP solve and the ghost-update loop timed both ways (PETSc's own -log_view: whole run,
#      and VecScatterBegin + VecScatterEnd per call; the loop's own clock around its updates);
#   3. the layer's report (CARTCOLL_REPORT=1) of one PETSc solve, and of the ghost-update runs at
#      the largest count (one per algorithm setting), summed per function and algorithm.
# Ends with a line "N identical, N differ, N forced runs combined no v call"; fails unless the last
# two are 0.
# Every MPI run has a timeout. Heavy (PETSc, DOLFINx and their dependencies, about 1.5 GB), so not part
# of scripts/test.sh. Usage: bash scripts/clients.sh [--quick | --help]
# --quick: PETSc at 2 and 4 processes and a smaller solve; DOLFINx's ghost-update check at 8 processes
# (the fewest at which DOLFINx's graphs give both forced algorithms v calls to combine), untimed.
quick=0
case ${1:-} in
  --quick) quick=1 ;;
  -h | --help) awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
  '') ;;
  *) echo "unknown argument $1 (usage: bash scripts/clients.sh [--quick | --help])" >&2; exit 2 ;;
esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
packages+=(petsc-dev libpetsc3.18-dev-examples python3-dolfinx)
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
  timeout 300 mpirun -n "$procs" "${preload[@]}" "./$program" "$@" 2>"$program.err" ||
    echo "$program exited with status $? (stderr: $out/petsc/$program.err)" >&2
}

cases=("ksp_ex2 -m 30 -n 30 -ksp_monitor_short -ksp_converged_reason"
       "ksp_ex2 -m 17 -n 23 -pc_type jacobi -ksp_type bcgs -ksp_monitor_short")
for test in bcast reduce degree gather scatter embed invert; do cases+=("sf_ex1 -test_$test"); done
procs_list=(1 2 3 4 6)
((quick)) && procs_list=(2 4)

# compare <label> <native output> <layer output>: counts the case as identical or differing (an empty
# output, which a failed run leaves, never counts as identical).
identical=0 differ=0
compare() {
  if cmp -s "$2" "$3" && [[ -s $2 ]]; then
    identical=$((identical + 1))
    printf 'identical  %s (%d lines)\n' "$1" "$(wc -l <"$2")"
  else
    differ=$((differ + 1))
    printf 'DIFFER     %s\n' "$1"
    diff "$2" "$3" | head -n 10 || true
  fi
}

echo "== PETSc with -sf_type neighbor, without and with $layer"
for procs in "${procs_list[@]}"; do
  for case in "${cases[@]}"; do
    read -r -a words <<<"$case"
    run "$procs" native "${words[@]}" -sf_type neighbor >native.out
    run "$procs" layer "${words[@]}" -sf_type neighbor >layer.out
    compare "$(printf '%2d processes  %s' "$procs" "$case")" native.out layer.out
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
CARTCOLL_REPORT=1 timeout 300 mpirun -n 4 -x LD_PRELOAD="$layer" -x CARTCOLL_REPORT ./ksp_ex2 -m 30 -n 30 -sf_type neighbor \
  2>&1 >/dev/null | grep '^cartcoll:' | sort

# DOLFINx: the programs of scripts/clients/, run by the Python that has DOLFINx (another python3 may
# come first on PATH). Only stdout is compared: petsc4py, mpi4py and FFCx write to stderr.
python=/usr/bin/python3
programs=$repo/scripts/clients
mkdir -p "$out/dolfinx"
cd "$out/dolfinx"
# Repeatable runs: PT-Scotch's threads make the mesh partition differ between runs; one thread per
# process where 2 cores are oversubscribed; Open MPI's treematch topology component can hang in
# MPI_Dist_graph_create when oversubscribed.
export SCOTCH_PTHREAD_NUMBER=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OMPI_MCA_topo=basic
# FFCx compiles forms and elements on first use into this cache; a serial run of each program fills it,
# so that no compared or timed run compiles.
export XDG_CACHE_HOME=$out/dolfinx/cache
for program in dolfinx_poisson dolfinx_ghost_update; do
  if ! "$python" "$programs/$program.py" >/dev/null 2>"$program.warm.err"; then
    tail -n 20 "$program.warm.err"
    echo "$program failed in a serial run (full stderr: $out/dolfinx/$program.warm.err)"
    exit 1
  fi
done

# run_dolfinx <procs> <native|layer|graph-combining> <program> [args...]: the program's stdout
# (stderr to <program>.err), nothing where it fails or runs past 5 minutes. graph-combining: the
# layer with that algorithm forced on every communicator and friends sharing 2 out-neighbors enough;
# graph-routing: the layer with that algorithm forced.
# With output_dir set, each process's output goes to its own files there too.
run_dolfinx() {
  local procs=$1 how=$2 program=$3
  shift 3
  local layer_args=()
  [[ $how != native ]] && layer_args=(-x "LD_PRELOAD=$layer")
  [[ $how == graph-* ]] && layer_args+=(-x "CARTCOLL_ALGORITHM=$how")
  [[ $how == graph-combining ]] && layer_args+=(-x CARTCOLL_COMBINING_THRESHOLD=2)
  [[ $how != native && -n ${CARTCOLL_REPORT:-} ]] && layer_args+=(-x CARTCOLL_REPORT)
  [[ -n ${output_dir:-} ]] && layer_args+=(--output-filename "$output_dir")
  timeout 300 mpirun -n "$procs" "${layer_args[@]}" "$python" "$programs/$program.py" "$@" 2>"$program.err" ||
    echo "$program exited with status $? (stderr: $out/dolfinx/$program.err)" >&2
}

# combined_v_lines <report folder>: of the report's MPI_Ineighbor_alltoallv lines (one per process
# and communicator), how many there are and how many send fewer messages per call than the process
# has edges to others ("LINES COMBINED"); 0 0 where there is no report.
combined_v_lines() {
  cat "$1"/*/rank.*/stderr 2>/dev/null | grep '^cartcoll:' | awk '
    { for (i = 2; i <= NF; i++) { split($i, kv, "="); field[kv[1]] = kv[2] } }
    field["function"] == "MPI_Ineighbor_alltoallv" && field["calls"] > 0 {
      lines++; combined += field["messages_after"] < field["messages_before"] }
    END { print lines + 0, combined + 0 }'
}

# Each layered run writes its report (CARTCOLL_REPORT=1) to report.<procs>.<program>.<how>/, each
# process's lines in its own file: mpirun's merged stderr can cut a line of one process into another's.
# At 3 processes the layer finds Cartesian neighborhoods in most of DOLFINx's graphs and every process
# has at most 2 neighbors: nothing to combine; at 4 graph-combining combines a few v calls and
# graph-routing none; at 8 (out-degrees up to 7) both do, which the check asserts there.
dolfinx_cases=(dolfinx_poisson dolfinx_ghost_update)
dolfinx_procs=(3 4 8)
((quick)) && dolfinx_cases=(dolfinx_ghost_update) dolfinx_procs=(8)
not_combined=0
echo
echo "== DOLFINx $(dpkg-query -W -f='${Version}' python3-dolfinx) (scripts/clients/), without and with $layer"
for procs in "${dolfinx_procs[@]}"; do
  for program in "${dolfinx_cases[@]}"; do
    run_dolfinx "$procs" native "$program" >native.out
    for how in layer graph-combining graph-routing; do
      rm -rf "report.$procs.$program.$how"
      CARTCOLL_REPORT=1 output_dir=report.$procs.$program.$how run_dolfinx "$procs" "$how" "$program" >"$how.out"
      compare "$(printf '%2d processes  %s, %s' "$procs" "$program" "${how/layer/default algorithm}")" native.out "$how.out"
      [[ $how == layer ]] && continue
      read -r lines combined < <(combined_v_lines "report.$procs.$program.$how")
      printf '           %d of %d MPI_Ineighbor_alltoallv report lines send fewer messages than edges\n' \
        "$combined" "$lines"
      if ((procs == dolfinx_procs[-1] && combined == 0)); then
        not_combined=$((not_combined + 1))
        echo "NOT COMBINED  $how forced at $procs processes combined no MPI_Ineighbor_alltoallv call"
      fi
    done
  done
done

if ((!quick)); then
  # The ghost-update loop timed without and with the layer, runs alternating, 5 each: the slowest
  # process's time in scatter_forward and scatter_reverse (its own clock), per update.
  loop=(dolfinx_ghost_update --cells 12 --iterations 1000 --timing)
  echo
  echo "== Time of ${loop[*]} ($(env -u OMP_NUM_THREADS nproc) cores, microseconds per update, min and median of 5)"
  printf '%-10s %-8s %10s %10s\n' processes layer min median
  for procs in 3 4; do
    rm -f loop.native loop.layer
    for repetition in 1 2 3 4 5; do
      for how in native layer; do
        run_dolfinx "$procs" "$how" "${loop[@]}" | awk '/^timing:/ { print $6 }' >>"loop.$how"
      done
    done
    for how in native layer; do
      printf '%-10s %-8s %10s %10s\n' "$procs" "$how" "$(sort -n "loop.$how" | head -n 1)" "$(median <"loop.$how")"
    done
  done
fi

# The reports of the ghost-update runs at the largest count above, one per algorithm setting: their
# lines summed per MPI function and algorithm (report lines, calls, messages per call before and
# after, summed over the lines).
echo
echo "== The layer's report of the ghost-update runs at ${dolfinx_procs[-1]} processes (CARTCOLL_REPORT=1), summed"
for how in layer graph-combining graph-routing; do
  echo "-- ${how/layer/default algorithm}"
  printf '%-26s %-16s %-14s %6s %7s %16s %15s\n' function algorithm decided_by lines calls messages_before \
    messages_after
  cat "report.${dolfinx_procs[-1]}.dolfinx_ghost_update.$how"/*/rank.*/stderr | grep '^cartcoll:' | awk '
    { for (i = 2; i <= NF; i++) { split($i, kv, "="); field[kv[1]] = kv[2] }
      key = sprintf("%-26s %-16s %-14s", field["function"], field["algorithm"], field["decided_by"])
      lines[key]++; calls[key] += field["calls"]; before[key] += field["messages_before"]; after[key] += field["messages_after"] }
    END { for (key in lines) printf "%s %6d %7d %16d %15d\n", key, lines[key], calls[key], before[key], after[key] }' |
    sort
done

echo
echo "$identical identical, $differ differ, $not_combined forced runs combined no v call"
((differ == 0 && not_combined == 0))
