#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Packs the benchmark program (built here, for Open MPI and for MPICH) and the Debian MPI run-time it
# needs into one directory, so that the benchmark suite runs on another x86-64 Linux machine that has
# no compiler, no package manager or no network (a borrowed many-core node, a cluster's compute node):
#
#   bash scripts/bundle.sh DIR          # here: builds (Release, static libcartcoll) and fills DIR
#   bash DIR/install-runtime.sh         # there, as root: adds the MPI files that are missing
#   bash scripts/bench-suite.sh --prebuilt DIR ...   # there, from a copy of this repository
#
# install-runtime.sh only adds files (tar --skip-old-files): it never replaces one the machine has.
# The MPI files are those of Debian's openmpi-bin and mpich packages and of the libraries they load
# (their plug-ins too), found with ldd and dpkg; the C library is the target machine's own.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
dir=${1:?usage: bundle.sh DIR}
mkdir -p "$dir/bin" "$dir/lib"
dir=$(cd "$dir" && pwd)
install_dependencies

bundle_build() {  # <build dir> <cmake args...>
  local build=$1
  shift
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCARTCOLL_BUILD_TESTS=OFF \
    -DBUILD_SHARED_LIBS=OFF "$@" >"$dir/build.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target cartcoll-bench >>"$dir/build.log" 2>&1 ||
    { tail -n 30 "$dir/build.log"; exit 1; }
}
bundle_build "$repo/build/bundle-openmpi"
bundle_build "$repo/build/bundle-mpich" "${mpich_args[@]}"
cmake --build "$repo/build/bundle-mpich" --target cartcoll_ucx_yield >>"$dir/build.log" 2>&1
cp "$repo/build/bundle-openmpi/bench/cartcoll-bench" "$dir/bin/cartcoll-bench-openmpi"
cp "$repo/build/bundle-mpich/bench/cartcoll-bench" "$dir/bin/cartcoll-bench-mpich"
find "$repo/build/bundle-mpich/tools/ucx_yield" -name 'libcartcoll_ucx_yield.so' -exec cp {} "$dir/lib/" \;

# The MPI run-time: every file of the packages that own the launchers, the MPI libraries, their
# plug-ins and what those link, except documentation and the C library.
mpi_files=(/usr/bin/orterun /usr/bin/orted /usr/bin/mpiexec.hydra /usr/bin/hydra_pmi_proxy
           /usr/lib/x86_64-linux-gnu/libmpich.so.12)
mapfile -t -O ${#mpi_files[@]} mpi_files < <(find /usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 \
  /usr/lib/x86_64-linux-gnu/ucx -name '*.so*')
owner() {  # <file>: its package, under any of its names (Debian 12 merged /lib into /usr/lib)
  local real
  real=$(readlink -f "$1")
  for name in "$1" "$real" "${real#/usr}"; do dpkg -S "$name" 2>/dev/null | cut -d: -f1 && return; done
  return 0
}
mapfile -t packages < <({
  for f in "${mpi_files[@]}"; do
    owner "$f"
    ldd "$f" 2>/dev/null | awk '/=> \// {print $3}' | while read -r lib; do owner "$lib"; done
  done
  echo openmpi-common   # help texts and the system-wide MCA parameters
} | sort -u | grep -v -x -e libc6 -e libgcc-s1)
dpkg -L "${packages[@]}" | grep -v -E '^/usr/share/(doc|man|lintian)/' |
  while read -r f; do [ -f "$f" ] && echo "${f#/}"; done | sort -u >"$dir/runtime-files.txt"
tar -C / -czf "$dir/mpi-runtime.tgz" -T "$dir/runtime-files.txt"
cat >"$dir/install-runtime.sh" <<'EOF'
#!/usr/bin/env bash
# Adds the bundled MPI files this machine lacks (it never replaces one), then prints the versions of
# the MPIs that will run (a machine's own MPI stays the one that runs).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tar -C / --skip-old-files -xzf "$here/mpi-runtime.tgz"
ldconfig
mpirun.openmpi --version | head -n 1
mpichversion | head -n 1
EOF
{
  echo "| compiler | $(g++ --version | head -n 1) |"
  echo "| cartcoll | $(git -C "$repo" describe --always --dirty 2>/dev/null) ($(git -C "$repo" log -1 --format=%cs 2>/dev/null)), bundled by \`scripts/bundle.sh\` |"
} >"$dir/build-info.md"
echo "bundle in $dir: $(du -sh "$dir" | cut -f1), packages: ${packages[*]}"
