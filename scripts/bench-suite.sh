#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the papers' benchmark grid (section 4 of Träff and Hunold, Cartesian Collective Communication;
# sections 4 and 6 of Träff et al., Message-Combining Algorithms for Isomorphic, Sparse Collective
# Communication) as far as this machine allows, for three transports (Open MPI shared memory, Open MPI over TCP loopback, MPICH), and
# writes results.csv, setup.csv, the figures and tables (bench/plot.py) under bench/results/<date>,
# and with --docs a complete results page (results.md) there too; docs/results.md indexes the runs.
# The size rules named 000 and 002 are those two papers' (cartcoll-bench --help).
#
#   bash scripts/bench-suite.sh [--quick | --full] [--procs N] [--out DIR] [--reps N] [--step-timeout S]
#                               [--transports LIST] [--budget S] [--docs]
#
#   --quick   27 ranks, Moore 3 1 and box 3 3 -1, sizes 1,10,100, alltoall and allgather, and a random
#             graph of out-degree 6 (alltoall, sizes 1,100,10000), 50 reps, Open MPI over TCP and
#             shared memory only (a few minutes)
#   --full    also the neighborhoods that are slow on a small machine (box d=5 n=5, Moore with more
#             than 700 neighbors, shales 3 3 7)
#   --procs N run every step on N processes (default: 16 for d=2 and d=4, 27 for d=3, 32 for d=5;
#             on a machine with enough cores pass its core count to run unoversubscribed)
#   --out DIR results directory (default bench/results/<date>)
#   --transports LIST  comma-separated subset of openmpi-tcp,openmpi-shm,mpich (default: all three;
#             --quick: the two Open MPI ones)
#   --budget S  start no step after S seconds; the steps left are listed as not run (the
#             target experiments come first in each transport, so they are never the ones cut)
#   --docs    also write a complete results page, results.md, into the run's folder
#   --step-timeout S  stop a step after S seconds (default 900); a set-up step (--setup) after at most
#             300
#   --build-dir DIR  use (and build) the Open MPI configuration in DIR instead of build/bench-openmpi
#   --no-table  end without the speed-up table (bench/speedup_table.py; scripts/demo.sh prints it last)
#   --only RE run only the steps whose name matches the extended regular expression RE (e.g. 'graph')
#   --list    print the steps and exit
#   --prebuilt DIR  use the programs of a bundle made by scripts/bundle.sh (no package installation,
#             no build; the machine needs the bundle's MPI run-time: bash DIR/install-runtime.sh)
# Steps the benchmark program cannot run (an option it lacks, an implementation it does not have, a
# crash or a timeout) are retried once with the core implementations, then recorded as skipped.
# A running step prints its elapsed time every 20 s. Open MPI runs with its `basic` topology
# component: the default `treematch` can hang in MPI_Dist_graph_create (every rank spinning in
# ompi_comm_nextcid), which the set-up steps time; treematch only reorders ranks, which the benchmark
# never asks for, so `basic` makes the same communicators.
# Ends with the speed-up of cartcoll over MPI_Neighbor_* per transport and size, and where the
# figures are. See docs/benchmarking.md.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

mode=default
procs=""
out=""
reps_override=""
step_timeout=900
budget=""
transports_override=""
write_docs=0
list_only=0
only=""
prebuilt=""
openmpi_build=$repo/build/bench-openmpi
print_table=1
while (($#)); do
  case $1 in
    --quick) mode=quick ;;
    --full) mode=full ;;
    --procs) procs=$2; shift ;;
    --out) out=$2; shift ;;
    --reps) reps_override=$2; shift ;;
    --step-timeout) step_timeout=$2; shift ;;
    --transports) transports_override=$2; shift ;;
    --budget) budget=$2; shift ;;
    --docs) write_docs=1 ;;
    --list) list_only=1 ;;
    --only) only=$2; shift ;;
    --prebuilt) prebuilt=$(cd "$2" && pwd); shift ;;
    --build-dir) openmpi_build=$2; shift ;;
    --no-table) print_table=0 ;;
    -h|--help) sed -n '2,/^source/p' "${BASH_SOURCE[0]}" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-suite.sh: unknown option '$1'; see --help" >&2; exit 2 ;;
  esac
  shift
