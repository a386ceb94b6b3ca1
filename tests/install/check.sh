#!/usr/bin/env bash
# Installs the build into a scratch prefix, builds tests/install against it both ways, runs both.
# Arguments: <build dir> <MPI C++ compiler> <mpiexec> [mpiexec flags...]
set -euo pipefail
build=$1 mpicxx=$2 mpiexec=$3
shift 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig" cmake -S "$(dirname "$0")" -B "$scratch/consumer" \
  -DCMAKE_PREFIX_PATH="$scratch/prefix" -DMPI_CXX_COMPILER="$mpicxx" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
"$mpiexec" -n 2 "$@" "$scratch/consumer/via_cmake"
"$mpiexec" -n 2 "$@" "$scratch/consumer/via_pkg_config"
