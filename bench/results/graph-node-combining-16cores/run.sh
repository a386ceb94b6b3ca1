#!/usr/bin/env bash
# Fifth device run (2026-11-26 session 3): node-combining on graphs, emulated nodes, 16 processes.
set -uo pipefail
exec > >(tee "$OUT/device5.log") 2>&1
t0=$SECONDS
command -v ssh >/dev/null || export OMPI_MCA_plm=isolated
export HYDRA_LAUNCHER=fork OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bash .dev/bundle/install-runtime.sh > /tmp/install.log 2>&1 || { tail /tmp/install.log; exit 1; }
nproc; lscpu | grep -E "Model name|^CPU\(s\)"; mpirun.openmpi --version | head -1
mkdir -p /tmp/dev/graph-nodes
export CARTCOLL_COMBINING_THRESHOLD=2
for graph in "0.5 1" "0.8 2"; do
  for transport in tcp shm; do
    btl=(); [ $transport = tcp ] && btl=(--mca btl tcp,self)
    for op in allgather alltoall; do
      for nodes in 4 8; do
        ((SECONDS - t0 > 420)) && break
        echo "== $transport $op er-16-$graph nodes of $nodes ($((SECONDS - t0)) s)"
        timeout 60 mpirun.openmpi -n 16 --bind-to core --mca pml ob1 "${btl[@]}" .dev/bundle/bin/cartcoll-bench-openmpi \
          --op $op --erdos-renyi 16 $graph --node-size $nodes --sizes 1,100,10000 --reps 30 --transport $transport \
          --pinning core --impl cc-trivial,cc-graph-combining,cc-node-combining,mpi-neighbor \
          --csv /tmp/dev/graph-nodes/results.csv 2>&1 | tail -13
      done
    done
  done
done
tar -czf "$OUT/results5.tgz" -C /tmp/dev .
echo "== done ($((SECONDS - t0)) s)"
