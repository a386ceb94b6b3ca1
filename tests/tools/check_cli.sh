#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What every tool's command line promises, checked on one tool without an MPI run (the tools read
# their arguments before MPI_Init): --help prints its usage on stdout and exits 0; --version prints
# "<tool> (cartcoll) <version>" and exits 0; an unknown option, and each bad value given after `--`,
# get exactly one line on stderr naming the argument and pointing to --help, and exit status 2; and
# none of these writes a file named after an option, or any other.
# Usage: check_cli.sh <tool> <version> [-- <word the error names> <bad command line>...]...
set -uo pipefail
tool=$1 version=$2
shift 2
name=$(basename "$tool")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1
failures=0
fail() { echo "FAIL: $name $*"; failures=$((failures + 1)); }

# expect_bad <word the line must name> <arguments...>
expect_bad() {
  local word=$1 status
  shift
  "$tool" "$@" >out.txt 2>err.txt
  status=$?
  [ "$status" = 2 ] || fail "$*: exit $status, not 2"
  [ "$(wc -l <err.txt)" = 1 ] || fail "$*: $(wc -l <err.txt) lines on stderr, not 1: $(head -c 300 err.txt)"
  grep -qF -- "$name: " err.txt || fail "$*: the line does not start with the tool's name: $(cat err.txt)"
  grep -qF -- "$word" err.txt || fail "$*: the line does not name '$word': $(cat err.txt)"
  grep -qF -- "see --help" err.txt || fail "$*: the line does not point to --help: $(cat err.txt)"
  [ ! -s out.txt ] || fail "$*: wrote to stdout: $(head -c 300 out.txt)"
  rm -f out.txt err.txt
}

"$tool" --help >out.txt 2>err.txt || fail "--help: exit $?"
head -n 1 out.txt | grep -q "^usage: .*$name" || fail "--help: no usage line: $(head -n 2 out.txt)"
[ ! -s err.txt ] || fail "--help: wrote to stderr: $(cat err.txt)"
rm -f out.txt err.txt
"$tool" --version >out.txt 2>err.txt || fail "--version: exit $?"
[ "$(cat out.txt)" = "$name (cartcoll) $version" ] || fail "--version printed '$(cat out.txt)'"
rm -f out.txt err.txt

expect_bad "'--frobnicate'" --frobnicate
while (($#)); do
  [ "$1" = -- ] || { echo "check_cli.sh: bad arguments start with --"; exit 2; }
  word=$2
  shift 2
  args=()
  while (($#)) && [ "$1" != -- ]; do args+=("$1"); shift; done
  expect_bad "$word" "${args[@]}"
done

leftovers=$(ls -A)
[ -z "$leftovers" ] || fail "left files behind: $leftovers"
if [ "$failures" = 0 ]; then echo "$name: command line as promised"; fi
exit $((failures > 0))
