#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the build into a scratch prefix outside the system's paths and uses it the ways users do,
# with no LD_LIBRARY_PATH anywhere:
#   - every installed program and library finds the libraries it needs (ldd), and an installed tool
#     and an installed example run: their $ORIGIN-relative run paths find the installed library;
#   - a CMake project (find_package, C and C++);
#   - every installed header compiles alone against the installed tree (C headers as C too), so
#     one that includes a header that is not installed fails;
#   - plain compiler commands with pkg-config and no MPI compiler wrapper, with the run path of the
#     library directory as the README gives it: cc x.c $(pkg-config --cflags --libs cartcoll)
#     -Wl,-rpath,$(pkg-config --variable=libdir cartcoll), and the same with c++ -std=c++20;
#   - a project that builds cartcoll from this source tree as part of itself (FetchContent, no network;
#     subproject/), in C and C++.
# Each program runs on 2 processes.
# Arguments: <build dir> <mpiexec> [mpiexec flags...]
set -euo pipefail
build=$1 mpiexec=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cached() { grep -E "^$1:" "$build/CMakeCache.txt" | cut -d= -f2- || true; }
unset LD_LIBRARY_PATH
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(cd "$(dirname "$(find "$prefix" -name 'cartcoll.pc' | head -n 1)")/.." && pwd)
run() {  # <program> [arguments]: on 2 processes
  echo "== $(basename "$1")"
  "$mpiexec" -n 2 "$@"
}

echo "== every installed program and library finds its libraries"
unresolved=0
while IFS= read -r file; do
  [ "$(head -c 4 "$file" | tail -c 3)" = ELF ] || continue
  if ldd "$file" | grep -q 'not found'; then
    echo "$file:"; ldd "$file" | grep 'not found'; unresolved=1
  fi
done < <(find "$prefix" -type f \( -perm -u+x -o -name '*.so*' \))
[ "$unresolved" = 0 ] || exit 1
"$prefix/bin/cartcoll-calibrate" --version
"$prefix/bin/cartcoll-plan" --moore 2 1 | head -n 1
run "$prefix/bin/cartcoll-stencil9"

# The consumer finds the MPI cartcoll was built with, as its users would tell CMake.
mpi_compiler=$(cached MPI_CXX_COMPILER)
cmake -S "$here" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DMPI_CXX_COMPILER="$mpi_compiler" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
run "$scratch/consumer/via_cmake_c"
run "$scratch/consumer/via_cmake_cpp"

export PKG_CONFIG_PATH=$libdir/pkgconfig
static=()
[ -e "$libdir/libcartcoll.so" ] || static=(--static)  # a static libcartcoll needs its private libraries
flags=$(pkg-config "${static[@]}" --cflags --libs cartcoll)
rpath=-Wl,-rpath,$(pkg-config --variable=libdir cartcoll)
echo "== every installed header compiles alone (it includes no header that is not installed)"
for header in "$prefix"/include/cartcoll/*.h "$prefix"/include/cartcoll/*.hpp; do
  name=cartcoll/$(basename "$header")
  echo "#include <$name>" | c++ -std=c++20 -fsyntax-only -x c++ - $(pkg-config --cflags cartcoll) ||
    { echo "$name does not compile alone against the installed headers"; exit 1; }
  case $header in
    *.h) echo "#include <$name>" | cc -fsyntax-only -x c - $(pkg-config --cflags cartcoll) ||
           { echo "$name does not compile alone as C"; exit 1; } ;;
  esac
done
cc -o "$scratch/via_pkg_config_c" "$here/../mpi/test_c_api.c" $flags "$rpath"
c++ -std=c++20 -o "$scratch/via_pkg_config_cpp" "$here/consumer.cpp" $flags "$rpath"
run "$scratch/via_pkg_config_c"
run "$scratch/via_pkg_config_cpp"

# Built from source inside another project: unoptimized (only whether it builds and links matters),
# through the build's compiler launcher (ccache) where it has one; about 40 s on 2 cores without a
# cache, so only in the configuration with the shared library (the one users get by default), not
# again in the static one.
[ -e "$libdir/libcartcoll.so" ] || exit 0
echo "== building cartcoll inside a project (FetchContent from $source_dir)"
subproject=(-DCARTCOLL_SOURCE_DIR="$source_dir" -DMPI_CXX_COMPILER="$mpi_compiler" -DCMAKE_BUILD_TYPE=Debug
            -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_C_FLAGS_DEBUG=-O0)
launcher=$(cached CMAKE_CXX_COMPILER_LAUNCHER)
[ -z "$launcher" ] || subproject+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_C_COMPILER_LAUNCHER="$launcher")
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$here/subproject" -B "$scratch/subproject" "${generator[@]}" "${subproject[@]}" >"$scratch/subproject.log" 2>&1 &&
  cmake --build "$scratch/subproject" -j "$(nproc)" --target via_subproject_c via_subproject_cpp \
    >>"$scratch/subproject.log" 2>&1 ||
  { tail -n 40 "$scratch/subproject.log"; exit 1; }
run "$scratch/subproject/via_subproject_c"
run "$scratch/subproject/via_subproject_cpp"
