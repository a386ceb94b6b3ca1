// SPDX-License-Identifier: BSD-3-Clause
// Bad settings through libcartcoll_mpi (docs/semantics.md rule 74): an unmodified MPI program whose
// MPI_Dist_graph_create_adjacent, and whose first MPI_Neighbor_alltoall on an MPI_Cart_create
// communicator, agree on settings in the layer, and whose first MPI_Ineighbor_alltoall there runs
// everywhere and reports a bad value at MPI_Wait where it is. Each value of bad_settings.hpp, on the
// last process only and on every process, must be its class on every process (and no graph comes
// back); then,
// without them, a fresh graph, or the same Cartesian communicator, carries a full
// MPI_Neighbor_alltoall checked against the graph reference model. Run only with the layer loaded:
// MPI itself reads none of these variables.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdlib>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"
#include "../support/watchdog.hpp"
#include "bad_settings.hpp"
#include "error_support.hpp"

namespace {

using support::world_rank;
using support::world_size;

// The library's table with MPI's alltoall, blocking and nonblocking, and MPI's waits: what the layer
// stands in for.
support::Api mpi_alltoall() {
  support::Api api = support::cc_api;
  api.neighbor_alltoall = MPI_Neighbor_alltoall;
  api.ineighbor_alltoall = MPI_Ineighbor_alltoall;
  api.wait = MPI_Wait;
  api.waitall = MPI_Waitall;
  return api;
}

void expect_full_call(MPI_Comm comm, support::Pairing pairing, unsigned seed) {
  errors::expect_full_call(comm, support::gather_topology(comm), pairing, seed, mpi_alltoall());
}

int ring(MPI_Comm* graph) { return errors::ring_adjacent(MPI_Dist_graph_create_adjacent, graph); }

int cartesian(MPI_Comm* cart) {
  const int dims[] = {world_size()}, periods[] = {1};
  return MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, cart);
}

TEST(SettingsThroughLayer, DistGraphCreateAdjacent) {
  const support::Watchdog watchdog("DistGraphCreateAdjacent", std::chrono::seconds(90));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  errors_suite::for_each_case(false, false, [] {
    MPI_Comm graph = MPI_COMM_WORLD;
    const int code = ring(&graph);
    EXPECT_EQ(graph, MPI_COMM_NULL);
    return code;
  });
  MPI_Comm graph = MPI_COMM_NULL;
  ASSERT_EQ(ring(&graph), MPI_SUCCESS);
  expect_full_call(graph, support::Pairing::kth_occurrence, 3);
  MPI_Comm_free(&graph);
}

// The failed set-up leaves nothing behind: the same communicator meets every case, then works.
TEST(SettingsThroughLayer, FirstNeighborCallOnACartesianTopology) {
  const support::Watchdog watchdog("FirstNeighborCallOnACartesianTopology", std::chrono::seconds(90));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(cartesian(&cart), MPI_SUCCESS);
  const support::TestTypes types;
  support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types,
                              support::gather_topology(cart), world_rank(), 5, support::Pairing::cartesian);
  errors_suite::for_each_case(false, false, [&] {
    exchange.prepare(0);
    return exchange.call(support::Form::blocking, cart, nullptr, mpi_alltoall());
  });
  expect_full_call(cart, support::Pairing::cartesian, 7);
  MPI_Comm_free(&cart);
}

// A first MPI_Ineighbor_alltoall cannot agree: it runs on every process, and MPI_Wait returns the
// class where the value is (bad_settings.hpp, nonblocking_first_calls).
TEST(SettingsThroughLayer, FirstNonblockingNeighborCallOnACartesianTopology) {
  const support::Watchdog watchdog("FirstNonblockingNeighborCallOnACartesianTopology", std::chrono::seconds(90));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  errors_suite::nonblocking_first_calls(cartesian, support::Pairing::cartesian, support::Op::alltoall,
                                        support::Form::nonblocking, mpi_alltoall());
}

}  // namespace
