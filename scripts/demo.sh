#!/usr/bin/env bash
# Installs the dependencies, builds cartcoll with Open MPI, and runs the demonstration: the 9-point
# stencil halo exchange checked against the reference model, the benchmark suite's short version
# (scripts/bench-suite.sh --quick), which ends with the table of issue 4's targets, and PETSc's
# tutorials through libcartcoll_mpi (scripts/clients.sh --quick: outputs, times, the layer's report).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_dependencies
build "$repo/build/openmpi" -DCMAKE_BUILD_TYPE=Release -DCARTCOLL_BUILD_TESTS=OFF
bin="$repo/build/openmpi"
echo
for procs in 4 9; do mpirun -n "$procs" "$bin/examples/cartcoll-stencil9"; done
echo
echo "The benchmark suite's short version (27 processes on $(nproc) cores, oversubscribed):"
bash "$repo/scripts/bench-suite.sh" --quick --out "$repo/build/demo-bench"
echo
echo "A real, unmodified client (PETSc's tutorials, -sf_type neighbor) without and with libcartcoll_mpi:"
bash "$repo/scripts/clients.sh" --quick
