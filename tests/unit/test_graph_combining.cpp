// SPDX-License-Identifier: BSD-3-Clause
// graph-combining (Mirsadeghi et al.'s Exploiting Common Neighborhoods) without MPI: the set-up
// over the simulated transport (pattern extraction and friend matching), and the whole pipeline
// set-up -> schedules -> simulator checked against the reference model, on random graphs with
// repeated edges, self edges, isolated processes and absent neighbors, on Erdős–Rényi graphs and on
// Moore and von Neumann neighborhoods given as plain graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/model/graph.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/simulation/replay.hpp"
#include "core/algorithms/graph_combining/combining_setup.hpp"
#include "core/setup/lockstep.hpp"
#include "core/setup/simulated_transport.hpp"
#include "graph_support.hpp"
#include "test_support.hpp"
#include "throws.hpp"
#include "util/graphs.hpp"

namespace cartcoll {
namespace {

using test::Blocks;

const Algorithm graph_combining = Algorithm::named("graph-combining");

struct Proof {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  long long direct_messages = 0, combined_messages = 0;
};

// The set-up for every process, each process's schedule from its pattern, the simulator against the
// reference model (and the reference model against the receiver-side definition). Where sizes
// travel, every edge has a size of its own (test::graph_blocks, zeros included), which only the
// messages that carry sizes tell the forwarders; else all blocks have one. `gate`: `auto`'s size gate
// (Schedule::forward_up_to), blocks above it going straight to their receivers.
Proof prove_on_setup(const Graph& graph, const SimulatedSetup& setup, Collective collective, int* most_phases,
                     bool sizes_travel, std::optional<long long> gate = {}) {
  Proof proof;
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < graph.size(); ++rank) {
    GraphView view = graph.view(rank);
    proof.direct_messages += plan(Algorithm::named("trivial"), view, collective).messages();
    view.setup = &setup.patterns[static_cast<std::size_t>(rank)];
    schedules.push_back(plan(graph_combining, view, collective));
    schedules.back().sizes_travel = sizes_travel;
    schedules.back().forward_up_to = gate;
    proof.combined_messages += schedules.back().messages();
    if (most_phases != nullptr) *most_phases = std::max(*most_phases, static_cast<int>(schedules.back().phases.size()));
  }
  const auto [send, recv] = sizes_travel ? test::graph_blocks(graph, collective) : test::uniform_blocks(graph, collective, 3);
  const Blocks expected = reference::exchange(graph, collective, send, recv);
  if (auto ok = test::matches_graph_definition(graph, collective, recv, expected); !ok) {
    proof.result = ::testing::AssertionFailure() << "reference model: " << ok.message();
    return proof;
  }
  proof.result = test::simulates_to(schedules, send, recv, expected);
  return proof;
}

Proof prove_combining(const Graph& graph, Collective collective, const CombiningParameters& parameters,
                      int* most_phases = nullptr, bool sizes_travel = false, std::optional<long long> gate = {}) {
  return prove_on_setup(graph, simulate_combining_setup(graph, parameters), collective, most_phases, sizes_travel, gate);
}

Graph graph_of(const graphs::EdgeList& edges) { return Graph::from_edges(edges.size, edges.edges); }

// Two processes with six common out-neighbors pair in the first step and split them by rank.
TEST(CombiningSetup, TwoProcessesSharingSixOutNeighborsSplitThem) {
  std::vector<std::pair<int, int>> edges;
  for (int from : {0, 1})
    for (int to = 2; to < 8; ++to) edges.emplace_back(from, to);
  const SimulatedSetup setup = simulate_combining_setup(Graph::from_edges(8, edges), {4, 2, 8, 6});
  ASSERT_EQ(setup.patterns[0].steps.size(), 1u);
  EXPECT_EQ(setup.patterns[0].steps[0].partner, 1);
  EXPECT_EQ(setup.patterns[0].steps[0].onloaded, (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(setup.patterns[0].steps[0].offloaded, (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(setup.patterns[1].steps[0].onloaded, (std::vector<int>{5, 6, 7}));
  for (int n = 2; n < 8; ++n) {
    ASSERT_EQ(setup.patterns[static_cast<std::size_t>(n)].arrivals.size(), 1u);
    EXPECT_EQ(setup.patterns[static_cast<std::size_t>(n)].arrivals[0].carrier, n < 5 ? 0 : 1);
    EXPECT_EQ(setup.patterns[static_cast<std::size_t>(n)].arrivals[0].origins, n < 5 ? (std::vector<int>{0, 1}) : (std::vector<int>{1, 0}));
  }
  EXPECT_EQ(setup.patterns[0].steps[0].carried, (std::vector<std::vector<int>>{{1}, {1}, {1}}));
  // 2 steps of 1 + 6 + 1 rounds; an out-neighbor sends its list to both (step 0), and then has no
  // active in-neighbor left to tell who left.
  EXPECT_EQ(setup.traffic[2].rounds, 16);
  EXPECT_EQ(setup.traffic[2].messages, 2);
  EXPECT_EQ(setup.traffic[0].messages, 1 + 3 + 1) << "one proposal, three notifications, one handover";
  for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
    const Proof proof = prove_combining(Graph::from_edges(8, edges), collective, {4, 2, 8, 6});
    EXPECT_TRUE(proof.result);
    EXPECT_EQ(proof.direct_messages, 12);
    EXPECT_EQ(proof.combined_messages, 2 + 6) << "the friend exchange and one combined message per neighbor";
  }
}

// The same pair where one of them also sends to four others: the busier one hands the other more of
// the six, so that both send six messages (1 exchange + 1 combined + 4 own, 1 exchange + 5
// combined), whichever of the two has the lower rank. An even split would leave 1 + 3 + 4 = 8.
TEST(CombiningSetup, TheBusierFriendHandsTheOtherMoreOfWhatTheyShare) {
  for (const int busier : {0, 1}) {
    std::vector<std::pair<int, int>> edges;
    for (int from : {0, 1})
      for (int to = 2; to < 8; ++to) edges.emplace_back(from, to);
    for (int to = 8; to < 12; ++to) edges.emplace_back(busier, to);
    const Graph graph = Graph::from_edges(12, edges);
    const SimulatedSetup setup = simulate_combining_setup(graph, {4, 2, 8, 6});
    const CombiningStep& busy = setup.patterns[static_cast<std::size_t>(busier)].steps.at(0);
    const CombiningStep& idle = setup.patterns[static_cast<std::size_t>(1 - busier)].steps.at(0);
    EXPECT_EQ(busy.onloaded.size(), 1u) << "busier " << busier;
    EXPECT_EQ(idle.onloaded.size(), 5u) << "busier " << busier;
    for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
      for (const int rank : {0, 1}) {
        GraphView view = graph.view(rank);
        view.setup = &setup.patterns[static_cast<std::size_t>(rank)];
        EXPECT_EQ(plan(graph_combining, view, collective).messages(), 6) << "busier " << busier << ", rank " << rank;
      }
      EXPECT_TRUE(prove_combining(graph, collective, {4, 2, 8, 6}).result);
    }
  }
}

TEST(CombiningSetup, BelowTheThresholdNothingCombines) {
  std::vector<std::pair<int, int>> edges;
  for (int from : {0, 1})
    for (int to = 2; to < 5; ++to) edges.emplace_back(from, to);
  const SimulatedSetup setup = simulate_combining_setup(Graph::from_edges(5, edges), {4, 3, 8, 6});
  for (const CombiningPattern& pattern : setup.patterns) {
    EXPECT_TRUE(pattern.steps.empty());
    EXPECT_TRUE(pattern.arrivals.empty());
  }
}

TEST(CombiningSetup, ParametersAreChecked) {
  EXPECT_TRUE(throws_error([&] { validate({1, 2, 8, 6}); }, Errc::info_value));
  EXPECT_TRUE(throws_error([&] { validate({4, -1, 8, 6}); }, Errc::info_value));
  EXPECT_TRUE(throws_error([&] { validate({4, 2, 0, 6}); }, Errc::info_value));
  EXPECT_TRUE(throws_error([&] { validate({4, 2, 8, 6, 1}); }, Errc::info_value));
  EXPECT_TRUE(throws_error([&] { validate({4, 2, 8, 6, 2, -1}); }, Errc::info_value));
  validate({2, 0, 1, 1});
}

// A protocol whose processes disagree on the number of rounds is refused, not run.
TEST(SimulatedTransport, RefusesProtocolsOfDifferentLengths) {
  struct Silent final : detail::RoundProtocol {
    int length;
    explicit Silent(int n) : length(n) {}
    int rounds() const override { return length; }
    std::vector<detail::Parcel> outgoing(int) override { return {}; }
    void incoming(int, std::vector<detail::Parcel>) override {}
  };
  Silent a(2), b(3);
  detail::RoundProtocol* both[] = {&a, &b};
  EXPECT_TRUE(throws_error([&] { detail::run_simulated(both); }, Errc::intern));
}

TEST(CombiningSetup, IsDeterministic) {
  const Graph graph = graph_of(graphs::erdos_renyi(200, 0.2, 5));
  const SimulatedSetup first = simulate_combining_setup(graph, {}), second = simulate_combining_setup(graph, {});
  for (std::size_t r = 0; r < first.patterns.size(); ++r) {
    ASSERT_EQ(first.patterns[r].steps.size(), second.patterns[r].steps.size());
    for (std::size_t s = 0; s < first.patterns[r].steps.size(); ++s) {
      EXPECT_EQ(first.patterns[r].steps[s].partner, second.patterns[r].steps[s].partner);
      EXPECT_EQ(first.patterns[r].steps[s].onloaded, second.patterns[r].steps[s].onloaded);
    }
    EXPECT_EQ(first.traffic[r].messages, second.traffic[r].messages);
  }
}

// Whether two set-up results are the same, step by step and arrival by arrival.
::testing::AssertionResult same_pattern(const CombiningPattern& a, const CombiningPattern& b) {
  if (a.steps.size() != b.steps.size() || a.arrivals.size() != b.arrivals.size())
    return ::testing::AssertionFailure() << "different numbers of steps or arrivals";
  for (std::size_t s = 0; s < a.steps.size(); ++s) {
    const CombiningStep &x = a.steps[s], &y = b.steps[s];
    if (x.step != y.step || x.partner != y.partner || x.onloaded != y.onloaded || x.offloaded != y.offloaded ||
        x.carried != y.carried || x.receive_phase != y.receive_phase)
      return ::testing::AssertionFailure() << "step " << s << " differs";
  }
  for (std::size_t i = 0; i < a.arrivals.size(); ++i) {
    const CombinedArrival &x = a.arrivals[i], &y = b.arrivals[i];
    if (x.carrier != y.carrier || x.origins != y.origins || x.phase != y.phase)
      return ::testing::AssertionFailure() << "arrival " << i << " differs";
  }
  return ::testing::AssertionSuccess();
}

// `auto` runs the set-up with phase budgets 2 and 4 in lockstep: each finds exactly the patterns it
// finds alone, in the rounds of one set-up, and a process sends at most one message a peer a round
// (fewer than the two set-ups alone, over all processes).
TEST(LockstepProtocols, RunSetUpsAsEachAloneWouldInTheRoundsOfOne) {
  const Graph graph = graph_of(graphs::erdos_renyi(200, 0.2, 5));
  CombiningParameters two, four;
  four.phases = 4;
  const SimulatedSetup alone_2 = simulate_combining_setup(graph, two), alone_4 = simulate_combining_setup(graph, four);
  std::vector<std::unique_ptr<detail::CombiningSetup>> setups;
  std::vector<std::unique_ptr<detail::LockstepProtocols>> locksteps;
  std::vector<detail::RoundProtocol*> processes;
  for (int rank = 0; rank < graph.size(); ++rank) {
    for (const CombiningParameters& parameters : {two, four})
      setups.push_back(std::make_unique<detail::CombiningSetup>(graph.view(rank), parameters));
    detail::RoundProtocol* both[] = {setups[setups.size() - 2].get(), setups.back().get()};
    locksteps.push_back(std::make_unique<detail::LockstepProtocols>(both));
    processes.push_back(locksteps.back().get());
  }
  const detail::SimulatedRun run = detail::run_simulated(processes);
  long long together = 0, apart = 0;
  for (std::size_t r = 0; r < processes.size(); ++r) {
    EXPECT_TRUE(same_pattern(setups[2 * r]->pattern(), alone_2.patterns[r])) << "rank " << r << ", budget 2";
    EXPECT_TRUE(same_pattern(setups[2 * r + 1]->pattern(), alone_4.patterns[r])) << "rank " << r << ", budget 4";
    EXPECT_EQ(run.traffic[r].rounds, alone_2.traffic[r].rounds);
    together += run.traffic[r].messages;
    apart += alone_2.traffic[r].messages + alone_4.traffic[r].messages;
  }
  EXPECT_LT(together, apart);
}

// A parcel that is not [protocol, length, values...] is an internal error, not a crash.
TEST(LockstepProtocols, RefusesMalformedParcels) {
  struct Silent final : detail::RoundProtocol {
    int rounds() const override { return 1; }
    std::vector<detail::Parcel> outgoing(int) override { return {}; }
    void incoming(int, std::vector<detail::Parcel>) override {}
  } a, b;
  detail::RoundProtocol* both[] = {&a, &b};
  detail::LockstepProtocols lockstep(both);
  for (const std::vector<int>& values : std::vector<std::vector<int>>{{2, 1, 7}, {0, 3, 7}, {1}, {0, -1}})
    EXPECT_TRUE(throws_error([&] { lockstep.incoming(0, {{0, values}}); }, Errc::intern));
  EXPECT_NO_THROW(lockstep.incoming(0, {{0, {0, 1, 7, 1, 0}}}));
}

// Cumulative combining: two pairs that share out-neighbors pair again in step 1, and the carriers'
// bundles (two origins each) travel on to half of the four processes' common out-neighbors, so each
// of those receives one message with all four blocks, in the order the bundles were built, in the
// phase after the exchange that completed them.
TEST(CombiningSetup, CumulativePairsOfPairsCombineAgain) {
  std::vector<std::pair<int, int>> edges;
  for (int from = 0; from < 4; ++from)
    for (int to = 4; to < 12; ++to) edges.emplace_back(from, to);
  const Graph graph = Graph::from_edges(12, edges);
  CombiningParameters parameters{4, 3, 8, 6, 3};
  const SimulatedSetup setup = simulate_combining_setup(graph, parameters);
  const CombiningPattern& first = setup.patterns[0];
  // All six pairs share 8 out-neighbors; the tie-break (a mix of the two ranks) pairs 0 with 2 and
  // 1 with 3 first, then the pairs' lower ranks, 0 and 1.
  ASSERT_EQ(first.steps.size(), 2u);
  EXPECT_EQ(first.steps[0].partner, 2);
  EXPECT_EQ(first.steps[0].onloaded, (std::vector<int>{4, 5, 6, 7}));
  EXPECT_EQ(first.steps[1].partner, 1);
  EXPECT_EQ(first.steps[1].onloaded, (std::vector<int>{4, 5}));
  EXPECT_EQ(first.steps[1].carried, (std::vector<std::vector<int>>{{1, 3}, {1, 3}}));
  EXPECT_EQ(first.steps[0].receive_phase, 0) << "own blocks are there from the start";
  EXPECT_EQ(first.steps[1].receive_phase, 1) << "3's block reaches 1 in phase 0";
  for (int n = 4; n < 12; ++n) {
    const CombiningPattern& receiver = setup.patterns[static_cast<std::size_t>(n)];
    ASSERT_EQ(receiver.arrivals.size(), 1u) << n;
    EXPECT_EQ(receiver.arrivals[0].origins.size(), 4u) << n;
  }
  EXPECT_EQ(setup.patterns[4].arrivals[0].origins, (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(setup.patterns[4].arrivals[0].phase, 2);
  for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
    int phases = 0;
    const Proof proof = prove_combining(graph, collective, parameters, &phases);
    EXPECT_TRUE(proof.result);
    EXPECT_EQ(proof.direct_messages, 32);
    EXPECT_EQ(proof.combined_messages, 4 + 4 + 8) << "two exchanges per process and one message per receiver";
    EXPECT_EQ(phases, 3) << "step 0, step 1, the combined messages";
    parameters.phases = 2;
    EXPECT_EQ(prove_combining(graph, collective, parameters).combined_messages, 4 + 16);
    parameters.phases = 3;
  }
}

class CombiningProof : public ::testing::TestWithParam<Collective> {};

// Random graphs with every kind of edge MPI allows; Θ = 2 so that small graphs combine at all.
TEST_P(CombiningProof, RandomGraphsWithRepeatedSelfAndAbsentEdges) {
  std::mt19937 rng(4321);
  long long saved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const test::GraphShape shape{1 + trial % 23, 2 + trial % 11, trial % 3 == 0};
    const Graph graph = test::random_graph(rng, shape);
    const Proof proof = prove_combining(graph, GetParam(), {2, 1 + trial % 4, 1 + trial % 5, 1 + trial % 3, 2 + trial % 4});
    ASSERT_TRUE(proof.result) << "trial " << trial << ", p = " << shape.size;
    saved += proof.direct_messages - proof.combined_messages;
  }
  EXPECT_GT(saved, 0) << "combining never paid on 200 random graphs";
}

// Denser graphs, where combining saves messages on most processes.
TEST_P(CombiningProof, ErdosRenyiAndStencilGraphs) {
  for (const graphs::EdgeList& edges :
       {graphs::erdos_renyi(256, 0.2, 1), graphs::erdos_renyi(300, 0.05, 2), graphs::stencil_graph(256, 2, 2, true),
        graphs::stencil_graph(216, 3, 1, true), graphs::stencil_graph(64, 2, 3, false), graphs::stencil_graph(12, 2, 2, true)}) {
    for (const int phases : {2, 4, 16}) {
      int most_phases = 0;
      const Proof proof = prove_combining(graph_of(edges), GetParam(), {4, 16, 8, 6, phases}, &most_phases);
      ASSERT_TRUE(proof.result) << edges.description << ", at most " << phases << " phases";
      EXPECT_LE(most_phases, phases) << edges.description;
      if (edges.size >= 64) {
        EXPECT_LT(proof.combined_messages, proof.direct_messages) << edges.description;
      }
    }
  }
}

// The v and w forms: every edge sized apart, zero-sized ones too, and the forwarders learn the sizes
// from the messages that bring the blocks (rule 64), on the graphs above, 2 to 5 phases.
TEST_P(CombiningProof, SizesTravelWithEveryEdgeSizedApart) {
  std::mt19937 rng(8765);
  long long saved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const test::GraphShape shape{1 + trial % 23, 2 + trial % 11, trial % 3 == 0};
    const Proof proof = prove_combining(test::random_graph(rng, shape), GetParam(),
                                        {2, 1 + trial % 4, 1 + trial % 5, 1 + trial % 3, 2 + trial % 4}, nullptr, true);
    ASSERT_TRUE(proof.result) << "trial " << trial << ", p = " << shape.size;
    saved += proof.direct_messages - proof.combined_messages;
  }
  EXPECT_GT(saved, 0);
  if (GetParam() == Collective::alltoall) {  // `auto`'s size gate, blocks of 0 to 6 bytes on either side of it
    std::mt19937 gated(4321);
    for (int trial = 0; trial < 200; ++trial) {
      const test::GraphShape shape{1 + trial % 23, 2 + trial % 11, trial % 3 == 0};
      const Proof proof = prove_combining(test::random_graph(gated, shape), GetParam(),
                                          {2, 1 + trial % 4, 1 + trial % 5, 1 + trial % 3, 2 + trial % 4}, nullptr, true,
                                          trial % 8 - 1);
      ASSERT_TRUE(proof.result) << "trial " << trial << ", p = " << shape.size << ", gate " << trial % 8 - 1;
    }
  }
  for (const graphs::EdgeList& edges : {graphs::erdos_renyi(256, 0.2, 1), graphs::stencil_graph(216, 3, 1, true)})
    for (const int phases : {2, 4}) {
      const Proof proof = prove_combining(graph_of(edges), GetParam(), {4, 16, 8, 6, phases}, nullptr, true);
      ASSERT_TRUE(proof.result) << edges.description << ", at most " << phases << " phases";
      EXPECT_LT(proof.combined_messages, proof.direct_messages) << edges.description;
    }
}

// At scale: the halo graph of a 3-D mesh of 64^3 cells cut into 4096 parts (66,006 edges, no
// wrap), every edge sized apart, 2 and 4 phases, alltoall and allgather on each set-up, proven in
// the simulator (about 4 s in all; the set-up's simulation is most of it).
TEST(CombiningProof, SizesTravelOnAHaloGraphOf4096Processes) {
  const graphs::EdgeList halo = graphs::mesh_partition(4096, 3, 64, 1);
  const Graph graph = graph_of(halo);
  for (const int phases : {2, 4}) {
    const SimulatedSetup setup = simulate_combining_setup(graph, {4, 16, 8, 6, phases});
    for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
      int most_phases = 0;
      const Proof proof = prove_on_setup(graph, setup, collective, &most_phases, true);
      ASSERT_TRUE(proof.result) << halo.description << ", at most " << phases << " phases";
      EXPECT_LT(proof.combined_messages, proof.direct_messages) << halo.description;
      EXPECT_LE(most_phases, phases) << halo.description;
    }
  }
}

// Where sizes travel, a forwarder that keeps a block from a message that does not carry sizes is a
// schedule the simulator refuses: it could not know how much to keep.
TEST(CombiningProof, AForwardedBlockWithoutItsSizeIsCaught) {
  const Graph graph = graph_of(graphs::stencil_graph(64, 2, 2, true));
  const SimulatedSetup setup = simulate_combining_setup(graph, {2, 16, 8, 6, 2});
  std::vector<Schedule> schedules;
  for (int rank = 0; rank < graph.size(); ++rank) {
    GraphView view = graph.view(rank);
    view.setup = &setup.patterns[static_cast<std::size_t>(rank)];
    schedules.push_back(plan(graph_combining, view, Collective::alltoall));
    schedules.back().sizes_travel = true;
  }
  const auto [send, recv] = test::graph_blocks(graph, Collective::alltoall);
  EXPECT_NO_THROW(static_cast<void>(simulate(schedules, send, recv)));
  ASSERT_TRUE(test::drop_carried_sizes(schedules)) << "the stencil should combine";
  EXPECT_THROW(static_cast<void>(simulate(schedules, send, recv)), ScheduleError);
}

INSTANTIATE_TEST_SUITE_P(Collectives, CombiningProof, ::testing::Values(Collective::alltoall, Collective::allgather),
                         [](const auto& test_info) {
                           return std::string(test_info.param == Collective::allgather ? "allgather" : "alltoall");
                         });

// Block sizes a regular alltoall or allgather allows on `graph`: all in-neighbors of a process send it
// blocks of one size (its one receive count), so processes that share an out-neighbor send alike.
// Such groups (union-find) draw their size from `sizes`; a process without senders draws its own.
struct RegularSizes {
  std::vector<std::size_t> send, recv;
};
RegularSizes regular_sizes(const Graph& graph, std::mt19937& rng, std::span<const std::size_t> sizes) {
  const auto p = static_cast<std::size_t>(graph.size());
  std::vector<std::size_t> group(p);
  for (std::size_t r = 0; r < p; ++r) group[r] = r;
  auto root = [&](std::size_t r) {
    while (group[r] != r) r = group[r] = group[group[r]];
    return r;
  };
  std::vector<int> first_source(p, no_process);
  for (int q = 0; q < graph.size(); ++q)
    for (int from : graph.sources(q)) {
      if (from == no_process) continue;
      int& first = first_source[static_cast<std::size_t>(q)];
      if (first == no_process) first = from;
      group[root(static_cast<std::size_t>(from))] = root(static_cast<std::size_t>(first));
    }
  auto draw = [&] { return sizes[std::uniform_int_distribution<std::size_t>(0, sizes.size() - 1)(rng)]; };
  std::vector<std::size_t> of_group(p);
  for (std::size_t& size : of_group) size = draw();
  RegularSizes result;
  for (std::size_t r = 0; r < p; ++r) {
    result.send.push_back(of_group[root(r)]);
    result.recv.push_back(first_source[r] == no_process ? draw() : of_group[root(static_cast<std::size_t>(first_source[r]))]);
  }
  return result;
}

// Evens send to every odd process and odds to every even one: the evens' blocks may be sized apart
// from the odds' (each side is one group of regular_sizes).
Graph two_sided_graph(int size) {
  std::vector<std::pair<int, int>> edges;
  for (int from = 0; from < size; ++from)
    for (int to = (from + 1) % 2; to < size; to += 2) edges.emplace_back(from, to);
  return Graph::from_edges(size, edges);
}

// Under `auto` a process runs the sides of its pattern whose blocks are at most a limit, and the
// direct exchange where neither is (CombinedSides): with sizes that differ between processes as
// MPI's matching allows, some processes combine what they send but not what they receive, or the
// other way round, and every schedule still meets its peers', exactly.
TEST_P(CombiningProof, SidesChosenByEachProcesssBlockSizesFit) {
  std::mt19937 rng(2468);
  const std::size_t sizes[] = {1, 2, 5, 6};
  int mixed = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Graph graph = trial % 3 == 0   ? test::random_graph(rng, {4 + trial % 19, 3 + trial % 9, trial % 2 == 0})
                        : trial % 3 == 1 ? graph_of(graphs::erdos_renyi(8 + trial % 40, 0.5, static_cast<unsigned>(trial)))
                                         : two_sided_graph(6 + trial % 17);
    const SimulatedSetup setup = simulate_combining_setup(graph, {2, 4, 8, 6, 2 + trial % 3});
    const RegularSizes block = regular_sizes(graph, rng, sizes);
    const std::size_t limit = sizes[trial % 3];
    Blocks send(static_cast<std::size_t>(graph.size())), recv(send.size());
    std::vector<Schedule> schedules;
    for (int rank = 0; rank < graph.size(); ++rank) {
      const auto r = static_cast<std::size_t>(rank);
      const CombinedSides sides{block.send[r] <= limit, block.recv[r] <= limit};
      mixed += sides.sends != sides.receives && !setup.patterns[r].steps.empty() && !setup.patterns[r].arrivals.empty();
      const CombiningPattern pattern = restricted_to(setup.patterns[r], sides);
      GraphView view = graph.view(rank);
      view.setup = &pattern;
      schedules.push_back(plan(sides.sends || sides.receives ? graph_combining : Algorithm::named("trivial"), view, GetParam()));
      const auto blocks = GetParam() == Collective::allgather ? 1 : graph.destinations(rank).size();
      for (std::size_t j = 0; j < blocks; ++j) send[r].push_back(test::payload(rank, static_cast<int>(j), block.send[r]));
      for (std::size_t i = 0; i < graph.sources(rank).size(); ++i)
        recv[r].push_back(test::sentinel(rank, static_cast<int>(i), block.recv[r]));
    }
    const Blocks expected = reference::exchange(graph, GetParam(), send, recv);
    ASSERT_TRUE(test::matches_graph_definition(graph, GetParam(), recv, expected)) << "trial " << trial;
    ASSERT_TRUE(test::simulates_to(schedules, send, recv, expected)) << "trial " << trial << ", p = " << graph.size();
  }
  EXPECT_GT(mixed, 0) << "no process ever ran one side of its pattern only";
}

