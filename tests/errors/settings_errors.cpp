// SPDX-License-Identifier: BSD-3-Clause
// Bad settings on every kind of communicator (docs/semantics.md rule 74): each value of
// bad_settings.hpp on the last process only and on every process must be its class on every
// process, at Cart_neighborhood_create, CC_Dist_graph_create(_adjacent), and the first blocking
// or *_init call on communicators MPI made (MPI_Dist_graph_create_adjacent, MPI_Cart_create); a
// nonblocking first call there runs everywhere and reports the class at completion where the value
// is. After the cases, without the bad settings, a fresh communicator, or the same one
// MPI made, carries a full alltoall whose blocks depend on sender, block and element (the graph
// reference model checks it).
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <functional>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"
#include "../support/watchdog.hpp"
#include "bad_settings.hpp"
#include "error_support.hpp"
#include "cartcoll/cartcoll.h"
#include "cartcoll/neighbor.h"

namespace {

using support::world_rank;
using support::world_size;
using errors::ring_adjacent;

constexpr std::chrono::seconds deadline{90};

class SettingsErrors : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
};

int previous_rank() { return (world_rank() + world_size() - 1) % world_size(); }
int next_rank() { return (world_rank() + 1) % world_size(); }

// A full blocking alltoall on `comm` through the CC_ API, checked on the neighbor lists `graph`.
void expect_full_call(MPI_Comm comm, const cartcoll::Graph& graph,
                      support::Pairing pairing = support::Pairing::kth_occurrence) {
  errors::expect_full_call(comm, graph, pairing, 7);
}

// The same ring, each process naming its own out-edges.
int ring_by_edges(MPI_Comm* graph) {
  const int rank = world_rank(), degree = 2, destinations[] = {next_rank(), previous_rank()};
  return CC_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &degree, destinations, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, graph);
}

// A ring whose creation must fail: no communicator comes back.
int failed_creation(const std::function<int(MPI_Comm*)>& create) {
  MPI_Comm made = MPI_COMM_WORLD;
  const int code = create(&made);
  EXPECT_EQ(made, MPI_COMM_NULL);
  if (made != MPI_COMM_NULL && made != MPI_COMM_WORLD) MPI_Comm_free(&made);
  return code;
}

// A fresh communicator from `create` carries a full call.
void fresh_one_works(const std::function<int(MPI_Comm*)>& create, bool cartesian_offsets = false) {
  MPI_Comm made = MPI_COMM_NULL;
  ASSERT_EQ(create(&made), MPI_SUCCESS);
  MPI_Comm_set_errhandler(made, MPI_ERRORS_RETURN);
  expect_full_call(made, cartesian_offsets ? support::gather_cart_neighborhood(made) : support::gather_topology(made));
  MPI_Comm_free(&made);
}

int cart_ring(MPI_Comm* cart) { return errors::cart_ring({-1, 1, 2}, cart); }

// Creation fails before anything is made (one agreement); then a fresh communicator works.
// CC_Dist_graph_create_adjacent meets every case.
TEST_F(SettingsErrors, CartNeighborhoodCreate) {
  const support::Watchdog watchdog("CartNeighborhoodCreate", deadline);
  errors_suite::for_each_case(false, false, [] { return failed_creation(cart_ring); });
  fresh_one_works(cart_ring, true);
}

TEST_F(SettingsErrors, DistGraphCreateAdjacent) {
  const support::Watchdog watchdog("DistGraphCreateAdjacent", deadline);
  const auto create = [](MPI_Comm* graph) { return ring_adjacent(CC_Dist_graph_create_adjacent, graph); };
  errors_suite::for_each_case(true, false, [&] { return failed_creation(create); });
  fresh_one_works(create);
}

TEST_F(SettingsErrors, DistGraphCreate) {
  const support::Watchdog watchdog("DistGraphCreate", deadline);
  errors_suite::for_each_case(false, false, [] { return failed_creation(ring_by_edges); });
  fresh_one_works(ring_by_edges);
}

// A communicator MPI made, set up by its first blocking or *_init call. A failed call attaches
// nothing, so the same communicator meets every case, and afterwards, without the bad setting, sets
// up at its next blocking call and carries it.
void first_calls_fail_then_work(MPI_Comm comm, support::Form form, support::Pairing pairing) {
  const cartcoll::Graph lists = support::gather_topology(comm);
  const support::TestTypes types;
  support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types, lists,
                              world_rank(), 3, pairing);
  errors_suite::for_each_case(false, false, [&] {
    exchange.prepare(0);
    MPI_Request request = MPI_REQUEST_NULL;
    const int code = exchange.call(form, comm, form == support::Form::blocking ? nullptr : &request);
    EXPECT_EQ(request, MPI_REQUEST_NULL);
    return code;
  });
  expect_full_call(comm, lists, pairing);
}

TEST_F(SettingsErrors, FirstBlockingCallOnAGraphMpiMade) {
  const support::Watchdog watchdog("FirstBlockingCallOnAGraphMpiMade", deadline);
  MPI_Comm graph = MPI_COMM_NULL;
  ASSERT_EQ(ring_adjacent(MPI_Dist_graph_create_adjacent, &graph), MPI_SUCCESS);
  first_calls_fail_then_work(graph, support::Form::blocking, support::Pairing::kth_occurrence);
  MPI_Comm_free(&graph);
}

TEST_F(SettingsErrors, FirstInitCallOnAGraphMpiMade) {
  const support::Watchdog watchdog("FirstInitCallOnAGraphMpiMade", deadline);
  MPI_Comm graph = MPI_COMM_NULL;
  ASSERT_EQ(ring_adjacent(MPI_Dist_graph_create_adjacent, &graph), MPI_SUCCESS);
  first_calls_fail_then_work(graph, support::Form::persistent, support::Pairing::kth_occurrence);
  MPI_Comm_free(&graph);
}

TEST_F(SettingsErrors, FirstNonblockingCallOnAGraphMpiMadeReportsAtCompletion) {
  const support::Watchdog watchdog("FirstNonblockingCallOnAGraphMpiMadeReportsAtCompletion", deadline);
  const auto create = [](MPI_Comm* graph) { return ring_adjacent(MPI_Dist_graph_create_adjacent, graph); };
  for (const support::Op op : {support::Op::alltoall, support::Op::alltoallv})
    errors_suite::nonblocking_first_calls(create, support::Pairing::kth_occurrence, op, support::Form::blocking);
}

TEST_F(SettingsErrors, FirstNonblockingCallOnACartesianTopologyMpiMadeReportsAtCompletion) {
  const support::Watchdog watchdog("FirstNonblockingCallOnACartesianTopologyMpiMadeReportsAtCompletion", deadline);
  const auto create = [](MPI_Comm* cart) {
    const int dims[] = {world_size()}, periods[] = {1};
    return MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, cart);
  };
  // A nonblocking follow-up: there it costs less than a blocking one (which the graph above has).
  errors_suite::nonblocking_first_calls(create, support::Pairing::cartesian, support::Op::alltoall,
                                        support::Form::nonblocking);
}

TEST_F(SettingsErrors, FirstBlockingCallOnACartesianTopologyMpiMade) {
  const support::Watchdog watchdog("FirstBlockingCallOnACartesianTopologyMpiMade", deadline);
  const int dims[] = {world_size()}, periods[] = {1};
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart), MPI_SUCCESS);
  first_calls_fail_then_work(cart, support::Form::blocking, support::Pairing::cartesian);
  MPI_Comm_free(&cart);
}

}  // namespace
