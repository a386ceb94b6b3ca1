#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs the whole test suite: the MPI tests at 1..27 processes, built with Open MPI (shared library),
# with MPICH (static library), and with Open MPI under AddressSanitizer/UBSan, and the MPI-free unit
# tests in the two Open MPI configurations; then the planner fuzzer for CARTCOLL_FUZZ_SECONDS
# (default 60). Ends with one line "N passed, N failed, N skipped" and exits non-zero if anything
# failed. Passed and failed count ctest's runs; skipped counts the runs that skipped all their cases
# plus the cases skipped inside runs that passed, each listed with its reason.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_dependencies
start=$SECONDS
passed=0
failed=0
skipped=0

# run_suite <name> <build dir> <cmake args...>: a configuration that does not build, or whose ctest
# fails or does not finish, counts as failed whatever its log says.
run_suite() {
  local name=$1 dir=$2
  shift 2
  echo "== $name: build"
  if ! build "$dir" "$@"; then
    failed=$((failed + 1))
    return
  fi
  echo "== $name: test"
  local log="$dir/ctest.log" status=0
  ctest --test-dir "$dir" -j 2 --output-on-failure >"$log" 2>&1 || status=$?
  grep -E "tests passed, [0-9]+ tests failed out of" "$log" | tail -n 1 || true
  local total bad skips
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
  bad=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n 1)
  if [ -z "$total" ]; then
    echo "   ctest did not finish (exit $status); see $log"
    failed=$((failed + 1))
    return
  fi
  # ctest counts a skipped run among those that did not fail; it lists them as "(Skipped)".
  skips=$(grep -cE '^[[:space:]]*[0-9]+ - .* \((Skipped|Disabled)\)$' "$log" || true)
  passed=$((passed + total - bad - skips))
  failed=$((failed + bad))
  skipped=$((skipped + skips + $(skipped_cases "$dir")))
  print_skips "$dir"
  if [ "$status" != 0 ]; then
    sed -n '/The following tests FAILED/,$p' "$log"
    if [ "$bad" = 0 ]; then failed=$((failed + 1)); fi  # ctest failed without naming a test
  fi
}

# skipped_cases <build dir>: how many cases the runs that passed skipped, from the output ctest keeps
# of every test (the gtest main's "cartcoll: K of N test cases skipped").
skipped_cases() {
  local full="$1/Testing/Temporary/LastTest.log"
  [ -f "$full" ] || { echo 0; return; }
  awk '/^cartcoll: [0-9]+ of [0-9]+ test cases skipped$/ { sum += $2 } END { print sum + 0 }' "$full"
}

# print_skips <build dir>: each skipped case with its reason, from the output ctest keeps of every
# test.
print_skips() {
  local full="$1/Testing/Temporary/LastTest.log"
  [ -f "$full" ] || return 0
  awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 } /^cartcoll: skipped / { sub(/^cartcoll: skipped /, ""); print "   skipped in " name ": " $0 }' "$full"
}

# Line tables only (-g1): enough for sanitizer reports and backtraces, and a fifth less compile time
# than -g, most of what the suite spends building three configurations on 2 cores.
line_tables=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG")
run_suite "Open MPI (shared library)" "$repo/build/test-openmpi" "${line_tables[@]}"
# The benchmarks are built (and so compile-checked) once, in the first configuration; no test runs them.
# MPICH's ch4:ucx waits by polling (yielding, with the ucx_yield shim), so 27 processes on 2 cores
# take minutes a test there: the 27- and 12-process runs are Open MPI's (9 gives MPICH its 3-D and
# 2-D grids of 3). The MPI-free unit tests are the same code under either MPI: they run in the Open
# MPI configurations.
run_suite "MPICH (static library)" "$repo/build/test-mpich" "${mpich_args[@]}" "${line_tables[@]}" \
  -DBUILD_SHARED_LIBS=OFF -DCARTCOLL_BUILD_BENCH=OFF -DCARTCOLL_BUILD_UNIT_TESTS=OFF "-DCARTCOLL_TEST_PROCS=1;2;3;4;6;8;9"
# Under the sanitizers the 27- and 12-process runs (about 95 s and 50 s of the suite's 25 minutes)
# are left to the first configuration: the same code runs there at 27 and 12 processes and here at
# up to 9.
run_suite "Open MPI + ASan/UBSan" "$repo/build/test-asan" "${line_tables[@]}" -DCARTCOLL_SANITIZE=ON -DCARTCOLL_BUILD_BENCH=OFF \
  "-DCARTCOLL_TEST_PROCS=1;2;3;4;6;8;9"

# The planner fuzzer (libFuzzer, clang), for a bounded time: every algorithm against the reference model.
echo "== fuzz: ${CARTCOLL_FUZZ_SECONDS:-60} s"
if bash "$repo/scripts/fuzz.sh" "${CARTCOLL_FUZZ_SECONDS:-60}" >"$repo/build/fuzz.log" 2>&1; then
  passed=$((passed + 1))
  grep -E "Done [0-9]+ runs" "$repo/build/fuzz.log" | tail -n 1 || true
else
  failed=$((failed + 1))
  tail -n 30 "$repo/build/fuzz.log"
fi

echo "whole suite: $((SECONDS - start)) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
