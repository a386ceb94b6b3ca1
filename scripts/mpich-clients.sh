#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Real, unmodified MPI programs on MPICH through libcartcoll_mpi (docs/transparent.md, "MPICH's own
# neighborhood tests"). Debian builds no neighborhood-collective client against MPICH, so the client
# is MPICH's own test suite: the 11 programs of MPICH 4.0.2's test/mpi/coll that call neighborhood
# collectives (blocking on MPI_Cart_create and MPI_Dist_graph_create_adjacent communicators, and the
# MPI 4 persistent MPI_Neighbor_*_init), taken from Debian's source package and compiled as they are
# with MPICH's MTest harness. Each runs at several process counts without and with the layer
# preloaded: the outputs must be byte-identical, and the layer's report must show that it ran.
# Ends with a line "N identical, N differ". Downloads the source package (22 MB) from Debian's
# registry, so not part of scripts/test.sh. Usage: bash scripts/mpich-clients.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
install_dependencies
build "$repo/build/mpich" "${mpich_args[@]}" -DCMAKE_BUILD_TYPE=Release -DCARTCOLL_BUILD_TESTS=OFF \
  -DCARTCOLL_BUILD_BENCH=OFF
layer="$repo/build/mpich/src/interpose/libcartcoll_mpi.so"
# MPICH's ch4:ucx polls; with more processes than cores the shim makes a waiting process yield.
shim=$(find "$repo/build/mpich/tools/ucx_yield" -name 'libcartcoll_ucx_yield.so' | head -n 1)
out="$repo/build/mpich-clients"
mkdir -p "$out"
cd "$out"

# The source package, from the deb-src entry of Debian's own archive (added if missing).
if [[ ! -d mpich-4.0.2/test/mpi ]]; then
  if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      >/etc/apt/sources.list.d/cartcoll-deb-src.sources
    apt-get update -qq
  fi
  apt-get source --download-only -qq mpich=4.0.2-3 2>/dev/null
  tar xJf mpich_4.0.2.orig.tar.xz --wildcards 'mpich-4.0.2/test/mpi/coll/*neighb*' \
    'mpich-4.0.2/test/mpi/util/*' 'mpich-4.0.2/test/mpi/include/*'
fi
tests=mpich-4.0.2/test/mpi
# What MPICH's configure would write into mpitestconf.h on this system, for the MTest harness.
cat >mpitestconf.h <<'EOF'
#define HAVE_STDARG_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_STDINT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_UNISTD_H 1
#define HAVE_GETRUSAGE 1
#define HAVE_USLEEP 1
#define HAVE_MPI_WIN_CREATE 1
#define THREAD_PACKAGE_NAME 1 /* THREAD_PACKAGE_NONE */
EOF
programs=(neighb_allgather neighb_allgatherv neighb_alltoall neighb_alltoallv neighb_alltoallw
          p_neighb_allgather p_neighb_allgatherv p_neighb_alltoall p_neighb_alltoallv p_neighb_alltoallw
          ring_neighbor_alltoall)
for program in "${programs[@]}"; do
  if ! mpicc.mpich -O2 -I. -I"$tests/include" -o "$program" "$tests/coll/$program.c" "$tests/util/mtest.c" \
    "$tests/util/mtest_common.c" "$tests/util/mtest_thread.c" >"$program.build.log" 2>&1; then
    cat "$program.build.log"
    exit 1
  fi
done

echo "== MPICH $(mpichversion 2>/dev/null | awk '/Version:/ { print $3 }')'s neighborhood tests, without and with $layer"
identical=0 differ=0
for program in "${programs[@]}"; do
  procs_list=(1 2 3 4 6)
  [[ $program == ring_neighbor_alltoall ]] && procs_list=(1 2)  # the program asks for 1 or 2
  for procs in "${procs_list[@]}"; do
    # stdout compared whole; stderr without the layer's report (which goes there, at MPI_Finalize).
    LD_PRELOAD="$shim" timeout 120 mpiexec.mpich -n "$procs" "./$program" >native.out 2>native.err || true
    CARTCOLL_REPORT=1 LD_PRELOAD="$shim $layer" timeout 120 mpiexec.mpich -n "$procs" "./$program" \
      >layer.out 2>layer.all || true
    grep -v '^cartcoll:' layer.all >layer.err || true
    if cmp -s native.out layer.out && cmp -s native.err layer.err && grep -q 'No Errors' native.out &&
      grep -q '^cartcoll: rank=0' layer.all; then
      identical=$((identical + 1))
      printf 'identical  %d processes  %-24s %s\n' "$procs" "$program" \
        "$(grep '^cartcoll: rank=0' layer.all | grep -o 'function=[^ ]* algorithm=[^ ]*' | sort -u | tr '\n' ' ')"
    else
      differ=$((differ + 1))
      printf 'DIFFER     %d processes  %s\n' "$procs" "$program"
      diff native.out layer.out | head -n 10 || true
      diff native.err layer.err | head -n 10 || true
    fi
  done
done
echo
echo "$identical identical, $differ differ"
((differ == 0))
