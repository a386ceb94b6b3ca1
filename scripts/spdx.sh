#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every source file of the repository names its license in an SPDX line near its top.
#   bash scripts/spdx.sh          adds the line where it is missing (after a #! line)
#   bash scripts/spdx.sh --check  lists the files without one and fails if there are any
# Sources are the files git tracks, or with no git checkout every file under the repository; data,
# results and prose (markdown) are left alone.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-add}
cd "$repo"
tag="SPDX-License-Identifier: BSD-3-Clause"

sources() {
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then git ls-files; else find . -type f -not -path './build/*' | sed 's|^\./||'; fi
}

# comment_for <file>: the SPDX line in the file's comment syntax, or nothing for a file it skips.
comment_for() {
  case "$1" in
    bench/results/*) ;;
    *.h|*.c|*.h.in) echo "/* $tag */" ;;
    *.cpp|*.hpp) echo "// $tag" ;;
    *.F90|*.f90) echo "! $tag" ;;
    *.sh|*.py|*.cmake|*CMakeLists.txt|*.in|.ci/run) echo "# $tag" ;;
  esac
}

missing=0
while read -r file; do
  line=$(comment_for "$file")
  [ -n "$line" ] && [ -f "$file" ] || continue
  head -n 5 "$file" | grep -q "SPDX-License-Identifier" && continue
  if [ "$mode" = --check ]; then
    echo "no SPDX line: $file"
    missing=$((missing + 1))
  elif head -n 1 "$file" | grep -q '^#!'; then
    sed -i "1a $line" "$file"
  else
    sed -i "1i $line" "$file"
  fi
done < <(sources)
if [ "$mode" = --check ]; then
  [ "$missing" = 0 ] && echo "every source file has an SPDX line"
  [ "$missing" = 0 ]
fi
