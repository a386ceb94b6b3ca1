// SPDX-License-Identifier: BSD-3-Clause
// The unified-interfaces paper's (Träff, Hunold, Mercier and Holmes) rooted and reduction
// collectives on distributed graphs, without MPI: the reference model on a worked example (repeated
// edges, self edges, a non-commutative operation), and the planners of graph_collectives.hpp proved
// by the simulator against it on random graphs, MPI_IN_PLACE included.
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../graph_cases.hpp"
#include "core/model/graph.hpp"
#include "core/unified/graph_collectives.hpp"
#include "test_support.hpp"

namespace cartcoll {
namespace {

using test::Blocks;
using test::Bytes;

// Affine maps x -> a x + b over bytes, one per two bytes, composed: in o inout. Associative, not
// commutative, so a fold in the wrong order gives another result.
void compose(const Bytes& in, Bytes& inout) {
  for (std::size_t e = 0; e + 1 < inout.size(); e += 2) {
    const auto a1 = std::to_integer<unsigned>(in[e]), b1 = std::to_integer<unsigned>(in[e + 1]);
    const auto a2 = std::to_integer<unsigned>(inout[e]), b2 = std::to_integer<unsigned>(inout[e + 1]);
    inout[e] = static_cast<std::byte>((a1 * a2) & 0xFFu);
    inout[e + 1] = static_cast<std::byte>((a1 * b2 + b1) & 0xFFu);
  }
}

Blocks one_each(const std::vector<Bytes>& buffers) {
  Blocks blocks;
  for (const Bytes& buffer : buffers) blocks.push_back({buffer});
  return blocks;
}

// Rank 0 sends to 1 twice and to itself; rank 2 to 1 and to itself; rank 1 to 0. Rank 1 lists its
// sources as 2, 0, 0.
Graph worked_example() {
  Graph graph(3);
  graph.destinations(0) = {1, 1, 0};
  graph.destinations(1) = {0};
  graph.destinations(2) = {1, 2};
  graph.sources(0) = {1, 0};
  graph.sources(1) = {2, 0, 0};
  graph.sources(2) = {2};
  return graph;
}

TEST(GraphCollectivesReference, WorkedExample) {
  const Graph graph = worked_example();
  ASSERT_EQ(graph.inconsistency(), "");
  using test::bytes;
  // bcast from 0: rank 1 (two edges) gets 0's buffer; 0 keeps its own; 2 has no edge from 0.
  EXPECT_EQ(reference::bcast(graph, 0, {bytes({1}), bytes({2}), bytes({3})}),
            (std::vector<Bytes>{bytes({1}), bytes({1}), bytes({3})}));
  // gather to 1: its sources 2, 0, 0 in order.
  const Blocks gathered = reference::gather(graph, 1, {bytes({10}), bytes({11}), bytes({12})},
                                            {{}, {bytes({0}), bytes({0}), bytes({0})}, {}});
  EXPECT_EQ(gathered[1], (std::vector<Bytes>{bytes({12}), bytes({10}), bytes({10})}));
  // gather to 0: from 1, then its own block through the self edge.
  EXPECT_EQ(reference::gather(graph, 0, {bytes({10}), bytes({11}), bytes({12})}, {{bytes({0}), bytes({0})}, {}, {}})[0],
            (std::vector<Bytes>{bytes({11}), bytes({10})}));
  // scatter from 0: blocks 0 and 1 go to rank 1 (its first and second edge from 0), block 2 to itself.
  const Blocks scattered = reference::scatter(graph, 0, {{bytes({20}), bytes({21}), bytes({22})}, {}, {}},
                                              {{bytes({0})}, {bytes({0}), bytes({0})}, {}});
  EXPECT_EQ(scattered[0], (std::vector<Bytes>{bytes({22})}));
  EXPECT_EQ(scattered[1], (std::vector<Bytes>{bytes({20}), bytes({21})}));
  // reduce to 1 over s2 o s0 o s0 with s0 = (2,1), s2 = (3,5): (3,5) o (2,1) = (6,8); (6,8) o (2,1) = (12,14).
  // The reverse order would give (2,1) o (2,1) o (3,5) = (12,23).
  const std::vector<Bytes> send = {bytes({2, 1}), bytes({7, 7}), bytes({3, 5})};
  EXPECT_EQ(reference::reduce(graph, 1, send, {bytes({0, 0}), bytes({0, 0}), bytes({9, 9})}, compose),
            (std::vector<Bytes>{bytes({0, 0}), bytes({12, 14}), bytes({9, 9})}));
  // allreduce: 0 over s1 o s0 = (7,7) o (2,1) = (14,14); 1 as above; 2 over s2 alone.
  EXPECT_EQ(reference::allreduce(graph, send, {bytes({0, 0}), bytes({0, 0}), bytes({0, 0})}, compose),
            (std::vector<Bytes>{bytes({14, 14}), bytes({12, 14}), bytes({3, 5})}));
  // A process without sources keeps its receive buffer.
  Graph lonely(1);
  EXPECT_EQ(reference::allreduce(lonely, {bytes({1, 1})}, {bytes({4, 4})}, compose),
            (std::vector<Bytes>{bytes({4, 4})}));
}

using PlanFor = std::function<Schedule(const GraphView&)>;

std::vector<Schedule> plan_every(const Graph& graph, const PlanFor& plan_for) {
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < graph.size(); ++rank) schedules.push_back(plan_for(graph.view(rank)));
  return schedules;
}

int occurrences_of(const std::vector<int>& neighbors, int neighbor) {
  return static_cast<int>(std::count(neighbors.begin(), neighbors.end(), neighbor));
}

// With MPI_IN_PLACE a schedule reads the caller's send block only in messages (the aliased receive
// block is read before anything writes it), so the simulator, whose send and receive blocks are
// separate, proves it with the send block holding the receive block's bytes.
::testing::AssertionResult reads_send_only_in_messages(std::span<const Schedule> schedules) {
  for (std::size_t r = 0; r < schedules.size(); ++r)
    for (const Phase& phase : schedules[r].phases) {
      for (const Copy& copy : phase.copies)
        if (copy.from.buffer == Buffer::send)
          return ::testing::AssertionFailure() << "rank " << r << " copies a send block";
      for (const Reduction& reduction : phase.reductions)
        if (reduction.from.buffer == Buffer::send)
          return ::testing::AssertionFailure() << "rank " << r << " reduces a send block";
    }
  return ::testing::AssertionSuccess();
}

// Random graphs of 1-23 processes with repeated and self edges, isolated processes and (every third)
// absent neighbors, a random root, and blocks of an even number of bytes (the operation's elements
// are two bytes).
template <typename Check>
void for_random_graphs(unsigned seed, Check&& check) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 250; ++trial) {
    const Graph graph = test::random_graph(rng, {1 + trial % 23, 1 + trial % 7, trial % 3 == 0});
    ASSERT_EQ(graph.inconsistency(), "");
    const int root = std::uniform_int_distribution<int>(0, graph.size() - 1)(rng);
    const std::size_t size = 2 * static_cast<std::size_t>(trial % 4);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", p = " + std::to_string(graph.size()) + ", root " +
                 std::to_string(root));
    check(graph, root, size);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// MPI_IN_PLACE is not part of broadcast: one form only.