done
python=python3   # the first interpreter that has matplotlib (Debian's has python3-matplotlib)
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import matplotlib' 2>/dev/null; then python=$candidate; break; fi
done

transports=(openmpi-tcp openmpi-shm mpich)
[ "$mode" = quick ] && transports=(openmpi-tcp openmpi-shm)
if [ -n "$transports_override" ]; then
  IFS=, read -r -a transports <<<"$transports_override"
  for transport in "${transports[@]}"; do
    case $transport in openmpi-tcp|openmpi-shm|mpich) ;; *) echo "bench-suite.sh: unknown transport $transport" >&2; exit 2 ;; esac
  done
fi

# ---------------------------------------------------------------------------------------------- launchers
# launcher <transport> <procs>: sets the array `launcher` to the command that starts <procs> ranks.
# Open MPI: the `basic` topology component (see the top of this file: treematch's graph creation hangs).
launcher() {
  case $1 in
    openmpi-shm) launcher=(mpirun.openmpi -n "$2" --bind-to none --mca pml ob1 --mca topo basic) ;;
    openmpi-tcp) launcher=(mpirun.openmpi -n "$2" --bind-to none --mca pml ob1 --mca topo basic --mca btl tcp,self) ;;
    mpich) launcher=(env "LD_PRELOAD=$ucx_yield" mpiexec.mpich -n "$2" -bind-to none) ;;
  esac
}
declare -A transport_label=([openmpi-shm]=sm [openmpi-tcp]=tcp-loopback [mpich]=ch4-ucx)
declare -A binary_of=([openmpi-shm]=openmpi [openmpi-tcp]=openmpi [mpich]=mpich)

# ---------------------------------------------------------------------------------------------- the grid
impls_full=cart-trivial,cart-combining,cart-torus,cart-auto,cart-auto-persistent,mpi-neighbor,mpi-neighbor-persistent,ideal
impls_quick=cart-trivial,cart-combining,cart-auto,cart-auto-persistent,mpi-neighbor,ideal
impls_target=cart-trivial,cart-combining,cart-auto,mpi-neighbor,ideal
impls_core=cart-trivial,cart-combining,cart-auto,mpi-neighbor
impls_graph=cc-trivial,cc-trivial-persistent,mpi-neighbor,mpi-ineighbor,mpi-neighbor-persistent,ideal
impls_graph_combining=cc-trivial,cc-graph-combining,cc-graph-routing,cc-auto,mpi-neighbor
max_t=700
[ "$mode" = full ] && max_t=1000000

procs_for() {  # <d>
  if [ -n "$procs" ]; then echo "$procs"; return; fi
  case $1 in 2) echo 16 ;; 3) echo 27 ;; 4) echo 16 ;; *) echo 32 ;; esac
}
reps_for() {  # <offsets>: fewer repetitions for big neighborhoods, so that a step takes minutes
  if [ -n "$reps_override" ]; then echo "$reps_override"; return; fi
  [ "$mode" = quick ] && { echo 50; return; }
  local t=$1 r=$((3000 / ($1 > 0 ? $1 : 1)))
  ((r > 100)) && r=100
  ((r < 20)) && r=20
  echo "$r"
}
pow() { local b=$1 e=$2 v=1; while ((e-- > 0)); do v=$((v * b)); done; echo $v; }

