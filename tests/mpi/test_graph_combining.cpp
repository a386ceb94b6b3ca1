// SPDX-License-Identifier: BSD-3-Clause
// graph-combining over MPI (docs/graph-combining.md): the set-up runs at CC_Dist_graph_create_adjacent
// and CC_Dist_graph_create when the info key or CARTCOLL_ALGORITHM asks for it, over the MPI transport;
// all five operations in three forms on random graphs with repeated edges, self edges and isolated
// processes, against the graph reference model; the allgather's messages counted by the PMPI census
// drop where processes share out-neighbors; bad parameters are an info-value error everywhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unistd.h>
#include <fstream>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "../graph_cases.hpp"
#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"
#include "../support/graph_checks.hpp"
#include "../support/graph_traffic.hpp"
#include "../support/handle_census.hpp"
#include "../support/orders_and_leaks.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/neighbor.h"
#include "traffic_census.hpp"

using namespace support;
using cartcoll::Graph;

namespace {

constexpr std::chrono::seconds deadline{240};

TEST(GraphCombining, RandomGraphsEveryOperationAndForm) {
  const Watchdog watchdog("graph-combining on random graphs", deadline);
  const CombiningInfo info;
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Graph graph = seed == 3 ? dense_graph(seed) : shared_graph(seed, world_size() + 2);
    MPI_Comm comm = create_adjacent(graph, info.get());
    ASSERT_NE(comm, MPI_COMM_NULL);
    every_operation_and_form(comm, seed);
    MPI_Comm_free(&comm);
    expect_no_leaks();
  }
}

