#!/usr/bin/env bash
# Installs the build into a scratch prefix, then builds programs against the installed tree the ways
# users do: a CMake project (find_package, C and C++), and plain compiler commands with pkg-config
# and no MPI compiler wrapper (`cc x.c $(pkg-config --cflags --libs cartcoll)`, and the same with
# c++ -std=c++20), and runs each on 2 processes.
# Arguments: <build dir> <mpiexec> [mpiexec flags...]
set -euo pipefail
build=$1 mpiexec=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name 'cartcoll.pc' | head -n 1)")/..
# The consumer finds the MPI cartcoll was built with, as its users would tell CMake.
cmake -S "$here" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
  -DMPI_CXX_COMPILER="$(grep -E '^MPI_CXX_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
export PKG_CONFIG_PATH=$libdir/pkgconfig
static=()
[ -e "$libdir/libcartcoll.so" ] || static=(--static)  # a static libcartcoll needs its private libraries
flags=$(pkg-config "${static[@]}" --cflags --libs cartcoll)
cc -o "$scratch/via_pkg_config_c" "$here/../mpi/test_c_api.c" $flags
c++ -std=c++20 -o "$scratch/via_pkg_config_cpp" "$here/consumer.cpp" $flags
export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for program in "$scratch/consumer/via_cmake_c" "$scratch/consumer/via_cmake_cpp" "$scratch/via_pkg_config_c" \
               "$scratch/via_pkg_config_cpp"; do
  echo "== $(basename "$program")"
  "$mpiexec" -n 2 "$@" "$program"
done
