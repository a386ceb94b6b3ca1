#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Build the defect demonstrators with Open MPI (mpicc) and MPICH (mpicc.mpich) and run them
# with timeouts; print a table (program, MPI, processes, outcome) and the failing cases.
#
# usage: tools/mpi-defects/run.sh [scratch-dir]        (default /tmp/mpi-defects)
# environment: T=60        timeout in s for each run of the other programs
#              RUNS=20     runs per configuration of dist_graph_create
#              T4=60       timeout in s for each dist_graph_create run
#              REPEAT=30   graph creations per dist_graph_create run
#              NP4=12      processes for dist_graph_create
#              ONLY=...    run only the programs named (space-separated)
#              MPICH_PRELOAD=/path/libcartcoll_ucx_yield.so   preloaded under MPICH (optional)
# Full output of every run is kept in the scratch directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-/tmp/mpi-defects}
T=${T:-60} RUNS=${RUNS:-20} T4=${T4:-60} REPEAT=${REPEAT:-30} NP4=${NP4:-12}
ONLY=${ONLY:-"dup_edges degree_mismatch persistent_completion pack_bottom proc_null_persistent cart_periodic dist_graph_create"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$dir" || exit 1
flags="-std=c99 -O1 -g -Wall -Wno-stringop-overflow -Wno-stringop-overread -Wno-format-truncation"
for p in $ONLY; do
  mpicc $flags "$here/$p.c" -o "$dir/$p.ompi" || exit 1
  mpicc.mpich $flags "$here/$p.c" -o "$dir/$p.mpich" || exit 1
done

# launch MPI NP PROGRAM ARGS...
launch() {
  local mpi=$1 np=$2 prog=$3; shift 3
  if [ "$mpi" = ompi ]; then
    mpirun --oversubscribe -np "$np" "$dir/$prog.ompi" "$@"
  else
    env ${MPICH_PRELOAD:+LD_PRELOAD=$MPICH_PRELOAD} mpiexec.mpich -n "$np" "$dir/$prog.mpich" "$@"
  fi
}
name() { case $1 in ompi) echo "Open MPI${OMPI_MCA_topo:+ (topo=$OMPI_MCA_topo)}";; *) echo MPICH;; esac; }
row() { printf '%-36s %-24s %3s  %s\n' "$@"; }
wrong=""
row program MPI np outcome
row ------- --- -- -------

# programs 1-6, one line per case; degree_mismatch and persistent_completion run each case
# in its own job, so that a hang or crash costs only that case
graphs="chain out-star in-star mixed"
functions="Neighbor_alltoall Neighbor_alltoallv Neighbor_alltoallw Ineighbor_alltoallw Neighbor_alltoallw_init"
kinds="neighbor_alltoall/allgather_init Allreduce_init Send/Recv_init"
methods="Waitall Waitany Testall Testany Waitsome Testsome"
for spec in "dup_edges 3" "degree_mismatch 4" "persistent_completion 4" "pack_bottom 1" "proc_null_persistent 1" \
            "cart_periodic 2"; do
  set -- $spec; p=$1 np=$2
  case " $ONLY " in *" $p "*) ;; *) continue;; esac
  case $p in
    dup_edges|pack_bottom|proc_null_persistent|cart_periodic) cases=("");;
    degree_mismatch) cases=(); for a in $graphs; do for b in $functions; do cases+=("$a $b"); done; done;;
    persistent_completion) cases=(); for a in $kinds; do for b in $methods; do cases+=("$a $b"); done; done;;
  esac
  for mpi in ompi mpich; do
    log="$dir/$p.$mpi.log"; : >"$log"
    ok=0 bad=0 hang=0 crash=0
    for c in "${cases[@]}"; do
      timeout "$T" bash -c "$(declare -f launch); dir='$dir'; launch $mpi $np $p $c" >"$log.1" 2>&1
      rc=$?
      cat "$log.1" >>"$log"
      ok=$((ok + $(grep -c ' OK$' "$log.1"))); bad=$((bad + $(grep -c 'WRONG:' "$log.1")))
      wrong+=$(grep 'WRONG:' "$log.1" | cut -c1-300 | sed "s|^|  $(name $mpi): |")$'\n'
      if [ $rc = 124 ]; then hang=$((hang + 1)); wrong+="  $(name $mpi): $p ${c:-(all)}: HANG (>${T} s) at: $(grep -v '^\[' "$log.1" | tail -1 | cut -c1-60)"$'\n'
      elif [ $rc != 0 ]; then crash=$((crash + 1)); wrong+="  $(name $mpi): $p ${c:-(all)}: exit code $rc"$'\n'; fi
    done
    rm -f "$log.1"
    row "$p" "$(name $mpi)" "$np" "$ok OK, $bad WRONG, $hang HANG (>${T} s), $crash bad exit"
  done
done

# dist_graph_create: RUNS runs per configuration, counting hangs
case " $ONLY " in *" dist_graph_create "*)
  for cfg in "ompi default" "ompi basic" "mpich -"; do
    set -- $cfg; mpi=$1
    if [ "$2" = basic ]; then export OMPI_MCA_topo=basic; else unset OMPI_MCA_topo; fi
    for mode in create adjacent; do
      for reorder in 0 1; do
        ok=0 bad=0 hang=0 other=0 stops=""
        for i in $(seq "$RUNS"); do
          log="$dir/dist_graph_create.$mpi.$2.$mode.$reorder.$i.log"
          timeout "$T4" bash -c "$(declare -f launch); dir='$dir'; launch $mpi $NP4 dist_graph_create $mode $reorder $REPEAT" >"$log" 2>&1
          rc=$?
          if [ $rc = 124 ]; then hang=$((hang + 1)); stops+=" $(grep -o 'start \.*' "$log" | tr -cd . | wc -c)"
          elif grep -q ' OK$' "$log"; then ok=$((ok + 1))
          elif grep -q 'WRONG:' "$log"; then bad=$((bad + 1)); wrong+="  $(name $mpi) $mode reorder=$reorder: $(grep WRONG: "$log" | cut -c1-300)"$'\n'
          else other=$((other + 1)); fi
        done
        out="$RUNS runs: $ok OK, $hang HANG (>${T4} s), $bad WRONG, $other other"
        [ -n "$stops" ] && out="$out; hangs after creations:$stops"
        row "dist_graph_create $mode reorder=$reorder" "$(name $mpi)" "$NP4" "$out"
      done
    done
  done
  unset OMPI_MCA_topo;;
esac

if [ -n "${wrong//$'\n'/}" ]; then echo; echo "WRONG / HANG / bad exit:"; printf '%s' "$wrong" | grep -v '^$'; fi
echo; echo "logs: $dir"
