#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs cartcoll-bench under SimGrid's SMPI on a simulated cluster (bench/simulation/fat-tree-1024.xml:
# 100 Gb/s links, 0.25 us per link, full-bisection two-level fat tree of 1024 single-process nodes;
# the graph steps on a latency-only machine of 4096 nodes it writes, 1 us a message) at 64, 512 and 1024 simulated
# processes, with and without a per-message send overhead, and writes
# results.csv, the tables and figures (bench/simulation/report.py) under bench/results/simulation-<date>;
# docs/simulation.md only with --docs. See docs/simulation.md for the model and its traps.
#
#   bash scripts/simulate.sh [--procs LIST] [--overheads LIST] [--out DIR] [--budget S] [--only RE]
#                            [--list] [--docs] [--mesh] [--halo] [--halo-impls LIST] [--halo-sizes LIST]
#                            [--halo-width W]
#
#   --procs LIST      comma-separated simulated process counts (default 64,512,1024; 4096 would need a
#                     bigger platform and hours: SimGrid 3.32's run time grows 3-5x per doubling)
#   --overheads LIST  per-message send overheads in microseconds (default 0.5,0)
#   --out DIR         results directory (default bench/results/simulation-<date>)
#   --budget S        start no step after S seconds of simulation (the rest are listed as not run)
#   --only RE         run only the steps whose name matches the extended regular expression RE
#   --sizes LIST      block sizes of every step instead of the grid's (e.g. 1 for a quick look)
#   --graph-impls LIST  the graph steps' implementations (default cc-trivial,cc-graph-combining,
#                     cc-graph-routing,cc-auto,direct; cc-graph-combining, and cc-auto where its model
#                     lets it, run graph-combining's set-up, the slow part under SMPI)
#   --list            print the steps and exit
#   --docs            also rewrite docs/simulation.md's generated part from this run
#   --mesh            add the mesh steps (not in the default run): at each process count P, cartcoll-bench
#                     --mesh-partition P 3 N 1, the halo graph of N^3 cells cut into P parts by recursive
#                     coordinate bisection, N = 24 P^(1/3) (about 24^3 cells a part) and N = 8 P^(1/3)
#                     (8^3), alltoallv with blocks of the shared cells x m doubles (m = 1, 100: halos of
#                     1 to 100 values a cell) and alltoall of m ints (24^3), on the fat tree (blocks of
#                     kilobytes: bandwidth counts), with the graph implementations; `--list --mesh`
#                     lists them
#   --halo            add the halo steps (not in the default run): at each process count P, cartcoll-bench
#                     --halo 3 W N: the 27-point stencil's halo (faces, edges and corners, W cells wide, of an
#                     N^3 block of doubles: send blocks that overlap) as one persistent alltoallw on the
#                     periodic MPI_Dims_create grid (8x8x8 at 512), on the fat tree, N from --halo-sizes
#   --halo-impls LIST  the halo steps' implementations, run one simulation each (default
#                     cart-trivial-persistent,cart-combining-persistent,cart-overlap-combining-persistent,
#                     cart-auto-persistent,direct)
#   --halo-sizes LIST  the halo steps' block edges N (default 8,32)
#   --halo-width W    the halo steps' width (default 1)
# Each step is one cartcoll-bench run (one operation, neighborhood and process count, two or three
# block sizes, the implementations cart-trivial, cart-combining, cart-torus, cart-auto, or on graphs
# cc-trivial, cc-graph-combining, cc-graph-routing, cc-auto, and the baseline direct); the simulation
# is deterministic, so 3 repetitions after 1 warm-up suffice.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

procs_list=64,512,1024
overheads=0.5,0
out=""
budget=""
only=""
sizes=""
list_only=0
write_docs=0
mesh=0
halo=0
halo_impls=cart-trivial-persistent,cart-combining-persistent,cart-overlap-combining-persistent,cart-auto-persistent,direct
halo_sizes=8,32
halo_width=1
graph_impls=cc-trivial,cc-graph-combining,cc-graph-routing,cc-auto,direct
while (($#)); do
  case $1 in
    --procs) procs_list=$2; shift ;;
    --overheads) overheads=$2; shift ;;
    --out) out=$2; shift ;;
    --budget) budget=$2; shift ;;
    --only) only=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --graph-impls) graph_impls=$2; shift ;;
    --list) list_only=1 ;;
    --docs) write_docs=1 ;;
    --mesh) mesh=1 ;;
    --halo) halo=1 ;;
    --halo-impls) halo_impls=$2; shift ;;
    --halo-sizes) halo_sizes=$2; shift ;;
    --halo-width) halo_width=$2; shift ;;
    -h|--help) sed -n '2,42p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "simulate.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done
