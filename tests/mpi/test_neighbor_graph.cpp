// SPDX-License-Identifier: BSD-3-Clause
// The CC_ neighborhood collectives (<cartcoll/neighbor.h>) on every kind of communicator with a process
// topology, against the graph reference model: random graphs with repeated edges, self edges,
// isolated processes and asymmetric degrees; all five operations in three forms; requests completed
// in rank-dependent orders, mixed with ordinary MPI requests.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../describe.hpp"
#include "../graph_cases.hpp"
#include "../support/cart_fixture.hpp"
#include "../support/graph_case.hpp"
#include "../support/graph_checks.hpp"
#include "../support/handle_census.hpp"
#include "../support/orders_and_leaks.hpp"
#include "../support/neighborhoods.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/neighbor.h"

using namespace support;
using cartcoll::Graph;

namespace {

constexpr std::chrono::seconds deadline{240};

// How the communicator under test was made.
enum class Made { cc_adjacent, cc_general, mpi_adjacent, mpi_graph, mpi_cart, cart_neighborhood };

const char* name(Made made) {
  static const char* names[] = {"CC_Dist_graph_create_adjacent", "CC_Dist_graph_create", "MPI_Dist_graph_create_adjacent",
                                "MPI_Graph_create", "MPI_Cart_create", "Cart_neighborhood_create"};
  return names[static_cast<int>(made)];
}

std::vector<int> weights_for(const std::vector<int>& ranks, int salt) {
  std::vector<int> weights;
  for (int rank : ranks) weights.push_back(rank * 10 + salt);
  return weights;
}

MPI_Comm cc_adjacent(const Graph& graph, bool weighted) {
  const int rank = world_rank();
  const std::vector<int>& in = graph.sources(rank);
  const std::vector<int>& out = graph.destinations(rank);
  const std::vector<int> in_w = weights_for(in, 1), out_w = weights_for(out, 2);
  auto weights = [weighted](const std::vector<int>& w) -> const int* {
    if (!weighted) return MPI_UNWEIGHTED;
    return w.empty() ? MPI_WEIGHTS_EMPTY : w.data();
  };
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), weights(in_w),
                                          static_cast<int>(out.size()), out.data(), weights(out_w), MPI_INFO_NULL, 0,
                                          &comm),
            MPI_SUCCESS);
  return comm;
}

// Each edge P -> Q (its k-th occurrence) is named by rank (P + Q + k) mod p, one entry per edge.
struct NamedEdges {
  std::vector<int> sources, degrees, destinations;
};

NamedEdges edges_named_by(const Graph& graph, int namer) {
  NamedEdges named;
  for (int from = 0; from < graph.size(); ++from) {
    int k = 0;
    for (int to : graph.destinations(from))
      if ((from + to + k++) % graph.size() == namer) {
        named.sources.push_back(from);
        named.degrees.push_back(1);
        named.destinations.push_back(to);
      }
  }
  return named;
}

MPI_Comm cc_general(const Graph& graph) {
  const NamedEdges mine = edges_named_by(graph, world_rank());
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(CC_Dist_graph_create(MPI_COMM_WORLD, static_cast<int>(mine.sources.size()), mine.sources.data(),
                                 mine.degrees.data(), mine.destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm),
            MPI_SUCCESS);
  return comm;
}

MPI_Comm cart_neighborhood(unsigned seed) {
  const int d = 1 + static_cast<int>(seed % 3);
  std::vector<int> dims(static_cast<std::size_t>(d), 0);
  MPI_Dims_create(world_size(), d, dims.data());
  std::vector<bool> periods;
  for (int k = 0; k < d; ++k) periods.push_back(((seed >> k) & 1u) != 0);
  const cartcoll::Grid grid(dims, periods);
  const std::vector<cartcoll::Offsets> lists = offsets_for(d, seed);
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(create(MPI_COMM_WORLD, grid, lists[seed % lists.size()], MPI_INFO_NULL, &comm), MPI_SUCCESS);
  return comm;
}

MPI_Comm make(Made made, const Graph& graph, unsigned seed) {
  switch (made) {
    case Made::cc_adjacent: return cc_adjacent(graph, seed % 2 == 1);
    case Made::cc_general: return cc_general(graph);
    case Made::mpi_adjacent: return mpi_adjacent(graph);
    case Made::mpi_graph: return mpi_graph(seed);
    case Made::mpi_cart: return mpi_cart(seed);
    case Made::cart_neighborhood: return cart_neighborhood(seed);
  }
  return MPI_COMM_NULL;
}

Graph neighborhood_of(Made made, MPI_Comm comm) {
  return made == Made::cart_neighborhood ? gather_cart_neighborhood(comm) : gather_topology(comm);
}

Sizes sizes_for(Made made) { return made == Made::cart_neighborhood ? Sizes::per_index : Sizes::per_edge; }
Pairing pairing_for(Made made) { return made == Made::mpi_cart ? Pairing::cartesian : Pairing::kth_occurrence; }