// node-combining on graphs: the set-up pairs friends only within nodes of node_size consecutive
// ranks, so every handover stays on a node; the schedules, planned by node-combining's entry, are
// exact; and fewer messages leave a node than with the direct exchange (on the denser graphs).
TEST_P(CombiningProof, NodeCombiningPairsFriendsWithinANodeOnly) {
  std::mt19937 rng(97);
  std::vector<Graph> cases = {graph_of(graphs::erdos_renyi(256, 0.2, 5)), graph_of(graphs::erdos_renyi(96, 0.5, 6)),
                              graph_of(graphs::stencil_graph(216, 3, 1, true)),
                              test::random_graph(rng, {40, 9, true})};
  const Algorithm node_combining = Algorithm::named("node-combining");
  for (std::size_t c = 0; c < cases.size(); ++c)
    for (const int node_size : {1, 4, 8, 27})
      for (const int phases : {2, 4}) {
        const Graph& graph = cases[c];
        const SimulatedSetup setup = simulate_combining_setup(graph, {2, 8, 8, 6, phases, node_size});
        long long direct_off_node = 0, combined_off_node = 0;
        auto off_node = [&](const Schedule& schedule, int rank) {
          long long count = 0;
          for (const Phase& phase : schedule.phases)
            for (const Message& send : phase.sends) count += send.peer / node_size != rank / node_size;
          return count;
        };
        std::vector<Schedule> schedules;
        for (int rank = 0; rank < graph.size(); ++rank) {
          const CombiningPattern& pattern = setup.patterns[static_cast<std::size_t>(rank)];
          for (const CombiningStep& step : pattern.steps) {
            ASSERT_EQ(step.partner / node_size, rank / node_size) << "case " << c << ", rank " << rank;
          }
          if (node_size == 1) {
            EXPECT_TRUE(pattern.steps.empty());
          }
          GraphView view = graph.view(rank);
          direct_off_node += off_node(plan(Algorithm::named("trivial"), view, GetParam()), rank);
          view.setup = &pattern;
          schedules.push_back(plan(node_combining, view, GetParam()));
          combined_off_node += off_node(schedules.back(), rank);
        }
        const auto [send, recv] = test::uniform_blocks(graph, GetParam(), 3);
        const Blocks expected = reference::exchange(graph, GetParam(), send, recv);
        ASSERT_TRUE(test::simulates_to(schedules, send, recv, expected))
            << "case " << c << ", nodes of " << node_size << ", " << phases << " phases";
        EXPECT_LE(combined_off_node, direct_off_node) << "case " << c << ", nodes of " << node_size;
        if (c < 2 && node_size >= 4) {
          EXPECT_LT(combined_off_node, direct_off_node) << "case " << c << ", nodes of " << node_size;
        }
      }
}