IFS=, read -r -a procs_counts <<<"$procs_list"
IFS=, read -r -a overhead_values <<<"$overheads"
fat_tree=$repo/bench/simulation/fat-tree-1024.xml
cart_impls=cart-trivial,cart-combining,cart-torus,cart-auto,direct

# ---------------------------------------------------------------------------------------------- the grid
# A step: "procs|name|args". 000's experiments (section 4): box neighborhoods d = 2..5, n = 3 (and n = 4, 5
# at d = 2, 3), first coordinate -1, m = 1, 10, 100 ints, alltoall, allgather, and alltoallv under 000's
# size rule; 002's Moore 3 1. The simulator's cost grows with processes x messages per call, so the big
# neighborhoods run at 64 processes only, and 512 and 1024 get the 3-D cases (the papers' 27-point
# stencil) and the 2-D and 4-D n = 3 boxes.
steps=()
add() {  # add PROCS NAME ARGS [graph|mesh]
  [ -n "$only" ] && ! [[ "$2" =~ $only ]] && return
  steps+=("$1|$2|$3|${4:-cart}")
}
for p in "${procs_counts[@]}"; do
  # Mirsadeghi et al.'s random graphs: Erdős–Rényi with density 0.05 (mean degree 0.05 p), and, where
  # the simulator is fast enough, 0.4 (mean degree 51 at 128 processes, the degree of 0.05 at 1024).
  add "$p" "allgather er-0.05" "--op allgather --erdos-renyi $p 0.05 1 --sizes 1,100" graph
  if ((p <= 128)); then
    add "$p" "allgather er-0.4" "--op allgather --erdos-renyi $p 0.4 1 --sizes 1,100" graph
    add "$p" "alltoall er-0.4" "--op alltoall --erdos-renyi $p 0.4 1 --sizes 1,100" graph
  fi
  if ((mesh)); then
    n=$(awk -v p="$p" 'BEGIN { printf "%d", 24 * p ^ (1 / 3) + 0.5 }')
    add "$p" "alltoallv mesh-3-$n" "--op alltoallv --type double --mesh-partition $p 3 $n 1 --sizes 1,100" mesh
    # Strong scaling's end: about 8^3 cells a part, halos of tens of cells a face (latency-bound).
    n=$(awk -v p="$p" 'BEGIN { printf "%d", 8 * p ^ (1 / 3) + 0.5 }')
    add "$p" "alltoallv mesh-3-$n" "--op alltoallv --type double --mesh-partition $p 3 $n 1 --sizes 1,100" mesh
    n=$(awk -v p="$p" 'BEGIN { printf "%d", 24 * p ^ (1 / 3) + 0.5 }')
    add "$p" "alltoall mesh-3-$n" "--op alltoall --mesh-partition $p 3 $n 1 --sizes 1,100" mesh
  fi
  # The halo: sizes by N (not --sizes), so that --sizes leaves it alone.
  ((halo)) && add "$p" "alltoallw halo-3-$halo_width" "--halo 3 $halo_width $halo_sizes" halo
  for op in alltoall allgather; do
    add "$p" "$op moore-3-1" "--op $op --moore 3 1 --sizes 1,10,100"
    add "$p" "$op box-3-3--1" "--op $op --box 3 3 -1 --sizes 1,10,100"
    add "$p" "$op box-2-3--1" "--op $op --box 2 3 -1 --sizes 1,10,100"
  done
  add "$p" "alltoallv box-3-3--1 (000)" "--op alltoallv --box 3 3 -1 --size-rule 000 --sizes 1,10"
  ((p > 512)) && continue
  add "$p" "alltoall box-4-3--1" "--op alltoall --box 4 3 -1 --sizes 1,10,100"
  ((p > 64)) && continue
  for spec in "2 4" "2 5" "3 4" "3 5" "5 3"; do
    add "$p" "alltoall box-${spec// /-}--1" "--op alltoall --box $spec -1 --sizes 1,10,100"
  done
  add "$p" "allgather box-4-3--1" "--op allgather --box 4 3 -1 --sizes 1,10,100"
  add "$p" "allgather box-5-3--1" "--op allgather --box 5 3 -1 --sizes 1,10,100"
  add "$p" "alltoallv box-4-3--1 (000)" "--op alltoallv --box 4 3 -1 --size-rule 000 --sizes 1,10"
done

impls_of() {  # impls_of KIND
  case $1 in
    graph|mesh) echo "$graph_impls" ;;
    halo) echo "$halo_impls" ;;
    *) echo "$cart_impls" ;;
  esac
}

