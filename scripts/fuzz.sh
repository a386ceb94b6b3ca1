#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Fuzzes the planners with libFuzzer: random grids (d 1..4, dims 1..5, periodic or not, p <= 64),
# neighborhoods (t 0..12, coordinates -6..6), node sizes, alltoall/allgather and block sizes 0..4
# bytes; and random distributed graphs (p <= 16, repeated and self edges, processes without edges,
# absent neighbors) with graph-combining's parameters (phase budgets 2..4), node sizes and routing
# grids, blocks of one size or sized per edge (sizes that travel, alltoall also under `auto`'s size
# gate). Every planner's schedules run in the simulator against the reference model, the graph
# planners' set-ups through the simulated transport (tests/fuzz/fuzz_planner.cpp).
#
#   scripts/fuzz.sh [seconds] [libFuzzer flags...]     (default 60 seconds)
#
# Builds build/fuzz with clang (ASan + UBSan + libFuzzer), keeps the corpus in build/fuzz/corpus and
# writes crashing inputs to build/fuzz/artifacts/; a crash prints the decoded case and fails.
# Reproduce one with: build/fuzz/tests/fuzz/fuzz_planner build/fuzz/artifacts/crash-...
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
shift $(($# > 0 ? 1 : 0))
dir="$repo/build/fuzz"

if ! command -v clang++ >/dev/null || ! command -v clang >/dev/null; then
  echo "== installing clang"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends clang >/dev/null
fi
# libFuzzer's runtime (Debian ships it in libclang-rt-N-dev, older releases in libclang-common-N-dev).
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
    clang++ -fsanitize=fuzzer -x c++ - -o /dev/null 2>/dev/null; then
  version=$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
  echo "== installing libFuzzer for clang $version"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "libclang-rt-$version-dev" >/dev/null 2>&1 ||
    apt-get install -y -qq --no-install-recommends "libclang-common-$version-dev" >/dev/null
fi

echo "== fuzz: build"
CC=clang CXX=clang++ cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCARTCOLL_FUZZ=ON -DCARTCOLL_BUILD_TESTS=OFF >/dev/null
cmake --build "$dir" --target fuzz_planner

# Seeds, in the target's input format (one byte each; tests/fuzz/fuzz_planner.cpp). Cartesian: 0;
# d-1; per dimension size-1, +5 if periodic; t; t*d coordinates, +6 each; collective (0 alltoall,
# 1 allgather); block sizes (t, or 1 for allgather); node size. Graph: 1; p-1; e; e pairs (from,
# to); per rank a rotation of its sources; absent neighbors n and n triples (rank, 0 sources or
# 1 destinations, position); collective; block size; threshold-2; phases-2; steps; candidates-1;
# matching rounds-1; node size; routing dimensions-1.
seeds="$dir/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$dir/corpus" "$dir/artifacts"
seed() {
  local name=$1 bytes=""
  shift
  for byte in "$@"; do bytes+=$(printf '\\x%02x' "$byte"); done
  printf "$bytes" >"$seeds/$name"
}
seed torus4x4-von-neumann-alltoall 0 1  8 8  4  5 6 7 6 6 5 6 7  0  1 2 3 4  0
seed mesh4x4-von-neumann-allgather 0 1  3 3  4  5 6 7 6 6 5 6 7  1  4  4
seed torus3x3x3-octant-alltoall    0 2  7 7 7  7  7 6 6 6 7 6 7 7 6 6 6 7 7 6 7 6 7 7 7 7 7  0  1 2 3 4 1 2 3  9
seed mesh3x3x3-von-neumann-allgather 0 2  2 2 2  6  5 6 6 7 6 6 6 5 6 6 7 6 6 6 5 6 6 7  1  3  3
seed ring5-zero-repeats-far        0 0  9  6  6 6 7 7 12 0  0  3 0 2 3 4 2  0
seed line5-zero-repeats-far        0 0  4  6  6 6 7 7 12 0  1  1  2
seed mixed2x4x2x2-alltoall         0 3  6 3 6 1  4  7 7 7 7 5 5 5 5 6 8 6 4 6 6 6 6  0  1 0 4 2  8
seed empty-neighborhood            0 1  8 3  0  0  0
complete=()
for from in 0 1 2 3 4 5; do for to in 0 1 2 3 4 5; do [ "$from" = "$to" ] || complete+=("$from" "$to"); done; done
seed complete6-allgather-nodes3    1 5  30 "${complete[@]}"  0 0 0 0 0 0  0  1 4  0 0 16 7 5  3 1
seed complete6-alltoall-cumulative 1 5  30 "${complete[@]}"  1 2 3 0 1 2  0  0 4  0 2 16 7 5  2 2
seed repeats-selfs-absent5         1 4  8 0 1 0 1 1 1 2 3 3 2 2 4 4 0 0 4  1 0 0 0 1  2 1 0 0 3 1 1  0 3  0 1 16 7 5  2 1
seed no-edges4                     1 3  0  0 0 0 0  0  1 2  0 0 16 7 5  2 0

echo "== fuzz: ${seconds}s"
status=0
"$dir/tests/fuzz/fuzz_planner" -max_total_time="$seconds" -max_len=256 -timeout=20 -print_final_stats=1 \
  -artifact_prefix="$dir/artifacts/" "$@" "$dir/corpus" "$seeds" || status=$?
if [ "$status" != 0 ]; then
  echo "fuzz: failure; inputs in $dir/artifacts/ (run the target on one to reproduce)" >&2
fi
exit "$status"
