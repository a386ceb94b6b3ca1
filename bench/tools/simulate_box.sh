#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# simulate_box.sh OP D N IMPL SIZE PROCS OVERHEAD_US: one simulated cartcoll-bench run of the box
# D N (first coordinate -1, zero offset included: scripts/simulate.sh's box-D-N--1) on its fat tree,
# with scripts/simulate.sh's model flags and build (build/smpi); writes $OUT/<name>.csv and .log and
# appends the simulation's real time to $OUT/summary.txt. BOX_TIMEOUT: seconds before a simulation
# is stopped (default 3000). Two at a time: xargs -P 2 -L 1 bash simulate_box.sh < queue.txt
op=$1 d=$2 n=$3 impl=$4 size=$5 p=$6 o=$7
repo=$(cd "$(dirname "$0")/../.." && pwd)
: "${OUT:?set OUT to the results directory}"
name=$op-box-$d-$n--1-$impl-m$size-p$p-o$o
hosts=$OUT/hostfile.txt
[ -s "$hosts" ] || for i in $(seq 0 1023); do echo "node-$i"; done > "$hosts"
start=$(date +%s)
timeout "${BOX_TIMEOUT:-3000}" smpirun -np "$p" -platform "$repo/bench/simulation/fat-tree-1024.xml" -hostfile "$hosts" \
  --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:ompi --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
  --cfg=smpi/send-is-detached-thresh:0 --log=root.thresh:warning --cfg=smpi/os:0:${o}e-06:0 --cfg=smpi/ois:0:${o}e-06:0 \
  "$repo/build/smpi/bench/cartcoll-bench" --op "$op" --box "$d" "$n" -1 --sizes "$size" --impl "$impl" --reps 3 --warmup 1 \
  --transport "smpi-fattree-o${o}us" --pinning simulated --csv "$OUT/$name.csv" > "$OUT/$name.log" 2>&1
echo "$name: exit $? in $(( $(date +%s) - start )) s" >> "$OUT/summary.txt"