// Cumulative combining: pairs of pairs forward what they were handed, over up to four phases.
TEST(GraphCombining, CumulativeCombiningEveryOperationAndForm) {
  const Watchdog watchdog("cumulative graph-combining", deadline);
  const CombiningInfo info("2", "4", "4");
  MPI_Comm comm = create_adjacent(dense_graph(11), info.get());
  ASSERT_NE(comm, MPI_COMM_NULL);
  every_operation_and_form(comm, 11);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// The allgather of process rank + 2000 on `comm`, checked, and the messages all processes sent for it.
long long gathered_messages(MPI_Comm comm, const Graph& graph) {
  std::vector<int> recv(graph.sources(world_rank()).size(), -1);
  const int mine = 2000 + world_rank();
  const long long sent = messages_everywhere(
      [&] { ASSERT_EQ(CC_Neighbor_allgather(&mine, 1, MPI_INT, recv.data(), 1, MPI_INT, comm), MPI_SUCCESS); });
  for (std::size_t i = 0; i < recv.size(); ++i) EXPECT_EQ(recv[i], 2000 + graph.sources(world_rank())[i]) << "block " << i;
  return sent;
}

// The allgather on the dense graph, counted by the PMPI census over all processes: one message per
// edge to another process without combining; fewer with it from 7 processes on (a pair shares up to
// p - 2 >= 5 out-neighbors, Θ = 4); the same below 6 (p - 2 < Θ: nobody has a friend). alltoallv,
// every edge sized apart, combines alike: the friends learn the sizes from the exchange.
TEST(GraphCombining, SavesMessagesWhereProcessesShareOutNeighbors) {
  const Watchdog watchdog("graph-combining saves messages", deadline);
  const Graph graph = dense_graph(7);
  const CombiningInfo info("4");
  MPI_Comm comm = create_adjacent(graph, info.get());
  ASSERT_NE(comm, MPI_COMM_NULL);
  const long long combined = gathered_messages(comm, graph);
  if (world_size() >= 7) EXPECT_LT(combined, direct_messages(graph));
  else if (world_size() < 6) EXPECT_EQ(combined, direct_messages(graph));
  const long long v_form = checked_messages(comm, graph, Op::alltoallv, 7, Sizes::per_edge);
  if (world_size() >= 7) EXPECT_LT(v_form, direct_messages(graph));
  else if (world_size() < 6) EXPECT_EQ(v_form, direct_messages(graph));
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// alltoallw with MPI_BOTTOM and absolute byte displacements, every edge sized apart (1 to 3 ints by
// sender and receiver), so that forwarders pack blocks given by absolute addresses (MPICH 4.0.2's
// MPI_Pack refuses MPI_BOTTOM: Execution::packable), every form; each int names its sender, its
// receiver and its place.
TEST(GraphCombining, AbsoluteAddressesTravelWithTheirSizes) {
  const Watchdog watchdog("graph-combining from MPI_BOTTOM", deadline);
  const Graph graph = dense_graph(13);
  const CombiningInfo info;
  MPI_Comm comm = create_adjacent(graph, info.get());
  ASSERT_NE(comm, MPI_COMM_NULL);
  const int rank = world_rank();
  const std::vector<int>& out = graph.destinations(rank);
  const std::vector<int>& in = graph.sources(rank);
  auto ints = [](int from, int to) { return 1 + (from * 7 + to * 3) % 3; };
  auto value = [](int from, int to, int e) { return 100000 * from + 100 * to + e; };
  std::vector<std::vector<int>> send(out.size()), recv(in.size());
  std::vector<int> send_counts, recv_counts;
  std::vector<MPI_Aint> send_at, recv_at;
  for (std::size_t j = 0; j < out.size(); ++j) {
    for (int e = 0; e < ints(rank, out[j]); ++e) send[j].push_back(value(rank, out[j], e));
    send_counts.push_back(ints(rank, out[j]));
    MPI_Get_address(send[j].data(), &send_at.emplace_back());
  }
  for (std::size_t i = 0; i < in.size(); ++i) {
    recv[i].assign(static_cast<std::size_t>(ints(in[i], rank)) + 1, -1);  // one int more: left as it was
    recv_counts.push_back(ints(in[i], rank));
    MPI_Get_address(recv[i].data(), &recv_at.emplace_back());
  }
  const std::vector<MPI_Datatype> send_types(out.size(), MPI_INT), recv_types(in.size(), MPI_INT);
  for (const Form form : all_forms) {
    for (std::vector<int>& block : recv) std::fill(block.begin(), block.end(), -1);
    MPI_Request request = MPI_REQUEST_NULL;
    if (form == Form::blocking) {
      ASSERT_EQ(CC_Neighbor_alltoallw(MPI_BOTTOM, send_counts.data(), send_at.data(), send_types.data(), MPI_BOTTOM,
                                      recv_counts.data(), recv_at.data(), recv_types.data(), comm),
                MPI_SUCCESS);
    } else if (form == Form::nonblocking) {
      ASSERT_EQ(CC_Ineighbor_alltoallw(MPI_BOTTOM, send_counts.data(), send_at.data(), send_types.data(), MPI_BOTTOM,
                                       recv_counts.data(), recv_at.data(), recv_types.data(), comm, &request),
                MPI_SUCCESS);
      ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    } else {
      ASSERT_EQ(CC_Neighbor_alltoallw_init(MPI_BOTTOM, send_counts.data(), send_at.data(), send_types.data(),
                                           MPI_BOTTOM, recv_counts.data(), recv_at.data(), recv_types.data(), comm,
                                           MPI_INFO_NULL, &request),
                MPI_SUCCESS);
      ASSERT_EQ(CC_Start(&request), MPI_SUCCESS);
      ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
      ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
    }
    for (std::size_t i = 0; i < in.size(); ++i)
      for (int e = 0; e <= ints(in[i], rank); ++e)
        EXPECT_EQ(recv[i][static_cast<std::size_t>(e)], e < ints(in[i], rank) ? value(in[i], rank, e) : -1)
            << name(form) << ", block " << i << " from " << in[i] << ", int " << e;
  }
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// A forwarded message longer than the slot its receiver posts for it sends the rest as a tail right
// behind it (src/runtime/exec/sized_messages.hpp): with blocks of thousands of ints every operation
// and form is exact, and from 4 processes on an alltoallv on the dense graph sends more messages than
// the same call with blocks of a few ints: the tails.
TEST(GraphCombining, MessagesLongerThanTheirSlotsSendTails) {
  const Watchdog watchdog("tails of long forwarded messages", deadline);
  const CombiningInfo info;
  const Graph graph = dense_graph(23);
  MPI_Comm comm = create_adjacent(graph, info.get());
  ASSERT_NE(comm, MPI_COMM_NULL);
  const long long short_blocks = checked_messages(comm, graph, Op::alltoallv, 3, Sizes::per_edge);
  const long long long_blocks = checked_messages(comm, graph, Op::alltoallv, 3, Sizes::per_edge_long);
  if (world_size() >= 4) EXPECT_GT(long_blocks, short_blocks);
  every_operation_and_form(comm, 23, Sizes::per_edge_long);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// With cartcoll_assert_uniform_blocks the user promises one signature for every block, so v and w
// calls combine as one-count calls do: every operation and form exact with blocks of one size, and
// alltoallv on the dense graph sends fewer messages than one per edge from 7 processes on.
TEST(GraphCombining, TheUniformBlocksAssertionCombinesVAndWCalls) {
  const Watchdog watchdog("graph-combining with uniform blocks", deadline);
  const Graph graph = dense_graph(7);
  CombiningInfo info("4");
  info.set("cartcoll_assert_uniform_blocks", "true");
  MPI_Comm comm = create_adjacent(graph, info.get());
  ASSERT_NE(comm, MPI_COMM_NULL);
  const long long sent = checked_messages(comm, graph, Op::alltoallv, 5);
  if (world_size() >= 7) EXPECT_LT(sent, direct_messages(graph));
  every_operation_and_form(comm, 7, Sizes::uniform);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// node-combining on a graph is graph-combining's set-up with friends on the same node only
// (cartcoll_node_size): every operation and form exact; counted by the PMPI census on the dense
// graph's allgather, nodes of one process send what the direct exchange sends, nodes of two fewer
// from 7 processes on (a node's two share p - 2 out-neighbors), and one node of everybody what
// graph-combining sends.
TEST(GraphCombining, NodeCombiningPairsFriendsOnANode) {
  const Watchdog watchdog("node-combining on graphs", deadline);
  const Graph graph = dense_graph(13);
  const std::vector<int>& sources = graph.sources(world_rank());
  std::vector<int> recv(sources.size(), -1);
  const int mine = 1000 + world_rank();
  auto allgather_messages = [&](const std::string& algorithm, int node_size) {
    CombiningInfo info("2", "2", "2", algorithm);
    info.set("cartcoll_node_size", std::to_string(node_size));
    MPI_Comm comm = create_adjacent(graph, info.get());
    every_operation_and_form(comm, 13);
    const long long messages = messages_everywhere(
        [&] { EXPECT_EQ(CC_Neighbor_allgather(&mine, 1, MPI_INT, recv.data(), 1, MPI_INT, comm), MPI_SUCCESS); });
    for (std::size_t i = 0; i < sources.size(); ++i) EXPECT_EQ(recv[i], 1000 + sources[i]) << "block " << i;
    MPI_Comm_free(&comm);
    return messages;
  };
  EXPECT_EQ(allgather_messages("node-combining", 1), direct_messages(graph));
  const long long pairs = allgather_messages("node-combining", 2);
  if (world_size() >= 7) EXPECT_LT(pairs, direct_messages(graph));
  EXPECT_EQ(allgather_messages("node-combining", world_size()), allgather_messages("graph-combining", world_size()));
  expect_no_leaks();
}

// A node size below 1, or different on one process, fails graph creation everywhere alike.
TEST(GraphCombining, BadOrDifferentNodeSizesFailEverywhere) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const Graph graph = shared_graph(5);
  for (const std::string node_size : {"0", "two"}) {
    CombiningInfo info("2", "2", "2", "node-combining");
    info.set("cartcoll_node_size", node_size);
    int code = MPI_SUCCESS;
    MPI_Comm comm = create_adjacent(graph, info.get(), &code);
    expect_everywhere(code, MPI_ERR_INFO_VALUE, &comm);
  }
  if (world_size() > 1) {
    CombiningInfo info("2", "2", "2", "node-combining");
    info.set("cartcoll_node_size", world_rank() == world_size() - 1 ? "3" : "2");
    int code = MPI_SUCCESS;
    MPI_Comm comm = create_adjacent(graph, info.get(), &code);
    expect_everywhere(code, MPI_ERR_ARG, &comm);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

// A communicator MPI made gets its set-up at its first blocking call, with the settings of that
// moment (the environment here): from then on graph-combining combines as on a CC_ communicator (from
// 7 processes on, as SavesMessagesWhereProcessesShareOutNeighbors), exactly, in every operation and form.
TEST(GraphCombining, CommunicatorsMpiMadeSetUpAtTheFirstBlockingCall) {
  const Watchdog watchdog("graph-combining on an MPI communicator", deadline);
  const Graph graph = dense_graph(13);
  MPI_Comm comm = mpi_adjacent(graph);
  ASSERT_NE(comm, MPI_COMM_NULL);
  setenv("CARTCOLL_ALGORITHM", "graph-combining", 1);
  gathered_messages(comm, graph);  // the set-up runs here
  unsetenv("CARTCOLL_ALGORITHM");
  const long long combined = gathered_messages(comm, graph);
  if (world_size() >= 7) EXPECT_LT(combined, direct_messages(graph));
  else if (world_size() < 6) EXPECT_EQ(combined, direct_messages(graph));
  every_operation_and_form(comm, 13);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// A nonblocking call may not communicate, so where the first call is nonblocking no set-up runs, then
// or later: one message per edge.
TEST(GraphCombining, CommunicatorsMpiMadeFirstCalledNonblockingRunTheDirectExchange) {
  const Watchdog watchdog("graph-combining on an MPI communicator, first call nonblocking", deadline);
  const Graph graph = dense_graph(13);
  MPI_Comm comm = mpi_adjacent(graph);
  ASSERT_NE(comm, MPI_COMM_NULL);
  setenv("CARTCOLL_ALGORITHM", "graph-combining", 1);
  std::vector<int> recv(graph.sources(world_rank()).size(), -1);
  const int mine = 2000 + world_rank();
  MPI_Request request = MPI_REQUEST_NULL;
  ASSERT_EQ(CC_Ineighbor_allgather(&mine, 1, MPI_INT, recv.data(), 1, MPI_INT, comm, &request), MPI_SUCCESS);
  ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(gathered_messages(comm, graph), direct_messages(graph));
  unsetenv("CARTCOLL_ALGORITHM");
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// CARTCOLL_ALGORITHM and CARTCOLL_COMBINING_STEPS force it on the general form too.
TEST(GraphCombining, EnvironmentForcesItOnTheGeneralForm) {
  const Watchdog watchdog("graph-combining from the environment", deadline);
  const Graph graph = dense_graph(11);
  setenv("CARTCOLL_ALGORITHM", "graph-combining", 1);
  setenv("CARTCOLL_COMBINING_STEPS", "3", 1);
  std::vector<int> sources, degrees, destinations;
  if (world_rank() == 0)  // rank 0 names every edge
    for (int from = 0; from < graph.size(); ++from) {
      sources.push_back(from);
      degrees.push_back(static_cast<int>(graph.destinations(from).size()));
      destinations.insert(destinations.end(), graph.destinations(from).begin(), graph.destinations(from).end());
    }
  MPI_Comm comm = MPI_COMM_NULL;
  const int code = CC_Dist_graph_create(MPI_COMM_WORLD, static_cast<int>(sources.size()), sources.data(), degrees.data(),
                                        destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm);
  unsetenv("CARTCOLL_ALGORITHM");
  unsetenv("CARTCOLL_COMBINING_STEPS");
  ASSERT_EQ(code, MPI_SUCCESS);
  every_operation_and_form(comm, 11);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// A threshold below 2 or a value that is no number: MPI_ERR_INFO_VALUE on every process, no
// communicator; values that differ between processes: MPI_ERR_ARG on every process.
TEST(GraphCombining, BadParametersAreInfoValueErrors) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const Graph graph = shared_graph(5);
  for (const std::string threshold : {"1", "four"}) {
    const CombiningInfo info(threshold);
    int code = MPI_SUCCESS;
    MPI_Comm comm = create_adjacent(graph, info.get(), &code);
    expect_everywhere(code, MPI_ERR_INFO_VALUE, &comm);
  }
  {
    const CombiningInfo info("4", "2", "1");
    int code = MPI_SUCCESS;
    MPI_Comm comm = create_adjacent(graph, info.get(), &code);
    expect_everywhere(code, MPI_ERR_INFO_VALUE, &comm);
  }
  // Valid but different on one process: the agreement fails everywhere alike.
  if (world_size() > 1) {
    const bool last = world_rank() == world_size() - 1;
    for (const auto& [threshold, phases] : {std::pair{last ? "3" : "4", "2"}, std::pair{"4", last ? "3" : "2"}}) {
      const CombiningInfo info(threshold, "2", phases);
      int code = MPI_SUCCESS;
      MPI_Comm comm = create_adjacent(graph, info.get(), &code);
      expect_everywhere(code, MPI_ERR_ARG, &comm);
    }
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}


// Under `auto`, the set-up runs where processes have on average 2Θ = 8 single out-neighbors (the
// dense graph from 12 processes on, whatever its random repeated edges) and `auto` then combines
// where the model says it pays: fewer messages for allgather and alltoall, every operation and form
// exact. Up to 8 processes nothing changes.
TEST(GraphCombining, AutoCombinesWhereTheModelSaysItPays) {
  const Watchdog watchdog("auto and graph-combining", deadline);
  const Profile profile;
  const Graph graph = dense_graph(17);
  MPI_Comm comm = create_adjacent(graph, MPI_INFO_NULL);
  ASSERT_NE(comm, MPI_COMM_NULL);
  const long long gathered = checked_messages(comm, graph, Op::allgather, 3);
  const long long exchanged = checked_messages(comm, graph, Op::alltoall, 4);
  if (world_size() >= 12) {  // the random graph's repeated edges leave at least 8 single ones
    EXPECT_LT(gathered, direct_messages(graph));
    EXPECT_LT(exchanged, direct_messages(graph));
  } else if (world_size() <= 8) {  // at most 7 out-neighbors each: no set-up
    EXPECT_EQ(gathered, direct_messages(graph));
    EXPECT_EQ(exchanged, direct_messages(graph));
  }
  every_operation_and_form(comm, 17);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// On a graph where no process has 2Θ single out-neighbors (a ring with chords: 3 each), `auto` runs
// no set-up: creating the communicator sends exactly the messages it sends with `trivial` forced.
TEST(GraphCombining, AutoRunsNoSetUpOnSparseGraphs) {
  const Watchdog watchdog("auto without set-up", deadline);
  const int p = world_size();
  Graph graph(p);
  for (int from = 0; from < p; ++from)
    for (int step : {1, 2, 5}) {
      graph.destinations(from).push_back((from + step) % p);
      graph.sources((from + step) % p).push_back(from);
    }
  const AlgorithmInfo trivial("trivial");
  auto messages_to_create = [&](MPI_Info info) {
    MPI_Comm comm = MPI_COMM_NULL;
    const long long messages = messages_everywhere([&] { comm = create_adjacent(graph, info); });
    MPI_Comm_free(&comm);
    return messages;
  };
  EXPECT_EQ(messages_to_create(MPI_INFO_NULL), messages_to_create(trivial.get()));
  expect_no_leaks();
}

// Without a profile, `auto` measures its limit at the first blocking call of a family (a collective
// point: the trial's own messages come on top of the call's), keeps it, and nonblocking calls, which
// never communicate before they return, then follow it: the same messages as the blocking call.
TEST(GraphCombining, AutoMeasuresAtTheFirstBlockingCallAndKeepsIt) {
  const Watchdog watchdog("auto measures on a graph", deadline);
  const Graph graph = dense_graph(19);
  MPI_Comm comm = create_adjacent(graph, MPI_INFO_NULL);
  ASSERT_NE(comm, MPI_COMM_NULL);
  const std::vector<int>& sources = graph.sources(world_rank());
  const std::size_t out = std::max<std::size_t>(graph.destinations(world_rank()).size(), 1);
  for (const bool gather : {false, true}) {
    std::vector<int> send(out), recv(sources.size() + 1, -1);
    for (std::size_t j = 0; j < out; ++j) send[j] = 100 * world_rank() + (gather ? 0 : static_cast<int>(j));
    auto blocking = [&] {
      ASSERT_EQ(gather ? CC_Neighbor_allgather(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm)
                       : CC_Neighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm),
                MPI_SUCCESS);
    };
    auto nonblocking = [&] {
      MPI_Request request = MPI_REQUEST_NULL;
      ASSERT_EQ(gather ? CC_Ineighbor_allgather(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm, &request)
                       : CC_Ineighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm, &request),
                MPI_SUCCESS);
      ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    };
    const long long measuring = messages_everywhere(blocking), measured = messages_everywhere(blocking);
    if (world_size() >= 12) EXPECT_GT(measuring, 2 * measured) << "no trial at the first call";
    EXPECT_EQ(messages_everywhere(nonblocking), measured);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const std::vector<int>& theirs = graph.destinations(sources[i]);
      const auto at = std::find(theirs.begin(), theirs.end(), world_rank()) - theirs.begin();
      if (std::count(sources.begin(), sources.end(), sources[i]) == 1)  // a repeated edge's k-th block is another test's
        EXPECT_EQ(recv[i], 100 * sources[i] + (gather ? 0 : static_cast<int>(at))) << "block " << i;
    }
  }
  // An alltoallv, every edge sized apart, measures its own limit (with the sizes travelling, as its
  // calls run) at its first blocking call, and keeps it; both calls exact.
  const long long measuring = checked_messages(comm, graph, Op::alltoallv, 5, Sizes::per_edge);
  const long long measured = checked_messages(comm, graph, Op::alltoallv, 6, Sizes::per_edge);
  if (world_size() >= 12) EXPECT_GT(measuring, 2 * measured) << "no trial at the first alltoallv";
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// Where no phase budget is given, `auto` runs the set-up with budgets 2 and 4 and keeps the one the
// model predicts faster for the slowest process. Every process sends to every process outside its
// group of 8 consecutive ranks, so the 8 share all their out-neighbors: pairs of pairs (budget 4)
// send far fewer messages than pairs (2), which the census counts with each budget forced; under a
// profile where a phase costs almost nothing and a message 10 us, `auto` sends what budget 4 sends,
// and a budget the info key gives (2) is kept. At 16 processes (two groups: 8 out-neighbors each, 2Θ)
// the set-up runs and 4 wins clearly; below, each group is everybody and nothing is sent; above, the
// results are checked (each collective may also be left to trivial there).
TEST(GraphCombining, AutoChoosesThePhaseBudgetTheModelPrefers) {
  const Watchdog watchdog("auto chooses the phase budget", deadline);
  const Profile profile("1e-9 1e-5 1e-12");
  const int p = world_size(), rank = world_rank();
  Graph graph(p);
  for (int from = 0; from < p; ++from)
    for (int to = 0; to < p; ++to)
      if (to / 8 != from / 8) {
        graph.destinations(from).push_back(to);
        graph.sources(to).push_back(from);
      }
  auto both_collectives = [&](MPI_Info info) {
    MPI_Comm comm = create_adjacent(graph, info);
    const Sent sent = regular_calls(graph, comm);
    MPI_Comm_free(&comm);
    return sent;
  };
  const CombiningInfo budget_2("4", "16", "2"), budget_4("4", "16", "4");
  const Sent two = both_collectives(budget_2.get()), four = both_collectives(budget_4.get());
  const Sent chosen = both_collectives(MPI_INFO_NULL);
  if (p < 16) {
    EXPECT_EQ(chosen.total, 2 * direct_messages(graph));
  } else if (p == 16) {
    EXPECT_LT(four.most, two.most) << "the graph should tell the budgets apart";
    EXPECT_EQ(chosen.total, four.total);
    AlgorithmInfo given("");
    given.set("cartcoll_combining_phases", "2");
    EXPECT_EQ(both_collectives(given.get()).total, two.total) << "the given budget is kept";
  }
  expect_no_leaks();
}

// Even ranks send to every odd rank and odd ranks to every even one, evens 1 int a block and odds
// 16384. Under a profile whose model combines blocks up to some KiB (1 us a message, 1 ns a byte:
// 3 messages saved against 1 to 4 blocks forwarded: 7 KiB for alltoall, 29 for allgather), each process combines the side of its
// pattern whose blocks are small: evens what they send, odds what they receive. At even counts from
// 16 processes on (8 out-neighbors each, 2Θ = 8) evens send fewer messages than edges and odds
// exactly one per edge; results exact everywhere, for alltoall and allgather, blocking and persistent. The phase
// budget is given (2), so that these limits are the ones the model gives.
TEST(GraphCombining, AutoCombinesTheSideWhoseBlocksAreSmall) {
  const Watchdog watchdog("auto combining one side", deadline);
  const Profile profile("1e-6 1e-5 1e-9");
  const int p = world_size(), rank = world_rank();
  Graph graph(p);
  for (int from = 0; from < p; ++from)
    for (int to = (from + 1) % 2; to < p; to += 2) {
      graph.destinations(from).push_back(to);
      graph.sources(to).push_back(from);
    }
  AlgorithmInfo budget_2("");
  budget_2.set("cartcoll_combining_phases", "2");
  MPI_Comm comm = create_adjacent(graph, budget_2.get());
  ASSERT_NE(comm, MPI_COMM_NULL);
  auto block_ints = [](int process) { return process % 2 == 0 ? 1 : 16384; };
  const std::vector<int>& sources = graph.sources(rank);
  const std::vector<int>& destinations = graph.destinations(rank);
  const int out = block_ints(rank), in = block_ints(rank + 1);
  auto value = [](int sender, int block, int element) { return sender * 1000000 + block * 10000 + element % 10000; };
  for (const bool gather : {false, true}) {
    for (const bool persistent : {false, true}) {
      const std::size_t send_blocks = gather ? 1 : destinations.size();
      std::vector<int> send(send_blocks * static_cast<std::size_t>(out)), recv(sources.size() * static_cast<std::size_t>(in), -1);
      for (std::size_t j = 0; j < send_blocks; ++j)
        for (int e = 0; e < out; ++e) send[j * static_cast<std::size_t>(out) + static_cast<std::size_t>(e)] = value(rank, static_cast<int>(j), e);
      census::reset_traffic();
      if (persistent) {
        MPI_Request request = MPI_REQUEST_NULL;
        ASSERT_EQ(gather ? CC_Neighbor_allgather_init(send.data(), out, MPI_INT, recv.data(), in, MPI_INT, comm, MPI_INFO_NULL, &request)
                         : CC_Neighbor_alltoall_init(send.data(), out, MPI_INT, recv.data(), in, MPI_INT, comm, MPI_INFO_NULL, &request),
                  MPI_SUCCESS);
        census::reset_traffic();
        ASSERT_EQ(CC_Start(&request), MPI_SUCCESS);
        ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
        ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
      } else {
        ASSERT_EQ(gather ? CC_Neighbor_allgather(send.data(), out, MPI_INT, recv.data(), in, MPI_INT, comm)
                         : CC_Neighbor_alltoall(send.data(), out, MPI_INT, recv.data(), in, MPI_INT, comm),
                  MPI_SUCCESS);
      }
      const long long sent = census::traffic().messages;
      const std::string what = std::string(gather ? "allgather" : "alltoall") + (persistent ? ", persistent" : "");
      for (std::size_t i = 0; i < sources.size(); ++i) {
        const std::vector<int>& theirs = graph.destinations(sources[i]);
        const int block = gather ? 0 : static_cast<int>(std::find(theirs.begin(), theirs.end(), rank) - theirs.begin());
        for (int e = 0; e < in; ++e)
          ASSERT_EQ(recv[i * static_cast<std::size_t>(in) + static_cast<std::size_t>(e)], value(sources[i], block, e))
              << what << ", block " << i << ", element " << e;
      }
      // With p odd, every process's neighbors are the cells of the other colour of a checkerboard on
      // MPI_Dims_create's mesh (27: 9 x 3), so the graph is detected as Cartesian (rule 60) and runs
      // the Cartesian planners instead: only the results are checked there.
      const bool stays_a_graph = p >= 16 && p % 2 == 0;
      if (stays_a_graph && rank % 2 == 0) EXPECT_LT(sent, static_cast<long long>(destinations.size())) << what;
      if (stays_a_graph && rank % 2 == 1) EXPECT_EQ(sent, static_cast<long long>(destinations.size())) << what;
    }
  }
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// The last process's send block `block` holds `ints` ints, whatever its receiver expects.
struct Missized {
  int block, ints;
};

// Large blocks: beyond Open MPI 4.1.4's eager limit over shared memory (4 kB), or not (its
// single-copy receive of a truncated message writes past the receive block).
constexpr int large_ints = 16384, large_but_eager_ints = 512;

// What one call of gated_alltoallv did: the messages all processes sent, and this process's code.
struct GatedCall {
  long long sent;
  int code;
};

// One alltoallv of `form` on `graph`'s communicator, where some blocks are `large` ints or all are
// small (1-3 ints), checked exactly (a missized block: its ints at the start of its receive block,
// the rest untouched, unless it is larger than that block, whose contents MPI leaves open).
GatedCall gated_alltoallv(const Graph& graph, MPI_Comm comm, bool some_large, Form form, int large = large_ints,
                          const Missized* missized = nullptr) {
  const int rank = world_rank(), last = world_size() - 1;
  const std::vector<int>& sources = graph.sources(rank);
  const std::vector<int>& destinations = graph.destinations(rank);
  auto value = [](int sender, int block, int element) { return sender * 1000000 + block * 10000 + element % 10000; };
  auto ints = [some_large, large](int from, int to) { return some_large && (from + 2 * to) % 3 == 0 ? large : 1 + (from + to) % 3; };
  auto sent_ints = [&](int from, int block, int to) {
    return missized != nullptr && from == last && block == missized->block ? missized->ints : ints(from, to);
  };
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls, send;
  for (std::size_t j = 0; j < destinations.size(); ++j) {
    sdispls.push_back(static_cast<int>(send.size()));
    sendcounts.push_back(sent_ints(rank, static_cast<int>(j), destinations[j]));
    for (int e = 0; e < sendcounts.back(); ++e) send.push_back(value(rank, static_cast<int>(j), e));
  }
  int total = 0;
  for (int from : sources) {
    rdispls.push_back(total);
    recvcounts.push_back(ints(from, rank));
    total += recvcounts.back();
  }
  std::vector<int> recv(static_cast<std::size_t>(total) + 1, -1);
  int code = MPI_SUCCESS;
  const long long sent = messages_everywhere([&] {
    MPI_Request request = MPI_REQUEST_NULL;
    if (form == Form::blocking) {
      code = CC_Neighbor_alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, recv.data(),
                                   recvcounts.data(), rdispls.data(), MPI_INT, comm);
      return;
    }
    if (form == Form::nonblocking)
      ASSERT_EQ(CC_Ineighbor_alltoallv(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, recv.data(),
                                       recvcounts.data(), rdispls.data(), MPI_INT, comm, &request), MPI_SUCCESS);
    else
      ASSERT_EQ(CC_Neighbor_alltoallv_init(send.data(), sendcounts.data(), sdispls.data(), MPI_INT, recv.data(),
                                           recvcounts.data(), rdispls.data(), MPI_INT, comm, MPI_INFO_NULL, &request),
                MPI_SUCCESS);
    if (form == Form::persistent) ASSERT_EQ(CC_Start(&request), MPI_SUCCESS);
    code = CC_Wait(&request, MPI_STATUS_IGNORE);
    if (form == Form::persistent) ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
  });
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const std::vector<int>& theirs = graph.destinations(sources[i]);
    const auto occurrence = std::count(sources.begin(), sources.begin() + static_cast<std::ptrdiff_t>(i), sources[i]);
    auto at = theirs.begin();
    for (long k = 0; k <= occurrence; ++k) at = std::find(k == 0 ? theirs.begin() : at + 1, theirs.end(), rank);
    const int block = static_cast<int>(at - theirs.begin());
    const int arrived = sent_ints(sources[i], block, rank);
    if (arrived > recvcounts[i]) continue;  // truncated
    for (int e = 0; e < recvcounts[i]; ++e)
      EXPECT_EQ(recv[static_cast<std::size_t>(rdispls[i] + e)], e < arrived ? value(sources[i], block, e) : -1)
          << (some_large ? "some large, " : "all small, ") << "form " << static_cast<int>(form) << ", block " << i;
  }
  EXPECT_EQ(recv.back(), -1) << "written past the last block";
  return {sent, code};
}

// An alltoallv under `auto` where the set-up ran (the dense graph from 12 processes on): each block is
// forwarded where it is small and sent straight to its receiver where it is large, by the limit the
// model gives, which both ends of a block apply to its size alike (rule 66): blocking, nonblocking
// and persistent, exact. With every block small the calls send fewer messages than edges; the first
// call of the communicator is nonblocking, so it decides without any call that communicates. With
// some blocks large the calls send more messages than with all small: those go straight.
TEST(GraphCombining, AutoGatesTheBlocksOfVFormsBySize) {
  const Watchdog watchdog("auto gates v-form blocks", deadline);
  const Profile profile("1e-6 1e-5 1e-9");
  const Graph graph = dense_graph(19);
  MPI_Comm comm = create_adjacent(graph, MPI_INFO_NULL);
  ASSERT_NE(comm, MPI_COMM_NULL);
  long long all_small[3] = {};
  for (const bool some_large : {false, true})
    for (const Form form : {Form::nonblocking, Form::blocking, Form::persistent}) {
      const auto [sent, code] = gated_alltoallv(graph, comm, some_large, form);
      EXPECT_EQ(code, MPI_SUCCESS);
      if (!some_large && world_size() >= 12) EXPECT_LT(sent, direct_messages(graph)) << "form " << static_cast<int>(form);
      // The large blocks leave the friend exchanges (announced absent there) for messages of their own.
      if (!some_large) all_small[static_cast<std::size_t>(form)] = sent;
      else if (world_size() >= 12) EXPECT_GT(sent, all_small[static_cast<std::size_t>(form)]) << "form " << static_cast<int>(form);
      if (world_size() <= 8) EXPECT_EQ(sent, direct_messages(graph)) << "no set-up runs";
    }
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// The gate's straight blocks need tags of their own (the upper half of the library's tag range): a
// communicator whose range is too small for them (CARTCOLL_MAX_TAG below 255) runs the v forms
// direct under `auto`, exactly, where it forwards them with the default range.
TEST(GraphCombining, AutoRunsVFormsDirectWithoutStraightTags) {
  const Watchdog watchdog("auto without straight tags", deadline);
  const Profile profile("1e-6 1e-5 1e-9");
  const Graph graph = dense_graph(19);
  setenv("CARTCOLL_MAX_TAG", "200", 1);
  MPI_Comm comm = create_adjacent(graph, MPI_INFO_NULL);
  unsetenv("CARTCOLL_MAX_TAG");
  ASSERT_NE(comm, MPI_COMM_NULL);
  for (const bool some_large : {false, true})
    for (const Form form : {Form::nonblocking, Form::blocking, Form::persistent})
      EXPECT_EQ(gated_alltoallv(graph, comm, some_large, form).sent, direct_messages(graph)) << "form " << static_cast<int>(form);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// Where a sender's count and its receiver's fall on different sides of the gate, MPI's meaning
// holds. Under a profile whose gate lies between 3 and 512 ints (2 x 10 us a message against 4 x
// 0.1 us a forwarded byte: 50 bytes; the small blocks are forwarded, so the all-small call sends fewer
// messages than the direct exchange), each block of the last process in turn: 512 ints where
// its receiver expects 1-3 (the sender sends it straight, the receiver learns so from the message
// that would have forwarded it): MPI_ERR_TRUNCATE on that receiver only; 1 int where its receiver
// expects 512 (the receiver's early straight receive is cancelled when the block arrives
// forwarded): the int at the start of its receive block, the rest untouched, MPI_SUCCESS everywhere.
// Every other block exact, nobody hangs.
TEST(GraphCombining, AutoGateKeepsMpisMeaningWhereCountsDisagree) {
  const Watchdog watchdog("auto gate with counts that disagree", deadline);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // MPICH reports a truncated receive there too
  const Profile profile("1e-6 1e-5 1e-7");
  const Graph graph = dense_graph(19);
  MPI_Comm comm = create_adjacent(graph, MPI_INFO_NULL);
  ASSERT_NE(comm, MPI_COMM_NULL);
  ASSERT_EQ(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), MPI_SUCCESS);
  if (world_size() >= 12)
    EXPECT_LT(gated_alltoallv(graph, comm, false, Form::blocking).sent, direct_messages(graph)) << "small blocks forwarded";
  const int last = world_size() - 1;
  const std::vector<int>& destinations = graph.destinations(last);
  for (std::size_t j = 0; j < destinations.size(); ++j) {
    const int receiver = destinations[j];
    if (receiver == last) continue;  // a self edge is a copy: the call's own arguments
    const bool large = (last + 2 * receiver) % 3 == 0;  // as gated_alltoallv's blocks with some large
    const Missized missized{static_cast<int>(j), large ? 1 : large_but_eager_ints};
    for (const Form form : {Form::nonblocking, Form::blocking, Form::persistent}) {
      const int code = gated_alltoallv(graph, comm, true, form, large_but_eager_ints, &missized).code;
      EXPECT_EQ(error_class(code), !large && world_rank() == receiver ? MPI_ERR_TRUNCATE : MPI_SUCCESS)
          << "block " << j << " to rank " << receiver << ", form " << static_cast<int>(form);
    }
  }
  EXPECT_EQ(gated_alltoallv(graph, comm, true, Form::nonblocking, large_but_eager_ints).code, MPI_SUCCESS) << "usable after";
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

}  // namespace