# A step: "transport|name|d|t|args" (args are cartcoll-bench options; name is what the progress shows).
steps=()
add() {
  [ -n "$only" ] && ! [[ $2 =~ $only ]] && return
  steps+=("$1|$2|$3|$4|$5")
}
for transport in "${transports[@]}"; do
  if [ "$mode" = quick ]; then
    for op in alltoall allgather; do
      add "$transport" "$op moore-3-1" 3 26 "--op $op --moore 3 1 --sizes 1,10,100 --impl $impls_quick"
      add "$transport" "$op box-3-3--1" 3 27 "--op $op --box 3 3 -1 --sizes 1,10,100 --impl $impls_quick"
    done
    add "$transport" "setup moore-3-1" 3 26 "--setup --moore 3 1"
    # The trivial schedule and auto on a random graph (6 destinations per process) against MPI's.
    p=$(procs_for 3)
    add "$transport" "alltoall graph deg-$p-6" 3 6 "--op alltoall --random-degree $p 6 1 --sizes 1,100,10000 --impl $impls_graph,cc-auto"
    continue
  fi
  # Distributed graphs: the trivial schedule against MPI_Neighbor_* at every size.
  p=$(procs_for 3)
  for op in alltoall allgather alltoallv; do
    add "$transport" "$op graph deg-$p-6" 3 6 \
      "--op $op --random-degree $p 6 1 --sizes 1,16,128,1024,16384 --impl $impls_graph"
  done
  add "$transport" "alltoall graph er-$p-0.3" 3 8 \
    "--op alltoall --erdos-renyi $p 0.3 2 --sizes 1,16,128,1024,16384 --impl $impls_graph"
  # graph-combining and graph-routing on dense random graphs; auto against the best of them and trivial.
  for op in alltoall allgather; do
    for density in 0.2 0.5; do
      add "$transport" "$op graph er-$p-$density combining" 3 $((p / 2)) \
        "--op $op --erdos-renyi $p $density 1 --sizes 1,100,10000,100000 --reps 30 --impl $impls_graph_combining"
    done
  done
  # The performance targets first (27 ranks, Moore 3 1): cart-auto against the better of trivial and
  # combining from 1 to 10^5 ints, and the 1-int ratios to mpi-neighbor and ideal.
  for op in alltoall allgather; do
    add "$transport" "$op moore-3-1 1..10^5" 3 26 \
      "--op $op --moore 3 1 --sizes 1,10,100,1000,10000,100000 --reps 30 --impl $impls_target"
  done
  # Node-aware combining, nodes emulated as blocks of 9 consecutive ranks (the planes of the
  # 3 x 3 x 3 grid). On one machine every message costs alike, so this shows what the three hops
  # cost, not what pooling saves between real nodes.
  for op in alltoall allgather; do
    add "$transport" "$op moore-3-1 nodes" 3 26 \
      "--op $op --moore 3 1 --node-size 9 --sizes 1,100,10000 --reps 30 --impl $impls_core,cart-node-combining"
  done
  # Träff and Hunold, section 4: box neighborhoods d = 2..5, n = 3..5, f = -1; m = 1, 10, 100 ints.
  for d in 2 3 4 5; do
    for n in 3 4 5; do
      t=$(pow "$n" "$d")
      ((t > 1100)) && [ "$mode" != full ] && continue   # d=5 n=5 (3125 offsets) only with --full
      for op in alltoall allgather; do
        add "$transport" "$op box-$d-$n--1" "$d" "$t" "--op $op --box $d $n -1 --sizes 1,10,100 --impl $impls_full"
      done
      # Under their size rule (000) a process sends (m + n - 1)^d elements per call: m = 100 is 10^8 ints at d = 4.
      sizes_000=1,10,100
      ((d >= 4)) && sizes_000=1,10
      add "$transport" "alltoallv box-$d-$n--1 (000)" "$d" "$t" \
        "--op alltoallv --box $d $n -1 --size-rule 000 --sizes $sizes_000 --impl $impls_full"
    done
  done
  # Träff et al., sections 4 and 6: Moore d = 2..5, r = 1..3, blocks of 4 B .. 2 KiB.
  for d in 2 3 4 5; do
    for r in 1 2 3; do
      t=$(($(pow $((2 * r + 1)) "$d") - 1))
      ((t > max_t)) && continue
      for op in alltoall allgather; do
        add "$transport" "$op moore-$d-$r" "$d" "$t" "--op $op --moore $d $r --sizes 1,16,128,512 --impl $impls_full"
      done
    done
  done
  # Their asymmetric neighborhoods: positive octants and shales.
  for spec in "octant 3 2:26" "octant 4 2:80" "shales 2 3 7:80" "shales 3 1 3:244" "shales 3 3 7:1396"; do
    t=${spec#*:}
    spec=${spec%:*}
    ((t > max_t)) && continue
    set -- $spec
    d=$2
    for op in alltoall allgather; do
      add "$transport" "$op ${spec// /-}" "$d" "$t" "--op $op --$spec --sizes 1,16,128,512 --impl $impls_full"
    done
  done
  # The MPI Cartesian neighborhood (the 2d unit vectors in MPI's order), where mpi-cart-neighbor applies.
  add "$transport" "alltoall axes-3" 3 6 \
    "--op alltoall --axes 3 --sizes 1,16,128,512 --impl $impls_full,mpi-cart-neighbor"
  # Their Figure 3 (size rule 002): alltoallw with block i of m^(d - |C_i|) elements.
  add "$transport" "alltoallw moore-3-1 (002)" 3 26 \
    "--op alltoallw --moore 3 1 --size-rule 002 --sizes 1,4,16,64 --impl $impls_full"
  add "$transport" "alltoallw moore-4-1 (002)" 4 80 \
    "--op alltoallw --moore 4 1 --size-rule 002 --sizes 1,4,16 --impl $impls_full"
  # Their Table 2: set-up times.
  for d in 2 3 4 5; do
    for r in 1 2 3; do
      t=$(($(pow $((2 * r + 1)) "$d") - 1))
      ((t > max_t)) && continue
      add "$transport" "setup moore-$d-$r" "$d" "$t" "--setup --moore $d $r"
    done
  done
done

if [ "$list_only" = 1 ]; then
  for step in "${steps[@]}"; do
    IFS='|' read -r transport name d t args <<<"$step"
    echo "$transport (p=$(procs_for "$d")): $name: cartcoll-bench $args"
  done
  echo "${#steps[@]} steps"
  exit 0
fi

out=${out:-$repo/bench/results/$(date +%Y-%m-%d)}
mkdir -p "$out/steps"
out=$(cd "$out" && pwd)

# ---------------------------------------------------------------------------------------------- builds
declare -A bench_bin
ucx_yield=""
build_log=$out/build.log
build_bench() {  # <dir> <cmake args...>
  local dir=$1
  shift
  cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCARTCOLL_BUILD_TESTS=OFF "$@" >>"$build_log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" --target cartcoll-bench >>"$build_log" 2>&1
}
build_benches() {  # sets bench_bin and ucx_yield
  install_dependencies
  echo "== building cartcoll-bench (Release) in ${openmpi_build#"$repo"/}$([[ " ${transports[*]} " == *" mpich "* ]] && echo " and build/bench-mpich")"
  : >"$build_log"
  build_bench "$openmpi_build" || { tail -n 30 "$build_log"; exit 1; }
  bench_bin[openmpi]=$openmpi_build/bench/cartcoll-bench
  [[ " ${transports[*]} " == *" mpich "* ]] || return 0
  if build_bench "$repo/build/bench-mpich" "${mpich_args[@]}" &&
     cmake --build "$repo/build/bench-mpich" --target cartcoll_ucx_yield >>"$build_log" 2>&1; then
    bench_bin[mpich]=$repo/build/bench-mpich/bench/cartcoll-bench
    ucx_yield=$(find "$repo/build/bench-mpich/tools/ucx_yield" -name 'libcartcoll_ucx_yield.so' | head -n 1)
  else
    echo "   MPICH build failed (see $build_log); its steps will be skipped"
  fi
}
if [ -n "$prebuilt" ]; then
  bench_bin[openmpi]=$prebuilt/bin/cartcoll-bench-openmpi
  bench_bin[mpich]=$prebuilt/bin/cartcoll-bench-mpich
  ucx_yield=$prebuilt/lib/libcartcoll_ucx_yield.so
else
  build_benches
fi

# Which optional flags does this version of the program know? (Its usage text names them.)
help_text=$(timeout 60 "${bench_bin[openmpi]}" --help 2>&1 </dev/null || true)
knows() { grep -q -- "$1" <<<"$help_text"; }

# ---------------------------------------------------------------------------------------------- run
results=$out/results.csv
setup=$out/setup.csv
skipped=$out/skipped.txt
: >"$skipped"
rm -f "$results" "$setup"
total=${#steps[@]}
width=${#total}
echo "== $total steps ($mode), results in $out"
suite_start=$SECONDS
append_results() {  # <step csv>: results.csv gets the header once
  if [ -s "$results" ]; then tail -n +2 "$1" >>"$results"; else cat "$1" >>"$results"; fi
}
append_setup() {  # <step csv> <transport>: setup.csv gets a leading transport column
  if [ ! -s "$setup" ]; then sed -n '1s/^/transport,/p' "$1" >"$setup"; fi
  tail -n +2 "$1" | sed "s/^/$2,/" >>"$setup"
}
# wait_with_heartbeat <pid>: waits for the step, printing its elapsed time every 20 s; its exit status.
wait_with_heartbeat() {
  local pid=$1 waited=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    waited=$((waited + 1))
    ((waited % 20 == 0)) && printf '%d s ' "$waited"
  done
  wait "$pid"
}
index=0
for step in "${steps[@]}"; do
  index=$((index + 1))
  IFS='|' read -r transport name d t args <<<"$step"
  n=$(procs_for "$d")
  printf '[%*d/%d] %s %s (p=%d) ... ' "$width" "$index" "$total" "$transport" "$name" "$n"
  if [ -n "$budget" ] && ((SECONDS - suite_start >= budget)); then
    echo "not run (time budget of $budget s spent)"
    echo "$transport $name: not run (time budget)" >>"$skipped"
    continue
  fi
  bin=${bench_bin[${binary_of[$transport]}]:-}
  if [ -z "$bin" ]; then
    echo "skipped (no build)"
    echo "$transport $name: no build for this MPI" >>"$skipped"
    continue
  fi
  step_csv=$out/steps/$(printf '%03d' "$index").csv
  step_log=${step_csv%.csv}.log
  read -r -a argv <<<"$args"
  extra=()
  if [[ $args != --setup* ]]; then
    reps=$(reps_for "$t")
    [[ $args == *--reps* ]] && reps=$(sed 's/.*--reps \([0-9]*\).*/\1/' <<<"$args") || extra+=(--reps "$reps")
    knows --warmup && extra+=(--warmup $((reps / 10 > 5 ? reps / 10 : 5)))
    knows --transport && extra+=(--transport "${transport_label[$transport]}")
    knows --pinning && extra+=(--pinning none)
    knows --type && extra+=(--type int)
  fi
  started=$SECONDS
  limit=$step_timeout
  [[ $args == --setup* ]] && ((limit > 300)) && limit=300   # a hang in MPI_Dist_graph_create costs 5 min, not 15
  launcher "$transport" "$n"
  status=1
  for attempt in 1 2; do
    rm -f "$step_csv"
    status=0
    timeout --kill-after=15 "$limit" "${launcher[@]}" "$bin" "${argv[@]}" "${extra[@]}" --csv "$step_csv" \
      >"$step_log" 2>&1 &
    wait_with_heartbeat $! || status=$?
    [ "$status" = 0 ] && [ ! -s "$step_csv" ] && status=1   # ran, but wrote nothing
    [ "$status" = 0 ] && break
    [ "$status" = 124 ] || [ "$status" = 137 ] && break      # a timeout: a second try would time out too
    [[ $args == *--impl* ]] || break
    # Second attempt with the core implementations only (the program may lack some of the others).
    cp "$step_log" "${step_log%.log}.attempt1.log"
    for ((i = 1; i < ${#argv[@]}; ++i)); do [ "${argv[i - 1]}" = --impl ] && argv[i]=$impls_core; done
  done
  if [ "$status" = 0 ]; then
    if [[ $args == --setup* ]]; then append_setup "$step_csv" "$transport"; else append_results "$step_csv"; fi
    note=""
    [ "$attempt" = 2 ] && note=", core implementations only"
    echo "ok ($((SECONDS - started)) s$note)"
    [ "$attempt" = 2 ] && echo "$transport $name: ran with $impls_core only" >>"$skipped"
  else
    why=$(grep -v '^\s*$' "$step_log" | grep -iv 'mpi_abort\|^-----\|errorcode\|NOTE:\|exactly when\|You may or may\|abort' |
          head -n 1 | cut -c1-100 || true)
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then why="timed out after $limit s"; fi
    echo "skipped (exit $status: ${why:-see $step_log})"
    echo "$transport $name: exit $status${why:+ ($why)}" >>"$skipped"
  fi
done
echo "== steps done in $((SECONDS - suite_start)) s; $(wc -l <"$skipped") skipped or reduced (see $skipped)"

# ---------------------------------------------------------------------------------------------- report
machine=$out/machine.md
{
  echo "| | |"
  echo "|---|---|"
  echo "| CPU | $(lscpu | sed -n 's/^Model name:\s*//p' | head -n 1), $(nproc) cores available |"
  echo "| memory | $(free -h | awk '/^Mem:/ {print $2}') |"
  echo "| OS | $(. /etc/os-release && echo "$PRETTY_NAME"), Linux $(uname -r) |"
  echo "| Open MPI | $(ompi_info --version 2>/dev/null | head -n 1) |"
  echo "| MPICH | $(mpichversion 2>/dev/null | sed -n 's/^MPICH Version:\s*//p') ($(mpichversion 2>/dev/null | sed -n 's/^MPICH Device:\s*//p')) |"
  if [ -n "$prebuilt" ]; then
    cat "$prebuilt/build-info.md"
  else
    echo "| compiler | $(g++ --version | head -n 1) |"
    echo "| cartcoll | $(git -C "$repo" rev-parse --short HEAD 2>/dev/null) ($(git -C "$repo" log -1 --format=%cs 2>/dev/null)) |"
  fi
  echo "| suite | \`scripts/bench-suite.sh\` $mode, run $(date '+%Y-%m-%d %H:%M'), $((SECONDS - suite_start)) s |"
  echo "| results | \`${out#"$repo"/}\` (results.csv, setup.csv, PNGs, per-step logs) |"
} >"$machine"
plot_args=(--out "$out" --machine "$machine" --skipped "$skipped" --cores "$(nproc)"
           --title "Benchmark results ($(date +%Y-%m-%d), $mode suite)")
[ "$write_docs" = 1 ] && plot_args+=(--results-md "$out/results.md")
inputs=()
[ -s "$results" ] && inputs+=("$results")
[ -s "$setup" ] && inputs+=("$setup")
if ((${#inputs[@]} == 0)); then
  echo "no results (every step was skipped)"
  exit 1
fi
echo "== figures and tables (bench/plot.py)"
"$python" "$repo/bench/plot.py" "${inputs[@]}" "${plot_args[@]}" >"$out/plot.log" 2>&1 ||
  { tail -n 20 "$out/plot.log"; echo "plot.py failed (see $out/plot.log)"; }
if [ "$print_table" = 1 ] && [ -s "$results" ]; then
  echo
  python3 "$repo/bench/speedup_table.py" "$results"
  echo
  echo "Figures (PNG) and tables: $out"
fi
