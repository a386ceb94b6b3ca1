// Bad settings on every kind of communicator (docs/semantics.md rule 74): each value of
// bad_settings.hpp on the last process only and on every process must be its class on every
// process, at Cart_neighborhood_create, CC_Dist_graph_create(_adjacent), and the first blocking or
// *_init call on communicators MPI made (MPI_Dist_graph_create_adjacent, MPI_Cart_create); then the
// setting is removed and a fresh communicator, or the same one MPI made, carries a full alltoall
// whose blocks depend on sender, block and element (the graph reference model checks it).
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
#include "cartcoll/cartcoll.h"
#include "cartcoll/neighbor.h"

namespace {

using errors_suite::BadSetting;
using support::world_rank;
using support::world_size;

constexpr std::chrono::seconds deadline{60};

class SettingsErrors : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
};

// A full blocking alltoall on `comm` through the CC_ API, checked against the graph reference model
// on the neighbor lists `graph`.
void expect_full_call(MPI_Comm comm, const cartcoll::Graph& graph,
                      support::Pairing pairing = support::Pairing::kth_occurrence) {
  const support::TestTypes types;
  support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types, graph,
                              world_rank(), 7, pairing);
  exchange.prepare(0);
  ASSERT_EQ(exchange.call(support::Form::blocking, comm, nullptr), MPI_SUCCESS) << exchange.describe();
  EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
}

// Each bad setting on one process, then on every process: `attempt` makes the call that agrees on
// settings and returns its code; `afterwards` runs once the setting is removed again.
void for_each_bad_setting(const std::function<int()>& attempt, const std::function<void()>& afterwards) {
  const support::Watchdog watchdog(testing::UnitTest::GetInstance()->current_test_info()->name(), deadline);
  const int rank = world_rank(), size = world_size();
  for (const BadSetting& setting : errors_suite::bad_settings())
    for (const bool everywhere : {false, true}) {
      if (everywhere ? !setting.bad_alone : size == 1 && !setting.bad_alone) continue;
      SCOPED_TRACE(errors_suite::describe(setting, everywhere));
      if (errors_suite::sets_it(everywhere, rank, size)) ASSERT_EQ(setenv(setting.variable, setting.value.c_str(), 1), 0);
      const int code = attempt();
      ASSERT_EQ(unsetenv(setting.variable), 0);
      support::expect_class_everywhere(code, setting.error_class);
      afterwards();
    }
  errors_suite::remove_files();
}

int previous_rank() { return (world_rank() + world_size() - 1) % world_size(); }
int next_rank() { return (world_rank() + 1) % world_size(); }

// A ring with both directions: repeated edges at 2 processes, self edges at 1.
int ring_adjacent(int (*create)(MPI_Comm, int, const int[], const int[], int, const int[], const int[], MPI_Info, int,
                                MPI_Comm*),
                  MPI_Comm* graph) {
  const int sources[] = {previous_rank(), next_rank()}, destinations[] = {next_rank(), previous_rank()};
  return create(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, destinations, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, graph);
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

int cart_ring(MPI_Comm* cart) {
  const int dims[] = {world_size()}, periods[] = {1}, offsets[] = {-1, 1, 2};
  return Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 3, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, cart);
}

TEST_F(SettingsErrors, CartNeighborhoodCreate) {
  for_each_bad_setting([] { return failed_creation(cart_ring); }, [] { fresh_one_works(cart_ring, true); });
}

TEST_F(SettingsErrors, DistGraphCreateAdjacent) {
  const auto create = [](MPI_Comm* graph) { return ring_adjacent(CC_Dist_graph_create_adjacent, graph); };
  for_each_bad_setting([&] { return failed_creation(create); }, [&] { fresh_one_works(create); });
}

TEST_F(SettingsErrors, DistGraphCreate) {
  for_each_bad_setting([] { return failed_creation(ring_by_edges); }, [] { fresh_one_works(ring_by_edges); });
}

