#!/bin/bash
# graph-routing on the fat tree (bench/simulation/fat-tree-1024.xml, SMPI's network model) at 1024
# simulated processes, Erdős–Rényi δ = 0.05, allgather, 1 and 100 ints, 0.5 µs a message: the
# blocks of 100 ints that SMPI 3.32's Constant network model deadlocks on (docs/simulation.md).
# From the repository root, after scripts/simulate.sh has built build/smpi: bash THIS_FILE OUTDIR
out=${1:-.}
for ((i = 0; i < 1024; ++i)); do echo "node-$i"; done >"$out/hosts.txt"
echo "1e-06 5e-07 0" >"$out/profile.txt"
for impl in direct cc-graph-routing; do
  CARTCOLL_PROFILE=$out/profile.txt smpirun -np 1024 -platform bench/simulation/fat-tree-1024.xml -hostfile "$out/hosts.txt" \
    --cfg=smpi/simulate-computation:no --cfg=smpi/coll-selector:ompi --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1 \
    --cfg=smpi/send-is-detached-thresh:0 --log=root.thresh:warning --cfg=smpi/os:0:5e-07:0 --cfg=smpi/ois:0:5e-07:0 \
    build/smpi/bench/cartcoll-bench --op allgather --erdos-renyi 1024 0.05 1 --sizes 1,100 --impl $impl --reps 3 --warmup 1 \
    --transport smpi-fattree-o0.5us --pinning simulated --csv "$out/$impl.csv" >"$out/$impl.log" 2>&1
done