if [ "$list_only" = 1 ]; then
  for overhead in "${overhead_values[@]}"; do
    for step in "${steps[@]}"; do
      IFS='|' read -r p name args kind <<<"$step"
      impls=$(impls_of "$kind")
      echo "o=$overhead us, p=$p: $name: cartcoll-bench $args --impl $impls"
    done
  done
  echo "$((${#steps[@]} * ${#overhead_values[@]})) steps"
  exit 0
fi

# ---------------------------------------------------------------------------------------------- set-up
# SimGrid only where the simulation runs: the main suite does not depend on it.
packages=(cmake ninja-build g++ libsimgrid-dev python3-matplotlib)  # libsimgrid-dev has smpicxx and smpirun
install_dependencies
out=${out:-$repo/bench/results/simulation-$(date +%Y-%m-%d)}
mkdir -p "$out/steps"
out=$(cd "$out" && pwd)
build_dir=$repo/build/smpi
echo "== building cartcoll-bench with smpicxx under ${build_dir#"$repo"/}"
# The library static (SMPI privatizes each simulated process's globals by loading a copy of the
# program, which a shared libcartcoll would escape); no tests or tools (they need MPI_Neighbor_*).
if ! { cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=smpicxx \
         -DCMAKE_C_COMPILER=smpicc -DBUILD_SHARED_LIBS=OFF -DCARTCOLL_BUILD_TESTS=OFF -DCARTCOLL_BUILD_TOOLS=OFF &&
       cmake --build "$build_dir" -j "${SIMULATE_JOBS:-2}" --target cartcoll-bench; } >"$out/build.log" 2>&1; then
  tail -n 40 "$out/build.log"
  echo "build failed (see $out/build.log)"
  exit 1
fi
bench=$build_dir/bench/cartcoll-bench
# One hostfile per machine, naming exactly its hosts: SMPI 3.32 looks up every line of the hostfile,
# not only the first -np, and aborts on a host the platform lacks ("Host not found: 'node-1024'").
# steps/ is not committed (.gitignore): these files are rewritten each run.
fat_tree_hosts=$out/steps/hostfile-1024.txt latency_only_hosts=$out/steps/hostfile-4096.txt
for ((i = 0; i < 4096; ++i)); do echo "node-$i"; done >"$latency_only_hosts"
head -n 1024 "$latency_only_hosts" >"$fat_tree_hosts"
# The graph steps' machine: 4096 hosts and no links, as SimGrid's Constant network model requires (a
# <cluster> makes links), written here rather than kept as 4096 lines of XML.
latency_only=$out/steps/latency-only-4096.xml
{
  echo '<?xml version="1.0"?>'
  echo '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">'
  echo '<platform version="4.1"><zone id="latency-only" routing="None">'
  for ((i = 0; i < 4096; ++i)); do echo "  <host id=\"node-$i\" speed=\"100Gf\"/>"; done
  echo '</zone></platform>'
} >"$latency_only"

# The model (docs/simulation.md): network time from the platform as written (no SMPI correction
# factors), no CPU time (the library's own instructions are free: only messages cost), a tree barrier
# (the ompi selector; SMPI's default barrier is linear), no eager buffering (detached sends make the
# simulator quadratic in the messages in flight, and are where SMPI 3.32 would charge smpi/or), and the
# per-message overhead charged to the sender of every message (smpi/os for blocking and persistent,
# smpi/ois for nonblocking sends).
model=(--cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:ompi --cfg=smpi/lat-factor:0:1
       --cfg=smpi/bw-factor:0:1 --cfg=smpi/send-is-detached-thresh:0 --log=root.thresh:warning)
# The graph steps run on the latency-only machine: SimGrid's Constant network model, 1 us a message
# (the fat tree's latency across its spine), no links. The fat tree's bandwidth sharing made their
# set-up's many small exchanges spend minutes in SimGrid's max-min solver, and for blocks of up to
# 400 bytes on a full-bisection network it changes nothing (docs/simulation.md compares the two).
latency_model=(--cfg=network/model:Constant --cfg=network/latency-factor:1e-6)
# SMPI charges each failed MPI_Iprobe or MPI_Test smpi/iprobe or smpi/test of simulated time (so that
# a polling loop lets the clock advance), 100 us by default and growing with every failure. The
# library's executions block in MPI_Waitsome and poll nowhere; should a mesh step's process poll, it
# pays 10 ns a try, not growing, as on a network.
polling_model=(--cfg=smpi/iprobe:1e-8 --cfg=smpi/test:1e-8 --cfg=smpi/grow-injected-times:no)
# `auto` on a graph measures its block limit at the first blocking call unless a profile is given
# (docs/graph-combining.md): the graph steps give it the simulated machine's own figures as a
# CARTCOLL_PROFILE (what cartcoll-calibrate would write for it: 1 us a phase, the overhead per
# message, nothing per byte), so that it decides by the model, as the runs in docs/simulation.md did.