TEST(RandomGraphsAlone, Bcast) {
  for_random_graphs(75, [](const Graph& graph, int root, std::size_t size) {
    std::vector<Bytes> buffers;
    for (int r = 0; r < graph.size(); ++r) buffers.push_back(test::payload(r, 0, size));
    const auto schedules = plan_every(graph, [root](const GraphView& view) { return plan_bcast(view, root); });
    const Blocks expected = one_each(reference::bcast(graph, root, buffers));
    ASSERT_TRUE(test::simulates_to(schedules, one_each(buffers), one_each(buffers), expected));
  });
}

class RandomGraphs : public ::testing::TestWithParam<Contribution> {
 protected:
  template <typename Check>
  void for_random_graphs(Check&& check) {
    cartcoll::for_random_graphs(GetParam() == Contribution::in_place ? 77 : 76, std::forward<Check>(check));
  }
};

TEST_P(RandomGraphs, Gather) {
  const Contribution own = GetParam();
  for_random_graphs([&](const Graph& graph, int root, std::size_t size) {
    std::vector<Bytes> send;
    Blocks recv(static_cast<std::size_t>(graph.size()));
    for (int r = 0; r < graph.size(); ++r) send.push_back(test::payload(r, 0, size));
    for (std::size_t i = 0; i < graph.sources(root).size(); ++i)
      recv[static_cast<std::size_t>(root)].push_back(test::sentinel(root, static_cast<int>(i), size));
    Blocks expected = reference::gather(graph, root, send, recv);
    if (own == Contribution::in_place)  // the root's self-edge blocks are already in place
      for (std::size_t i = 0; i < graph.sources(root).size(); ++i)
        if (graph.sources(root)[i] == root)
          expected[static_cast<std::size_t>(root)][i] = recv[static_cast<std::size_t>(root)][i];
    Blocks send_blocks = one_each(send);
    if (own == Contribution::in_place) send_blocks[static_cast<std::size_t>(root)].clear();  // the root sends nothing
    const auto schedules = plan_every(graph, [&](const GraphView& view) { return plan_gather(view, root, own); });
    ASSERT_TRUE(test::simulates_to(schedules, send_blocks, recv, expected));
  });
}

