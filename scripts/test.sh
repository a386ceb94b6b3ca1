#!/usr/bin/env bash
# Runs the whole test suite: MPI-free unit tests, and the MPI tests at 1..27 processes, built with
# Open MPI, with MPICH, and with Open MPI under AddressSanitizer/UBSan; then the planner fuzzer for
# CARTCOLL_FUZZ_SECONDS (default 60).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_dependencies
start=$SECONDS
passed=0
failed=0

# run_suite <name> <build dir> <cmake args...>
run_suite() {
  local name=$1 dir=$2
  shift 2
  echo "== $name: build"
  build "$dir" "$@"
  echo "== $name: test"
  local log="$dir/ctest.log"
  if ctest --test-dir "$dir" -j 2 --output-on-failure >"$log" 2>&1; then :; fi
  grep -E "tests passed, [0-9]+ tests failed out of" "$log" | tail -n 1 || true
  grep -E "^\s+[0-9]+ - .*(Failed|Timeout|Exception|Not Run)" "$log" || true
  local total bad
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -n 1)
  bad=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -n 1)
  if [ -z "$total" ]; then
    echo "   ctest did not finish; see $log"
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + total - bad))
  failed=$((failed + bad))
  if [ "$bad" != 0 ]; then sed -n '/The following tests FAILED/,$p' "$log"; fi
}

run_suite "Open MPI" "$repo/build/test-openmpi"
run_suite "MPICH" "$repo/build/test-mpich" "${mpich_args[@]}"
run_suite "Open MPI + ASan/UBSan" "$repo/build/test-asan" -DCARTCOLL_SANITIZE=ON

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
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