# ---------------------------------------------------------------------------------------------- run
results=$out/results.csv
skipped=$out/skipped.txt
rm -f "$results"
: >"$skipped"
total=$((${#steps[@]} * ${#overhead_values[@]}))
index=0
start=$SECONDS
for step in "${steps[@]}"; do
  IFS='|' read -r p name args kind <<<"$step"
  impls=$(impls_of "$kind") platform=$fat_tree hostfile=$fat_tree_hosts network=fattree network_model=()
  if [ "$kind" = graph ]; then
    platform=$latency_only hostfile=$latency_only_hosts network=latency
    network_model=("${latency_model[@]}")
  fi
  [ "$kind" = mesh ] && network_model=("${polling_model[@]}")
  for overhead in "${overhead_values[@]}"; do
    index=$((index + 1))
    label="smpi-$network-o${overhead}us"
    seconds=$(awk -v o="$overhead" 'BEGIN { printf "%g", o * 1e-6 }')
    profile=""
    if [ "$kind" != cart ]; then
      # On the fat tree a byte costs 0.08 ns (100 Gb/s).
      per_byte=0
      [ "$network" = fattree ] && per_byte=8e-11
      profile=$out/profile-$network-o${overhead}us.txt
      echo "1e-06 $seconds $per_byte" >"$profile"
    fi
    printf '[%d/%d] p=%d o=%s us %s ... ' "$index" "$total" "$p" "$overhead" "$name"
    if [ -n "$budget" ] && ((SECONDS - start >= budget)); then
      echo "not run (budget)"
      echo "p=$p o=$overhead $name: not run (time budget of $budget s spent)" >>"$skipped"
      continue
    fi
    step=$out/steps/$(printf '%03d' "$index")
    began=$SECONDS
    [ -n "$sizes" ] && args=$(sed "s/--sizes [0-9,]*/--sizes $sizes/" <<<"$args")
    read -r -a argv <<<"$args"
    # A graph step runs each implementation in a simulation of its own: SMPI 3.32 deadlocks where
    # four or more graph communicators run side by side at 64 processes and δ = 0.4 (Open MPI runs the
    # same program cleanly, under ASan too; docs/simulation.md). The simulation is deterministic, so
    # the figures are those of one run.
    runs=("$impls")
    [ "$kind" != cart ] && IFS=, read -r -a runs <<<"$impls"
    ok=1
    for run_impls in "${runs[@]}"; do
      run_csv=$step-${run_impls//,/+}.csv
      [ "${#runs[@]}" = 1 ] && run_csv=$step.csv
      # (set -e would end the whole run at the first simulation that fails: its status is kept instead)
      status=0
      CARTCOLL_PROFILE=$profile smpirun -np "$p" -platform "$platform" -hostfile "$hostfile" "${model[@]}" \
        "${network_model[@]}" "--cfg=smpi/os:0:$seconds:0" "--cfg=smpi/ois:0:$seconds:0" \
        "$bench" "${argv[@]}" --impl "$run_impls" --reps 3 --warmup 1 --transport "$label" --pinning simulated \
        --csv "$run_csv" >"${run_csv%.csv}.log" 2>&1 || status=$?
      # The rows of the sizes a failed run finished are kept (the bench writes each as it goes).
      if [ -s "$run_csv" ]; then
        if [ -s "$results" ]; then tail -n +2 "$run_csv" >>"$results"; else cat "$run_csv" >"$results"; fi
      fi
      if ((status != 0)) || ! [ -s "$run_csv" ]; then
        ok=0
        echo "p=$p o=$overhead $name ($run_impls): failed after $(($(wc -l <"$run_csv" 2>/dev/null || echo 1) - 1)) rows (see ${run_csv%.csv}.log)" >>"$skipped"
      fi
    done
    if [ "$ok" = 1 ]; then echo "ok ($((SECONDS - began)) s)"; else echo "failed (see $skipped)"; fi
  done
done
elapsed=$((SECONDS - start))
echo "== simulated in $elapsed s"
[ -s "$results" ] || { echo "no results"; exit 1; }
report_args=(--out "$out" --elapsed "$elapsed" --skipped "$skipped")
[ "$write_docs" = 1 ] && report_args+=(--docs "$repo/docs/simulation.md")
/usr/bin/python3 "$repo/bench/simulation/report.py" "$results" "${report_args[@]}"
