// SPDX-License-Identifier: BSD-3-Clause
// CARTCOLL_PROGRESS is read once per process (docs/semantics.md rule 74): a bad value is reported
// once, at the first call of the process that agrees on settings, as MPI_ERR_ARG on every process of
// that call; the engine then progresses everything (the default), and the next communicator works.
// Run with CARTCOLL_PROGRESS=junk on every process from the environment, and without it, where the
// program sets it on the last process only before the library reads it.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdlib>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/neighbor.h"

namespace {

using support::world_rank;
using support::world_size;

int ring(MPI_Comm* graph) {
  const int p = world_size(), rank = world_rank();
  const int sources[] = {(rank + p - 1) % p, (rank + 1) % p}, destinations[] = {(rank + 1) % p, (rank + p - 1) % p};
  return CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, destinations, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, graph);
}

TEST(SettingsProgress, ABadValueIsReportedOnceEverywhereThenTheDefaultRuns) {
  const support::Watchdog watchdog("SettingsProgress", std::chrono::seconds(60));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (std::getenv("CARTCOLL_PROGRESS") == nullptr && world_rank() == world_size() - 1)
    ASSERT_EQ(setenv("CARTCOLL_PROGRESS", "junk", 1), 0);
  MPI_Comm graph = MPI_COMM_WORLD;
  support::expect_everywhere(ring(&graph), MPI_ERR_ARG, &graph);
  for (int round = 0; round < 2; ++round) {  // reported once: every later communicator works
    graph = MPI_COMM_NULL;
    ASSERT_EQ(ring(&graph), MPI_SUCCESS);
    const support::TestTypes types;
    support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types,
                                support::gather_topology(graph), world_rank(), 13 + static_cast<unsigned>(round));
    exchange.prepare(round);
    ASSERT_EQ(exchange.call(support::Form::blocking, graph, nullptr), MPI_SUCCESS);
    EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
    MPI_Comm_free(&graph);
  }
}

}  // namespace
