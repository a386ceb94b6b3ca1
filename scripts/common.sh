# SPDX-License-Identifier: BSD-3-Clause
# Shared by demo.sh and test.sh: dependencies and builds. Source it; do not run it.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
packages=(cmake ninja-build g++ gfortran pkg-config openmpi-bin libopenmpi-dev mpich libmpich-dev libgtest-dev
          python3-matplotlib clang libclang-rt-14-dev valgrind)

install_dependencies() {
  local missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if ((${#missing[@]})); then
    echo "== installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

# build <dir> [cmake args...]: configure (once) and build with Ninja; the log is shown on failure.
build() {
  local dir=$1
  shift
  mkdir -p "$dir"
  if ! { cmake -S "$repo" -B "$dir" -G Ninja "$@" && cmake --build "$dir" -j "$(nproc)"; } >"$dir/build.log" 2>&1; then
    tail -n 60 "$dir/build.log"
    echo "build failed in $dir (full log: $dir/build.log)"
    return 1
  fi
}

mpich_args=(-DMPI_CXX_COMPILER=mpicxx.mpich -DMPI_Fortran_COMPILER=mpif90.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich)
# Open MPI as root, with more ranks than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