class EveryCommunicator : public testing::TestWithParam<Made> {};

TEST_P(EveryCommunicator, EveryOperationAndFormMatchesTheReferenceModel) {
  const Watchdog watchdog(name(GetParam()), deadline);
  const TestTypes types;
  for (unsigned seed = 1; seed <= 3; ++seed) {
    const Graph requested = shared_graph(seed);
    MPI_Comm comm = make(GetParam(), requested, seed);
    ASSERT_NE(comm, MPI_COMM_NULL);
    const Graph graph = neighborhood_of(GetParam(), comm);
    if (GetParam() == Made::cc_adjacent || GetParam() == Made::mpi_adjacent) {
      ASSERT_EQ(graph.sources(world_rank()), requested.sources(world_rank()));
      ASSERT_EQ(graph.destinations(world_rank()), requested.destinations(world_rank()));
    }
    ASSERT_EQ(graph.inconsistency(), "") << "the topology itself must be consistent";
    for (Op op : neighbor_ops)
      for (Variant variant : all_variants) {
        GraphCase exchange(op, variant, sizes_for(GetParam()), types, graph, world_rank(), seed, pairing_for(GetParam()));
        run_all_forms(exchange, comm, (seed + static_cast<unsigned>(world_rank())) % 2 == 1);
      }
    MPI_Comm_free(&comm);
    expect_no_leaks();
  }
}

INSTANTIATE_TEST_SUITE_P(Made, EveryCommunicator,
                         testing::Values(Made::cc_adjacent, Made::cc_general, Made::mpi_adjacent, Made::mpi_graph,
                                         Made::mpi_cart, Made::cart_neighborhood),
                         [](const auto& test_info) {
                           std::string label = name(test_info.param);
                           label.erase(std::remove(label.begin(), label.end(), '_'), label.end());
                           return label;
                         });


// MPI_Cart_create's shapes over all processes, 1-D to 3-D, with dimensions of 1 and 2 processes
// (p = 1, 2, 4): {p}, {p, 1} and MPI_Dims_create's for 3 dimensions, without repeats.
std::vector<std::vector<int>> cartesian_shapes(int p) {
  std::vector<std::vector<int>> shapes = {{p}, {p, 1}, {0, 0, 0}};
  for (auto& dims : shapes) MPI_Dims_create(p, static_cast<int>(dims.size()), dims.data());
  std::sort(shapes.begin(), shapes.end());
  shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
  return shapes;
}

// MPI 4.1 section 8.6, Example 8.10: on an MPI_Cart_create communicator send block s goes to neighbor
// s and lands in its block s ^ 1, where a periodic dimension of 1 or 2 processes makes the -1 and +1
// neighbors one process (or this one) too; meshes of 1 or 2 processes leave blocks from MPI_PROC_NULL
// untouched. Every shape of cartesian_shapes under every choice of periods, every operation and
// form with block sizes per edge; the suite runs it at 1 to 4 processes, which have every such
// dimension (tests/mpi/CMakeLists.txt; EveryCommunicator/MPICartcreate adds datatypes).
TEST(MpiCartesian, DimensionsOfOneAndTwoProcessesPairBlockSWithSXor1) {
  const Watchdog watchdog("DimensionsOfOneAndTwoProcessesPairBlockSWithSXor1", deadline);
  const TestTypes types;
  unsigned seed = 0;
  for (const std::vector<int>& dims : cartesian_shapes(world_size()))
    for (unsigned bits = 0; bits < (1u << dims.size()); ++bits) {
      std::vector<int> periods;
      for (std::size_t k = 0; k < dims.size(); ++k) periods.push_back(static_cast<int>((bits >> k) & 1u));
      MPI_Comm comm = MPI_COMM_NULL;
      ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, static_cast<int>(dims.size()), dims.data(), periods.data(), 0, &comm),
                MPI_SUCCESS);
      const Graph lists = gather_topology(comm);
      const std::vector<bool> periodic(periods.begin(), periods.end());
      SCOPED_TRACE(cartcoll::test::describe(cartcoll::Grid(dims, periodic), cartcoll::Offsets(static_cast<int>(dims.size()), {})));
      ++seed;
      for (Op op : neighbor_ops) {
        GraphCase exchange(op, Variant::plain, Sizes::per_edge, types, lists, world_rank(), seed, Pairing::cartesian);
        run_all_forms(exchange, comm, seed % 2 == 1);
      }
      MPI_Comm_free(&comm);
    }
  expect_no_leaks();
}

// ---------------------------------------------------------------------------------------------------
// Requests: many outstanding at once, mixed with ordinary MPI requests, completed in orders that
// differ from rank to rank.

