#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs a command and checks how it ends and what it prints:
#   expect_output.sh pass|fail [PATTERN...] -- COMMAND...
# pass: it must exit 0; fail: it must not. Each PATTERN (an extended regular expression) must match
# some line of its output (stdout and stderr together), which is shown whatever happens.
set -u
expected=$1
shift
patterns=()
while (($#)) && [[ $1 != -- ]]; do
  patterns+=("$1")
  shift
done
shift
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
verdict=0
if [[ $expected == pass && $status -ne 0 ]] || [[ $expected == fail && $status -eq 0 ]]; then
  echo "expect_output.sh: exit status $status, expected to $expected"
  verdict=1
fi
for pattern in "${patterns[@]}"; do
  if ! grep -Eq -- "$pattern" <<<"$output"; then
    echo "expect_output.sh: no line matches: $pattern"
    verdict=1
  fi
done
exit $verdict