TEST_P(RandomGraphs, Scatter) {
  const Contribution own = GetParam();
  for_random_graphs([&](const Graph& graph, int root, std::size_t size) {
    Blocks send(static_cast<std::size_t>(graph.size())), recv(send.size());
    for (std::size_t j = 0; j < graph.destinations(root).size(); ++j)
      send[static_cast<std::size_t>(root)].push_back(test::payload(root, static_cast<int>(j), size));
    for (int r = 0; r < graph.size(); ++r)
      for (int k = 0; k < occurrences_of(graph.sources(r), root); ++k)
        recv[static_cast<std::size_t>(r)].push_back(test::sentinel(r, k, size));
    Blocks expected = reference::scatter(graph, root, send, recv);
    if (own == Contribution::in_place) {  // the root receives nothing: its blocks for itself stay in its send buffer
      recv[static_cast<std::size_t>(root)].clear();
      expected[static_cast<std::size_t>(root)].clear();
    }
    const auto schedules = plan_every(graph, [&](const GraphView& view) { return plan_scatter(view, root, own); });
    ASSERT_TRUE(test::simulates_to(schedules, send, recv, expected));
  });
}

TEST_P(RandomGraphs, Reduce) {
  const Contribution own = GetParam();
  for_random_graphs([&](const Graph& graph, int root, std::size_t size) {
    std::vector<Bytes> send, recv;
    for (int r = 0; r < graph.size(); ++r) {
      recv.push_back(test::sentinel(r, 0, size));
      send.push_back(own == Contribution::in_place && r == root ? recv.back() : test::payload(r, 0, size));
    }
    Blocks recv_blocks(static_cast<std::size_t>(graph.size())), expected(recv_blocks.size());
    recv_blocks[static_cast<std::size_t>(root)] = {recv[static_cast<std::size_t>(root)]};
    expected[static_cast<std::size_t>(root)] = {
        reference::reduce(graph, root, send, recv, compose)[static_cast<std::size_t>(root)]};
    const auto schedules = plan_every(graph, [&](const GraphView& view) { return plan_reduce(view, root, own); });
    if (own == Contribution::in_place) {
      ASSERT_TRUE(reads_send_only_in_messages(schedules));
    }
    ASSERT_TRUE(test::simulates_to(schedules, one_each(send), recv_blocks, expected, compose));
  });
}

TEST_P(RandomGraphs, Allreduce) {
  const Contribution own = GetParam();
  for_random_graphs([&](const Graph& graph, int, std::size_t size) {
    std::vector<Bytes> send, recv;
    for (int r = 0; r < graph.size(); ++r) {
      recv.push_back(test::sentinel(r, 0, size));
      send.push_back(own == Contribution::in_place ? recv.back() : test::payload(r, 0, size));
    }
    const Blocks expected = one_each(reference::allreduce(graph, send, recv, compose));
    const auto schedules = plan_every(graph, [&](const GraphView& view) { return plan_allreduce(view, own); });
    if (own == Contribution::in_place) {
      ASSERT_TRUE(reads_send_only_in_messages(schedules));
    }
    ASSERT_TRUE(test::simulates_to(schedules, one_each(send), one_each(recv), expected, compose));
  });
}

