#!/usr/bin/env bash
# Installs the dependencies, builds cartcoll with Open MPI, and runs the demonstration: the 9-point
# stencil halo exchange checked against the reference model, and a timing table on a 3-D 27-point
# neighborhood.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_dependencies
build "$repo/build/openmpi" -DCMAKE_BUILD_TYPE=Release -DCARTCOLL_BUILD_TESTS=OFF
bin="$repo/build/openmpi"
echo
for procs in 4 9; do mpirun -n "$procs" "$bin/examples/cartcoll-stencil9"; done
echo
echo "Timing, 27 processes on $(nproc) cores (oversubscribed), Open MPI over TCP loopback:"
mpirun -n 27 --mca btl tcp,self "$bin/bench/cartcoll-bench" --op alltoall --moore 3 1 --sizes 1,10,100 --reps 100 \
  --impl cart-trivial,cart-combining,cart-torus,cart-auto,cart-auto-persistent,mpi-neighbor
