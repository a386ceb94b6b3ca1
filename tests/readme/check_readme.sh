#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks every fenced code block of README.md against an installed build, as a reader would use
# them: ```c and ```cpp blocks are compiled with pkg-config and run at 2 and 4 processes (a block
# without a main() is a fragment: it becomes the body of a main() between MPI_Init and
# MPI_Finalize, its #include lines go on top); the ```cmake block builds the README's C program
# as a CMake project; the ```sh block that uses pkg-config runs as written (mpirun being this
# build's launcher); every other ```sh block is syntax-checked only.
# Arguments: <README.md> <build dir> <mpiexec> [mpiexec flags...]
set -euo pipefail
readme=$1 build=$2 mpiexec=$3
shift 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(cd "$(dirname "$(find "$prefix" -name cartcoll.pc | head -n 1)")/.." && pwd)
export PKG_CONFIG_PATH=$libdir/pkgconfig
static=()
[ -e "$libdir/libcartcoll.so" ] || static=(--static)  # a static libcartcoll needs its private libraries
flags=$(pkg-config "${static[@]}" --cflags --libs cartcoll)

# One file per block: block-NN.<language>.
awk -v dir="$scratch" '
  /^```/ {
    if (inside) { inside = 0; close(file); next }
    inside = 1; n++; language = substr($0, 4); gsub(/[ \t]/, "", language)
    if (language == "") language = "text"
    file = sprintf("%s/block-%02d.%s", dir, n, language); printf "" > file; next
  }
  inside { print > file }
' "$readme"

# A fragment as a program: its #include lines, then its other lines inside main().
as_program() {
  local block=$1
  if grep -q 'main(' "$block"; then cat "$block"; return; fi
  printf '#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\n'
  grep '^#include' "$block" || true
  printf 'int main(int argc, char** argv) {\n  MPI_Init(&argc, &argv);\n  {\n'
  grep -v '^#include' "$block"
  printf '  }\n  MPI_Finalize();\n  return 0;\n}\n'
}

run() {  # <program> [mpiexec flags...]: on 2 and 4 processes, each under a time limit
  local program=$1
  shift
  for procs in 2 4; do
    echo "== $(basename "$program") on $procs processes"
    timeout 120 "$mpiexec" -n "$procs" "$@" "$program"
  done
}

first_c=
checked=0
for block in "$scratch"/block-*; do
  name=$(basename "$block")
  case $block in
    *.c)
      as_program "$block" >"$scratch/$name.src.c"
      cc -Wall -o "$scratch/$name.exe" "$scratch/$name.src.c" $flags -Wl,-rpath,"$libdir"
      run "$scratch/$name.exe" "$@"
      [ -n "$first_c" ] || first_c=$scratch/$name.src.c ;;
    *.cpp)
      as_program "$block" >"$scratch/$name.src.cpp"
      c++ -std=c++20 -Wall -o "$scratch/$name.exe" "$scratch/$name.src.cpp" $flags -Wl,-rpath,"$libdir"
      run "$scratch/$name.exe" "$@" ;;
    *.cmake) ;;  # below, once the C program is known
    *.sh) bash -n "$block" ;;
    *) echo "README.md: $name: a code block in no language this check knows" >&2; exit 1 ;;
  esac
  checked=$((checked + 1))
done
[ -n "$first_c" ] || { echo "README.md has no C block" >&2; exit 1; }

for block in "$scratch"/block-*.cmake; do
  echo "== $(basename "$block"): a CMake project around the README's C program"
  project=$scratch/$(basename "$block").project
  mkdir -p "$project"
  cp "$block" "$project/CMakeLists.txt"
  cp "$first_c" "$project/app.c"
  cmake -S "$project" -B "$project/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DMPI_CXX_COMPILER="$(grep -E '^MPI_CXX_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)" >/dev/null
  cmake --build "$project/build" >/dev/null
  # No LD_LIBRARY_PATH: the program must find libcartcoll by the run path CMake gave it.
  timeout 120 "$mpiexec" -n 2 "$@" "$project/build/app"
done

for block in $(grep -l 'pkg-config' "$scratch"/block-*.sh); do
  echo "== $(basename "$block"): run as written"
  workdir=$scratch/$(basename "$block").run
  mkdir -p "$workdir"
  cp "$first_c" "$workdir/app.c"
  launcher=("$mpiexec" "$@")
  # mpirun is this build's launcher; with a static libcartcoll, pkg-config gets --static, as the
  # README says it must.
  (cd "$workdir" && prefix=$prefix && mpirun() { timeout 120 "${launcher[@]}" "$@"; } &&
    pkg-config() { command pkg-config "${static[@]}" "$@"; } && source "$block")
  [ -x "$workdir/app" ] || { echo "$(basename "$block") built no ./app" >&2; exit 1; }
done
echo "README.md: $checked code blocks checked"