// A communicator MPI made, set up by its first blocking call: the failed set-up attaches nothing, so
// the same communicator sets up again at the next blocking call, without the bad setting.
TEST_F(SettingsErrors, FirstBlockingCallOnAGraphMpiMade) {
  MPI_Comm graph = MPI_COMM_NULL;
  const auto fresh = [&] {
    if (graph != MPI_COMM_NULL) MPI_Comm_free(&graph);
    ASSERT_EQ(ring_adjacent(MPI_Dist_graph_create_adjacent, &graph), MPI_SUCCESS);
  };
  fresh();
  const cartcoll::Graph lists = support::gather_topology(graph);
  const support::TestTypes types;
  support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types, lists,
                              world_rank(), 3);
  for_each_bad_setting(
      [&] {
        exchange.prepare(0);
        return exchange.call(support::Form::blocking, graph, nullptr);
      },
      [&] {
        expect_full_call(graph, lists);
        fresh();
      });
  MPI_Comm_free(&graph);
}

TEST_F(SettingsErrors, FirstInitCallOnAGraphMpiMade) {
  MPI_Comm graph = MPI_COMM_NULL;
  ASSERT_EQ(ring_adjacent(MPI_Dist_graph_create_adjacent, &graph), MPI_SUCCESS);
  const cartcoll::Graph lists = support::gather_topology(graph);
  const support::TestTypes types;
  support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types, lists,
                              world_rank(), 5);
  for_each_bad_setting(
      [&] {
        exchange.prepare(0);
        MPI_Request request = MPI_REQUEST_NULL;
        const int code = exchange.call(support::Form::persistent, graph, &request);
        EXPECT_EQ(request, MPI_REQUEST_NULL);
        return code;
      },
      [&] {
        expect_full_call(graph, lists);
        MPI_Comm_free(&graph);
        ASSERT_EQ(ring_adjacent(MPI_Dist_graph_create_adjacent, &graph), MPI_SUCCESS);
      });
  MPI_Comm_free(&graph);
}

TEST_F(SettingsErrors, FirstBlockingCallOnACartesianTopologyMpiMade) {
  const int dims[] = {world_size()}, periods[] = {1};
  MPI_Comm cart = MPI_COMM_NULL;
  const auto fresh = [&] {
    if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
    ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart), MPI_SUCCESS);
  };
  fresh();
  const cartcoll::Graph lists = support::gather_topology(cart);
  const support::TestTypes types;
  support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types, lists,
                              world_rank(), 9, support::Pairing::cartesian);
  for_each_bad_setting(
      [&] {
        exchange.prepare(0);
        return exchange.call(support::Form::blocking, cart, nullptr);
      },
      [&] {
        expect_full_call(cart, lists, support::Pairing::cartesian);
        fresh();
      });
  MPI_Comm_free(&cart);
}

// A nonblocking first call may not communicate: a setting bad on every process fails on every process
// (where it is bad on some only, those fail and the others' requests wait, as rule 30 says of local
// checks); nothing is attached, so a blocking call afterwards sets the communicator up.
TEST_F(SettingsErrors, NonblockingFirstCallWithASettingBadEverywhere) {
  const support::Watchdog watchdog("NonblockingFirstCallWithASettingBadEverywhere", deadline);
  for (const BadSetting& setting : errors_suite::bad_settings()) {
    if (!setting.bad_alone) continue;
    SCOPED_TRACE(errors_suite::describe(setting, true));
    MPI_Comm graph = MPI_COMM_NULL;
    ASSERT_EQ(ring_adjacent(MPI_Dist_graph_create_adjacent, &graph), MPI_SUCCESS);
    const cartcoll::Graph lists = support::gather_topology(graph);
    const support::TestTypes types;
    support::GraphCase exchange(support::Op::alltoall, support::Variant::plain, support::Sizes::per_edge, types, lists,
                                world_rank(), 11);
    exchange.prepare(0);
    ASSERT_EQ(setenv(setting.variable, setting.value.c_str(), 1), 0);
    MPI_Request request = MPI_REQUEST_NULL;
    const int code = exchange.call(support::Form::nonblocking, graph, &request);
    ASSERT_EQ(unsetenv(setting.variable), 0);
    EXPECT_EQ(request, MPI_REQUEST_NULL);
    support::expect_class_everywhere(code, setting.error_class);
    expect_full_call(graph, lists);
    MPI_Comm_free(&graph);
  }
  errors_suite::remove_files();
}

}  // namespace
