// SPDX-License-Identifier: BSD-3-Clause
// The errors suite, block sizes that disagree where blocks are forwarded: graph-combining (Θ = 2, at
// most 2 and 4 phases) and graph-routing on the dense graph, without the uniform-blocks assertion,
// so that alltoallv's blocks travel through other processes with their sizes. The last process
// sends one block 2 ints larger than its receiver's receive block, each of its blocks to another
// process in turn (forwarded or not, as the set-up decided): MPI_ERR_TRUNCATE on that receiver
// only, from the blocking call, from CC_Wait of the nonblocking one and from each start of the
// persistent one; every other process completes; nobody hangs; every other receive block, the
// receiver's too, holds exactly what the reference model says. 2 ints smaller: MPI_SUCCESS
// everywhere, the block's ints arrive and the rest of its receive block is left as it was, every
// other block exact. Every case ends with a full, checked call on the communicator.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"
#include "../support/graph_traffic.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/neighbor.h"
#include "error_support.hpp"

using namespace support;
using cartcoll::Graph;

namespace {

constexpr std::chrono::seconds deadline{120};

// The forced planners that forward blocks whose sizes only their senders know.
struct Forwarding {
  const char* label;
  std::string algorithm, phases, routing_dims;
};
const Forwarding forwarding[] = {{"Combining2Phases", "graph-combining", "2", ""},
                                 {"Combining4Phases", "graph-combining", "4", ""},
                                 {"Routing2Dimensions", "graph-routing", "", "2"}};

// The communicator of `how` on `graph`, MPI_ERRORS_RETURN.
MPI_Comm forwarding_comm(const Forwarding& how, const Graph& graph) {
  MPI_Comm comm = MPI_COMM_NULL;
  if (how.algorithm == "graph-routing") {
    const RoutingInfo info(how.routing_dims, how.algorithm, "false");
    comm = create_adjacent(graph, info.get());
  } else {
    const CombiningInfo info("2", "2", how.phases, how.algorithm);
    comm = create_adjacent(graph, info.get());
  }
  if (comm != MPI_COMM_NULL) MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return comm;
}

// One call of `exchange` in `form`, completed by CC_Wait; the persistent request is started twice
// (both codes must agree) and freed. Its code.
int called(GraphCase& exchange, Form form, MPI_Comm comm, int generation) {
  exchange.prepare(generation);
  MPI_Request request = MPI_REQUEST_NULL;
  const int code = exchange.call(form, comm, form == Form::blocking ? nullptr : &request);
  if (form == Form::blocking || code != MPI_SUCCESS) return code;
  if (form == Form::nonblocking) {
    const int waited = CC_Wait(&request, MPI_STATUS_IGNORE);
    EXPECT_EQ(request, MPI_REQUEST_NULL) << "a completed nonblocking request is freed";
    return waited;
  }
  int codes[2] = {};
  for (int& started : codes) {
    exchange.prepare(generation);
    EXPECT_EQ(CC_Start(&request), MPI_SUCCESS);
    started = CC_Wait(&request, MPI_STATUS_IGNORE);
  }
  EXPECT_EQ(error_class(codes[0]), error_class(codes[1])) << "the second start of the persistent request";
  EXPECT_EQ(CC_Request_free(&request), MPI_SUCCESS);
  return codes[1];
}

// The last process's blocks to other processes, each `extra_ints` apart from its receive block, in
// every form: the receiver's class as `truncates` says, MPI_SUCCESS elsewhere, every block exact but
// a truncated one.
void missize_each_block(MPI_Comm comm, int extra_ints, bool truncates) {
  const TestTypes types;
  const Graph graph = gather_topology(comm);
  const int sender = world_size() - 1;
  const std::vector<int>& destinations = graph.destinations(sender);
  const GraphCase agreed(Op::alltoallv, Variant::plain, Sizes::per_edge, types, graph, world_rank(), 5);
  for (std::size_t block = 0; block < destinations.size(); ++block) {
    if (destinations[block] == sender) continue;  // a self edge is a copy: the call's own arguments
    if (agreed.ints_sent(sender, block) + extra_ints < 0) continue;
    GraphCase exchange(Op::alltoallv, Variant::plain, Sizes::per_edge, types, graph, world_rank(), 5,
                       Pairing::kth_occurrence, {sender, block, extra_ints});
    const auto [receiver, receive_block] = exchange.missized_receive();
    for (const Form form : all_forms) {
      SCOPED_TRACE(std::string(name(form)) + ", send block " + std::to_string(block) + " of " +
                   std::to_string(agreed.ints_sent(sender, block)) + " ints to rank " + std::to_string(receiver) +
                   "'s block " + std::to_string(receive_block) + ", " + std::to_string(extra_ints) + " ints apart");
      const int code = called(exchange, form, comm, static_cast<int>(block));
      EXPECT_EQ(error_class(code), truncates && world_rank() == receiver ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
      EXPECT_EQ(exchange.mismatch(), "") << exchange.describe();
    }
  }
}

class ForwardedSizes : public ::testing::TestWithParam<Forwarding> {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (world_size() < 2) GTEST_SKIP() << "Open MPI 4.1.4 reports no truncation of a message to the process itself";
    comm_ = forwarding_comm(GetParam(), dense_graph(5));
    ASSERT_NE(comm_, MPI_COMM_NULL);
  }
  void TearDown() override {
    if (comm_ == MPI_COMM_NULL) return;
    errors::expect_usable(comm_, cc_api);
    MPI_Comm_free(&comm_);
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
  Watchdog watchdog_{::testing::UnitTest::GetInstance()->current_test_info()->name(), deadline};
};

TEST_P(ForwardedSizes, LargerBlockThanTheReceiverExpectsIsErrTruncateThereOnly) { missize_each_block(comm_, 2, true); }

TEST_P(ForwardedSizes, SmallerBlockFillsTheStartOfItsReceiveBlock) { missize_each_block(comm_, -2, false); }

INSTANTIATE_TEST_SUITE_P(Planners, ForwardedSizes, ::testing::ValuesIn(forwarding),
                         [](const auto& info) { return std::string(info.param.label); });

}  // namespace