// Five nonblocking collectives on a graph communicator, two on an MPI Cartesian one and two ordinary
// MPI requests in one array, in a rank-dependent order, completed by every completion function.
TEST(Requests, NonblockingMixedWithMpiRequestsInRankDependentOrder) {
  const Watchdog watchdog("NonblockingMixedWithMpiRequestsInRankDependentOrder", deadline);
  MPI_Comm graph_comm = cc_adjacent(shared_graph(11), false), cart_comm = mpi_cart(5);
  nonblocking_mixed_with_plain(graph_comm, cart_comm);
  MPI_Comm_free(&graph_comm);
  MPI_Comm_free(&cart_comm);
  expect_no_leaks();
}

// Five persistent collectives started together with two plain persistent requests, completed by
// every completion function in rank-dependent orders, several times.
TEST(Requests, PersistentStartallAndEveryCompletion) {
  const Watchdog watchdog("PersistentStartallAndEveryCompletion", deadline);
  MPI_Comm comm = cc_general(shared_graph(12));
  persistent_mixed_with_plain(comm);
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// ---------------------------------------------------------------------------------------------------
// The communicators are ordinary MPI distributed-graph communicators.

TEST(Creation, CommunicatorsAreOrdinaryDistributedGraphs) {
  const Watchdog watchdog("CommunicatorsAreOrdinaryDistributedGraphs", deadline);
  const Graph graph = shared_graph(21);
  const int rank = world_rank();
  for (const bool weighted : {false, true}) {
    MPI_Comm comm = cc_adjacent(graph, weighted);
    int kind = MPI_UNDEFINED;
    MPI_Topo_test(comm, &kind);
    EXPECT_EQ(kind, MPI_DIST_GRAPH);
    int in = -1, out = -1, has_weights = -1;
    MPI_Dist_graph_neighbors_count(comm, &in, &out, &has_weights);
    EXPECT_EQ(in, static_cast<int>(graph.sources(rank).size()));
    EXPECT_EQ(out, static_cast<int>(graph.destinations(rank).size()));
    EXPECT_EQ(has_weights != 0, weighted);
    if (weighted) {
      std::vector<int> sources(static_cast<std::size_t>(in)), destinations(static_cast<std::size_t>(out));
      std::vector<int> source_weights(sources.size()), destination_weights(destinations.size());
      MPI_Dist_graph_neighbors(comm, in, sources.data(), source_weights.data(), out, destinations.data(),
                               destination_weights.data());
      EXPECT_EQ(source_weights, weights_for(graph.sources(rank), 1));
      EXPECT_EQ(destination_weights, weights_for(graph.destinations(rank), 2));
    }
    MPI_Comm copy = MPI_COMM_NULL;
    MPI_Comm_dup(comm, &copy);
    MPI_Comm_free(&comm);  // the duplicate keeps the topology and the library's state
    const TestTypes types;
    const Graph copied = gather_topology(copy);
    GraphCase exchange(Op::alltoallv, Variant::plain, Sizes::per_edge, types, copied, rank, 9);
    run_all_forms(exchange, copy, false);
    MPI_Comm_free(&copy);
  }
  expect_no_leaks();
}

// CC_Dist_graph_create: each process's neighbors come in the order of the rank that named the edge,
// then of the edge's place in that rank's arrays (MPI leaves the order open; this is ours).
TEST(Creation, GeneralFormOrdersNeighborsByNamingRankThenPosition) {
  const Watchdog watchdog("GeneralFormOrdersNeighborsByNamingRankThenPosition", deadline);
  const Graph graph = shared_graph(31, 7);
  MPI_Comm comm = cc_general(graph);
  const Graph made = gather_topology(comm);
  Graph expected(graph.size());
  for (int namer = 0; namer < graph.size(); ++namer) {
    const NamedEdges named = edges_named_by(graph, namer);
    for (std::size_t e = 0; e < named.sources.size(); ++e) {
      expected.destinations(named.sources[e]).push_back(named.destinations[e]);
      expected.sources(named.destinations[e]).push_back(named.sources[e]);
    }
  }
  for (int r = 0; r < graph.size(); ++r) {
    EXPECT_EQ(made.sources(r), expected.sources(r)) << "rank " << r;
    EXPECT_EQ(made.destinations(r), expected.destinations(r)) << "rank " << r;
  }
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// Open MPI 4.1.4's MPI_Dist_graph_create hangs now and then at 12 oversubscribed processes
// (docs/neighbor.md); the library's must not.
TEST(Creation, RepeatedCreationNeverHangs) {
  const Watchdog watchdog("RepeatedCreationNeverHangs", deadline);
  for (unsigned seed = 40; seed < 70; ++seed) {
    MPI_Comm comm = cc_general(shared_graph(seed));
    ASSERT_NE(comm, MPI_COMM_NULL);
    MPI_Comm_free(&comm);
  }
  expect_no_leaks();
}

}  // namespace