INSTANTIATE_TEST_SUITE_P(Contributions, RandomGraphs, ::testing::Values(Contribution::separate, Contribution::in_place),
                         [](const auto& test_info) {
                           return std::string(test_info.param == Contribution::in_place ? "InPlace" : "Separate");
                         });

// A fold in the wrong order gives another result: the simulator notices a reversed schedule.
TEST(GraphCollectivesSimulator, AFoldInTheWrongOrderIsCaught) {
  const Graph graph = worked_example();
  auto schedules =
      plan_every(graph, [](const GraphView& view) { return plan_reduce(view, 1, Contribution::separate); });
  const std::vector<Bytes> send = {test::bytes({2, 1}), test::bytes({7, 7}), test::bytes({3, 5})};
  const Blocks recv = {{}, {test::bytes({0, 0})}, {}};
  const Blocks expected = {{}, {test::bytes({12, 14})}, {}};
  ASSERT_TRUE(test::simulates_to(schedules, one_each(send), recv, expected, compose));
  auto& steps = schedules[1].phases.at(0).reductions;
  ASSERT_EQ(steps.size(), 2u);
  std::swap(steps[0], steps[1]);
  EXPECT_FALSE(test::simulates_to(schedules, one_each(send), recv, expected, compose));
  EXPECT_THROW(simulate(schedules, one_each(send), recv), ScheduleError) << "a reduction needs an operation";
}

// The reduction step itself: sizes must agree and it may not write a send block.
TEST(GraphCollectivesSimulator, ReductionsAreChecked) {
  Schedule schedule{Collective::allgather, 1, 1, {}, {}};
  schedule.phases.push_back(Phase{{}, {}, {}, {Reduction{{Buffer::send, 0}, {Buffer::recv, 0}}}});
  const Blocks send = {{test::bytes({2, 1})}};
  EXPECT_TRUE(test::simulates_to({&schedule, 1}, send, {{test::bytes({3, 5})}}, {{test::bytes({6, 11})}}, compose));
  EXPECT_THROW(simulate({&schedule, 1}, send, {{test::bytes({3, 5, 1, 1})}}, compose), ScheduleError);
  schedule.phases[0].reductions[0] = Reduction{{Buffer::recv, 0}, {Buffer::send, 0}};
  EXPECT_THROW(simulate({&schedule, 1}, send, {{test::bytes({3, 5})}}, compose), ScheduleError);
}

// MPI_IN_PLACE alltoall: send block j is receive block j before the call. On symmetric random graphs
// (in-degree = out-degree) the staged trivial schedule gives what alltoall of the old receive blocks gives.
TEST(GraphCollectivesPlanner, InPlaceAlltoallStagesTheSendBlocks) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 120; ++trial) {
    const int p = 1 + trial % 13;
    std::vector<std::pair<int, int>> edges;
    for (int e = std::uniform_int_distribution<int>(0, 3 * p)(rng); e > 0; --e) {
      const int a = std::uniform_int_distribution<int>(0, p - 1)(rng),
                b = std::uniform_int_distribution<int>(0, p - 1)(rng);
      edges.emplace_back(a, b);
      edges.emplace_back(b, a);
    }
    const Graph graph = Graph::from_edges(p, edges);
    Blocks before(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r)
      for (std::size_t i = 0; i < graph.sources(r).size(); ++i)
        before[static_cast<std::size_t>(r)].push_back(test::payload(r, static_cast<int>(i), 3));
    const Blocks expected = reference::exchange(graph, Collective::alltoall, before, before);
    const auto schedules = plan_every(graph, [](const GraphView& view) {
      return stage_sends_in_temps(plan(Algorithm::named("trivial"), view, Collective::alltoall));
    });
    for (const Schedule& schedule : schedules) ASSERT_EQ(schedule.send_blocks, 0);
    ASSERT_TRUE(test::simulates_to(schedules, Blocks(static_cast<std::size_t>(p)), before, expected))
        << "trial " << trial;
  }
  Graph fan(2);
  fan.destinations(0) = {1, 1};
  fan.sources(1) = {0, 0};
  EXPECT_THROW(stage_sends_in_temps(plan(Algorithm::named("trivial"), fan.view(0), Collective::alltoall)), Error);
}

}  // namespace
}  // namespace cartcoll