// Without a set-up result the planner plans the direct exchange.
TEST(GraphCombiningPlanner, WithoutAPatternIsTheDirectExchange) {
  const Graph graph = graph_of(graphs::erdos_renyi(40, 0.3, 3));
  for (int rank = 0; rank < graph.size(); ++rank) {
    for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
      const Schedule direct = plan(Algorithm::named("trivial"), graph.view(rank), collective);
      const Schedule combined = plan(graph_combining, graph.view(rank), collective);
      EXPECT_EQ(combined.phases.size(), 1u);
      EXPECT_EQ(combined.phases[0].sends, direct.phases[0].sends);
      EXPECT_EQ(combined.phases[0].recvs, direct.phases[0].recvs);
    }
  }
}

// The simulated machine of docs/simulation.md: 0.5 µs a message on its sender, 1 µs on the way.
const MessageTiming replay_timing{0.5e-6, 1e-6, 0};

// Whether every message `schedule` sends in its phases before `phase` goes to one of the friends
// of `pattern`'s steps.
::testing::AssertionResult sends_to_friends_only_before(const Schedule& schedule, const CombiningPattern& pattern,
                                                        std::size_t phase) {
  std::vector<int> friends;
  for (const CombiningStep& step : pattern.steps) friends.push_back(step.partner);
  for (std::size_t k = 0; k < std::min(phase, schedule.phases.size()); ++k)
    for (const Message& send : schedule.phases[k].sends)
      if (std::find(friends.begin(), friends.end(), send.peer) == friends.end())
        return ::testing::AssertionFailure() << "phase " << k << " sends to " << send.peer << ", no friend";
  return ::testing::AssertionSuccess();
}

