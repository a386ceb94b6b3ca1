#!/bin/bash
# gsim.sh OUTNAME PHASES GRAPHARGS...: one simulated cartcoll-bench graph run as scripts/simulate.sh's graph steps
name=$1 phases=$2; shift 2
d=${SIMDIR:-/tmp/simgraph-p2all}  # an output directory of scripts/simulate.sh (its steps/ and profile)
CARTCOLL_COMBINING_PHASES=$phases CARTCOLL_PROFILE=$d/profile-latency-o0.5us.txt smpirun -np "$NP" -platform $d/steps/latency-only-4096.xml -hostfile $d/steps/hostfile.txt \
  --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:ompi --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
  --cfg=smpi/send-is-detached-thresh:0 --log=root.thresh:warning --cfg=network/model:Constant --cfg=network/latency-factor:1e-6 \
  --cfg=smpi/os:0:5e-07:0 --cfg=smpi/ois:0:5e-07:0 /work/main/build/smpi/bench/cartcoll-bench "$@" --sizes 1 \
  --impl cc-trivial,cc-graph-combining,cc-auto,direct --reps 3 --warmup 1 --transport smpi-latency-o0.5us --pinning simulated \
  --csv /tmp/ct/$name.csv > /tmp/ct/$name.log 2>&1
echo "$name exit $?"
