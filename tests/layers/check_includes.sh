#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The layers of src/ depend one way (docs/design.md): core <- runtime <- api <- interpose. Every
# #include "..." of a file under src/<layer> names a header of its own folder, a public header
# (cartcoll/...) or a header of a layer it may use, spelled from the layer's root; never "../". The
# build enforces this for what it compiles; this check covers every file, headers included.
# Usage: check_includes.sh <source dir>
set -euo pipefail
src=${1:?source directory}/src
declare -A allowed=([core]="core" [runtime]="core runtime" [api]="core runtime api" [interpose]="api interpose")
bad=0
for layer in core runtime api interpose; do
  while IFS= read -r -d '' file; do
    while IFS= read -r line; do
      header=${line#*\"}
      header=${header%%\"*}
      case $header in
        ../*) echo "$file: '$header' climbs out of its folder"; bad=1; continue ;;
        cartcoll/*) continue ;;
        */*) ;;
        *) [[ -f $(dirname "$file")/$header ]] && continue
           echo "$file: '$header' is not in its folder"; bad=1; continue ;;
      esac
      root=${header%%/*}
      if [[ " ${allowed[$layer]} " != *" $root "* ]]; then
        [[ -d $src/$root ]] && echo "$file: the $layer layer may not include '$header'" ||
          echo "$file: '$header' is not spelled from a layer's root"
        bad=1
      elif [[ ! -f $src/$header ]]; then
        echo "$file: '$header' does not exist"; bad=1
      fi
    done < <(grep -E '^\s*#\s*include\s+"' "$file" || true)
  done < <(find "$src/$layer" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print0)
done
if ((bad)); then exit 1; fi
echo "every include of src/ follows the layers"
