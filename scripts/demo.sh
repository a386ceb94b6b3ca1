#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The demonstration, in plain text: installs the dependencies, builds cartcoll with Open MPI, runs the
# 9-point stencil halo exchange checked against the reference model, the benchmark suite's short
# version (scripts/bench-suite.sh --quick: cartcoll against MPI_Neighbor_* at 27 processes, Open MPI
# over TCP loopback and shared memory), and PETSc's tutorials and DOLFINx's checked ghost updates
# through libcartcoll_mpi, with the default algorithm and with graph-combining and graph-routing
# forced (scripts/clients.sh --quick). Ends with what ran, one table of the measured
# speed-up over MPI_Neighbor_* per transport and block size, and where the figures are. Every step
# says what it is doing at least every 30 s. Takes about a quarter of an hour on 2 cores.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
build_dir=$repo/build/openmpi
bench_out=$repo/build/demo-bench
ran=()

# narrate <what> <command...>: runs the command with its output shown, and says "still <what>" after
# 25 s without output (with the build's progress where the command is a build).
narrate() {
  local what=$1 log size=0 quiet=0 started=$SECONDS
  shift
  echo "== $what"
  log=$(mktemp)
  "$@" > >(tee -a "$log") 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    local now
    now=$(stat -c %s "$log")
    if [ "$now" != "$size" ]; then size=$now quiet=0; else quiet=$((quiet + 1)); fi
    if ((quiet >= 25)); then
      local progress
      progress=$(grep -ao '\[[0-9]*/[0-9]*\]' "$build_dir/build.log" 2>/dev/null | tail -n 1 || true)
      [[ $what == building* ]] || progress=""
      progress=${progress#[}
      echo "   ... still $what ($((SECONDS - started)) s${progress:+, build step ${progress%]}})"
      quiet=0
    fi
  done
  local status=0
  wait "$pid" || status=$?
  rm -f "$log"
  return "$status"
}

narrate "checking the packages (apt-get installs what is missing)" install_dependencies
narrate "building cartcoll with Open MPI (Release) in ${build_dir#"$repo"/}" \
  build "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCARTCOLL_BUILD_TESTS=OFF
ran+=("built cartcoll (Release, Open MPI) in ${build_dir#"$repo"/}")

echo "== the 9-point stencil halo exchange (Cart_alltoallw), checked against the reference model"
for procs in 4 9; do mpirun -n "$procs" "$build_dir/examples/cartcoll-stencil9"; done
ran+=("the 9-point stencil on 4 and 9 processes, checked against the reference model")

echo "== the benchmark suite's short version: 27 processes on $(nproc) cores (oversubscribed)"
bash "$repo/scripts/bench-suite.sh" --quick --out "$bench_out" --build-dir "$build_dir" --no-table
ran+=("cartcoll-bench against MPI_Neighbor_* at 27 processes (Moore 3-D radius 1, the 3x3x3 box, a random graph of out-degree 6), results in ${bench_out#"$repo"/}")

if narrate "real, unmodified clients: PETSc's tutorials (-sf_type neighbor) and DOLFINx's ghost updates without and with libcartcoll_mpi" \
  bash "$repo/scripts/clients.sh" --quick; then
  ran+=("PETSc's tutorials and DOLFINx's ghost updates without and with libcartcoll_mpi preloaded, DOLFINx's also with graph-combining and graph-routing forced (outputs compared, combined v calls checked above)")
else
  ran+=("PETSc's tutorials and DOLFINx's ghost updates: the step failed (see its output above)")
fi

echo
echo "What ran:"
for step in "${ran[@]}"; do echo "  - $step"; done
echo
python3 "$repo/bench/speedup_table.py" "$bench_out/results.csv"
echo
echo "Figures (one PNG per collective, transport and MPI) and the full tables: ${bench_out#"$repo"/}/"
echo "Per-step logs: ${bench_out#"$repo"/}/steps/; how to read them: docs/benchmarking.md"