// Where the set-up ran, phase 0 holds the friend exchanges alone and the direct edges go in phase 1
// with the combined messages, for graph-combining and for the direct exchange alike (a process that
// combines neither side runs the latter beside peers that combine). Replayed with a send overhead,
// the call is faster than with the direct edges in phase 0, where a process could not start its
// combined messages before the last direct message to it was in.
TEST(GraphCombiningPlanner, DirectEdgesGoWithTheCombinedMessages) {
  const Graph graph = graph_of(graphs::erdos_renyi(128, 0.4, 2));
  const SimulatedSetup setup = simulate_combining_setup(graph, {});
  for (const Collective collective : {Collective::alltoall, Collective::allgather}) {
    std::vector<Schedule> combined, direct_first;
    for (int rank = 0; rank < graph.size(); ++rank) {
      GraphView view = graph.view(rank);
      const Schedule unpatterned = plan(Algorithm::named("trivial"), view, collective);
      view.setup = &setup.patterns[static_cast<std::size_t>(rank)];
      const Schedule direct = plan(Algorithm::named("trivial"), view, collective);
      ASSERT_EQ(direct.phases.size(), 2u);
      EXPECT_TRUE(direct.phases[0].sends.empty() && direct.phases[0].recvs.empty());
      EXPECT_EQ(direct.phases[1].sends, unpatterned.phases[0].sends);
      combined.push_back(plan(graph_combining, view, collective));
      EXPECT_TRUE(sends_to_friends_only_before(combined.back(), *setup_result_of<CombiningPattern>(view), 1)) << "rank " << rank;
      // The same schedule with its direct messages (one block; combined ones carry two or more)
      // after the exchanges of phase 0, where they were before.
      Schedule moved = combined.back();
      for (std::vector<Message> Phase::*list : {&Phase::sends, &Phase::recvs}) {
        std::vector<Message>& later = moved.phases.at(1).*list;
        for (auto at = later.begin(); at != later.end();)
          if (at->blocks.size() == 1) {
            (moved.phases[0].*list).push_back(*at);
            at = later.erase(at);
          } else {
            ++at;
          }
      }
      direct_first.push_back(std::move(moved));
    }
    EXPECT_LT(replayed_call(combined, replay_timing, 4), 0.95 * replayed_call(direct_first, replay_timing, 4));
  }
}

