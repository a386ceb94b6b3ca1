#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `auto` has one home (docs/design.md): outside the policy (src/runtime/selection), the registry
# (src/core/planning/registry.cpp) and the algorithms' own folders, no library code reads which
# algorithm the user asked for (CARTCOLL_ALGORITHM, the cartcoll_algorithm info key), looks a planner
# up by name, asks whether the request is `auto`, or spells a planner's name or "auto" in a string.
# Comments are not code. Usage: check_policy.sh <source dir>
set -euo pipefail
src=${1:?source directory}/src
names=$(grep -rhA1 'extern const PlannerEntry' "$src/core/algorithms" | grep -o '^ *"[a-z-]*"' | tr -d ' "' | sort -u)
[[ -n $names ]] || { echo "no planner names found under $src/core/algorithms"; exit 1; }
pattern='Algorithm::(named|parse)\(|is_automatic\(\)|CARTCOLL_ALGORITHM|"cartcoll_algorithm"|"auto"'
for name in $names; do pattern+="|\"$name\""; done
found=""
while IFS= read -r -d '' file; do
  [[ $file =~ ^$src/(runtime/selection/|core/planning/registry\.cpp$|core/algorithms/) ]] && continue
  hits=$(sed 's#//.*$##' "$file" | grep -nE "$pattern" || true)
  [[ -n $hits ]] && found+=$(sed "s#^#$file:#" <<<"$hits")$'\n'
done < <(find "$src" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print0)
if [[ -n $found ]]; then
  echo "outside the policy, the registry and the algorithms' folders:"
  echo "$found"
  exit 1
fi
echo "only the policy, the registry and the algorithms name planners or auto ($(echo $names | wc -w) planners)"