// With a budget of P phases every delivery, direct or combined, goes in phase P - 1, and the phases
// before hold the friend exchanges alone: on this graph one round of cumulative combining (P = 4)
// then takes less time than Mirsadeghi et al.'s two phases, replayed with a send overhead.
// Delivering each combined message in the phase its bundle completes made 4 phases the slower (27.0
// against 25.0 µs in SMPI, docs/simulation.md).
TEST(GraphCombiningPlanner, CumulativeSchedulesDeliverInTheLastPhase) {
  const Graph graph = graph_of(graphs::erdos_renyi(128, 0.4, 1));
  auto call = [&](int budget) {
    CombiningParameters parameters;
    parameters.phases = budget;
    const SimulatedSetup setup = simulate_combining_setup(graph, parameters);
    std::vector<Schedule> schedules;
    for (int rank = 0; rank < graph.size(); ++rank) {
      GraphView view = graph.view(rank);
      view.setup = &setup.patterns[static_cast<std::size_t>(rank)];
      EXPECT_EQ(setup_result_of<CombiningPattern>(view)->phases, budget);
      schedules.push_back(plan(graph_combining, view, Collective::allgather));
      EXPECT_EQ(schedules.back().phases.size(), static_cast<std::size_t>(budget)) << "rank " << rank;
      EXPECT_TRUE(sends_to_friends_only_before(schedules.back(), *setup_result_of<CombiningPattern>(view), static_cast<std::size_t>(budget) - 1))
          << "rank " << rank;
      const Schedule direct = plan(Algorithm::named("trivial"), view, Collective::allgather);
      EXPECT_EQ(direct.phases.size(), static_cast<std::size_t>(budget));
    }
    return replayed_call(schedules, replay_timing, 4);
  };
  EXPECT_LT(call(4), 0.9 * call(2));
}

TEST(GraphCombiningPlanner, IsARegisteredGraphPlannerOutsideAuto) {
  const PlannerEntry& entry = graph_combining.planner();
  EXPECT_TRUE(entry.serves(NeighborhoodKind::graph));
  EXPECT_FALSE(entry.serves(NeighborhoodKind::cartesian));
  EXPECT_EQ(entry.setup, &detail::combining_setup);
  EXPECT_FALSE(entry.auto_candidate);
}

}  // namespace
}  // namespace cartcoll
