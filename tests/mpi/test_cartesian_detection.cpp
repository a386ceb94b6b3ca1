// SPDX-License-Identifier: BSD-3-Clause
// Cartesian detection at CC_Dist_graph_create(_adjacent) (docs/neighbor.md, "Cartesian detection"):
// Moore and von Neumann stencils in 2 and 3 dimensions, periodic or not, listed by hand in
// rank-dependent orders over a communicator with a Cartesian naming (row- and column-major), an MPI
// Cartesian topology, or none (MPI_Dims_create's grid), become Cartesian neighborhoods; graphs that
// are not one stencil stay graphs. Every result is checked against the graph reference model, and
// the choice is observed twice: the neighborhood the communicator carries, and a collective with
// the `combining` planner forced (which serves no graph, so it fails where detection did nothing).
// Forced Cartesian forwarders (combining, torus, node-combining) on detected stencils and on
// MPI_Cart_create communicators carry the sizes of the blocks they forward, so every operation and
// form is exact with every edge sized apart, and an alltoallv still combines (PMPI census).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <span>
#include <string>
#include <vector>

#include "../describe.hpp"
#include "../support/cart_fixture.hpp"
#include "../support/graph_case.hpp"
#include "../support/graph_checks.hpp"
#include "../support/graph_traffic.hpp"
#include "../support/handle_census.hpp"
#include "../support/orders_and_leaks.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/cartesian_naming.hpp"
#include "cartcoll/neighbor.h"
#include "cartcoll/unified.h"
#include "runtime/comm/state.hpp"
#include "core/model/neighborhoods.hpp"

using namespace support;
using cartcoll::CartesianNaming;
using cartcoll::DimOrder;
using cartcoll::Graph;
using cartcoll::Offsets;

namespace {

constexpr std::chrono::seconds deadline{120};

// What the graph communicator is made from.
enum class Parent { named, named_column_major, mpi_cart, unnamed };
const char* name(Parent parent) {
  static const char* names[] = {"CC_Cart_name", "CC_Cart_name (column-major)", "MPI_Cart_create", "no naming"};
  return names[static_cast<int>(parent)];
}

// MPI_Dims_create's grid over all processes, every dimension periodic or none.
CartesianNaming naming_for(int d, bool periodic, DimOrder order) {
  std::vector<int> dims(static_cast<std::size_t>(d), 0);
  MPI_Dims_create(world_size(), d, dims.data());
  return CartesianNaming(dims, std::vector<bool>(dims.size(), periodic), order);
}

// A communicator over all processes that carries `naming` as the parent says (the caller frees it).
MPI_Comm parent_for(Parent parent, const CartesianNaming& naming) {
  MPI_Comm comm = MPI_COMM_NULL;
  const std::vector<int> dims(naming.dims().begin(), naming.dims().end());
  std::vector<int> periods;
  for (bool periodic : naming.periods()) periods.push_back(periodic ? 1 : 0);
  const int d = naming.ndims();
  switch (parent) {
    case Parent::named:
    case Parent::named_column_major: {
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
      int size = 0;
      const int order = naming.order() == DimOrder::row_major ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
      EXPECT_EQ(CC_Cart_name(comm, d, order, dims.data(), periods.data(), &size), MPI_SUCCESS);
      break;
    }
    case Parent::mpi_cart: MPI_Cart_create(MPI_COMM_WORLD, d, dims.data(), periods.data(), 0, &comm); break;
    case Parent::unnamed: MPI_Comm_dup(MPI_COMM_WORLD, &comm); break;
  }
  return comm;
}

// Every process's lists: destinations R + N[i], sources R - N[i] (those on the grid), each list
// rotated by a rank-dependent amount, so that no two processes list their neighbors alike.
Graph stencil_graph(const CartesianNaming& naming, const Offsets& offsets) {
  Graph graph(naming.size());
  for (int rank = 0; rank < naming.size(); ++rank) {
    for (int i = 0; i < offsets.count(); ++i) {
      if (const auto to = naming.relative_rank(rank, offsets[i], +1)) graph.destinations(rank).push_back(*to);
      if (const auto from = naming.relative_rank(rank, offsets[i], -1)) graph.sources(rank).push_back(*from);
    }
    for (std::vector<int>* list : {&graph.destinations(rank), &graph.sources(rank)})
      if (!list->empty())
        std::rotate(list->begin(), list->begin() + static_cast<std::ptrdiff_t>(rank * 7 % list->size()), list->end());
  }
  return graph;
}

// CC_Dist_graph_create_adjacent over parent with this process's lists of graph.
MPI_Comm graph_over(MPI_Comm parent, const Graph& graph, const std::string& algorithm = "", bool weighted = false,
                    int node_size = 0) {
  const int rank = world_rank();
  const std::vector<int>& in = graph.sources(rank);
  const std::vector<int>& out = graph.destinations(rank);
  const std::vector<int> in_w(in.size(), 3), out_w(out.size(), 3);
  auto weights = [weighted](const std::vector<int>& w) -> const int* {
    if (!weighted) return MPI_UNWEIGHTED;
    return w.empty() ? MPI_WEIGHTS_EMPTY : w.data();
  };
  AlgorithmInfo info(algorithm);
  if (node_size > 0) info.set("cartcoll_node_size", std::to_string(node_size));
  MPI_Comm comm = MPI_COMM_NULL;
  EXPECT_EQ(CC_Dist_graph_create_adjacent(parent, static_cast<int>(in.size()), in.data(), weights(in_w),
                                          static_cast<int>(out.size()), out.data(), weights(out_w), info.get(), 0,
                                          &comm),
            MPI_SUCCESS);
  return comm;
}

bool is_cartesian(MPI_Comm comm) {
  const auto state = cartcoll::detail::find_state(comm);
  return state != nullptr && state->neighborhood.kind() == cartcoll::NeighborhoodKind::cartesian;
}

// The name of the algorithm the communicator's last collective ran ("" where it ran none).
std::string last_algorithm(MPI_Comm comm) {
  const auto state = cartcoll::detail::find_state(comm);
  return state && state->last_run ? std::string(state->last_run->algorithm.name()) : std::string();
}

// alltoall (a Cartesian planner under `auto`) and allgatherv (trivial: v calls may size edges
// differently), blocking, nonblocking and persistent, against the graph reference model.
void expect_reference_results(MPI_Comm comm, const Graph& graph) {
  const TestTypes types;
  for (Op op : {Op::alltoall, Op::allgatherv}) {
    GraphCase exchange(op, Variant::plain, Sizes::per_edge, types, graph, world_rank(), 7);
    run_all_forms(exchange, comm, false);
  }
}

// The collectives `combining` serves, forced at creation: they run only on a Cartesian neighborhood.
void expect_combining_runs(MPI_Comm parent, const Graph& graph) {
  MPI_Comm comm = graph_over(parent, graph, "combining");
  ASSERT_NE(comm, MPI_COMM_NULL);
  const TestTypes types;
  for (Op op : {Op::alltoall, Op::allgather}) {
    GraphCase exchange(op, Variant::mixed_types, Sizes::per_edge, types, graph, world_rank(), 9);
    run_all_forms(exchange, comm, true);
    EXPECT_EQ(last_algorithm(comm), "combining");
  }
  MPI_Comm_free(&comm);
}

Offsets moore(int d) { return Offsets(d, cartcoll::neighborhoods::box(d, 3, -1, false)); }
Offsets von_neumann(int d) { return Offsets(d, cartcoll::neighborhoods::cartesian_axes(d)); }

struct Stencil {
  int d;
  bool periodic, moore;
};

// Every (d, periodicity, stencil) once, two per parent, each parent with one Moore neighborhood
// (as stencil codes make it: 3-D Moore over MPI_Cart_create).
const Stencil stencils_of[4][2] = {{{2, true, true}, {3, false, false}},
                                   {{3, false, true}, {2, true, false}},
                                   {{3, true, true}, {2, false, false}},
                                   {{2, false, true}, {3, true, false}}};

class Stencils : public testing::TestWithParam<Parent> {};

TEST_P(Stencils, AreDetectedAndMatchTheReferenceModel) {
  const Watchdog watchdog(name(GetParam()), deadline);
  const DimOrder order = GetParam() == Parent::named_column_major ? DimOrder::column_major : DimOrder::row_major;
  for (const Stencil& stencil : stencils_of[static_cast<int>(GetParam())]) {
    const Offsets offsets = stencil.moore ? moore(stencil.d) : von_neumann(stencil.d);
    const CartesianNaming naming = naming_for(stencil.d, stencil.periodic, order);
    SCOPED_TRACE(cartcoll::test::describe(naming.numbering(), offsets));
    const Graph graph = stencil_graph(naming, offsets);
    ASSERT_EQ(graph.inconsistency(), "");
    MPI_Comm parent = parent_for(GetParam(), naming);
    MPI_Comm comm = graph_over(parent, graph, "", stencil.d == 3);
    // On a mesh too small for any process to have each neighbor on every side, the union of the
    // processes' offsets is still the stencil: every case with an edge is detected.
    const bool edges = graph.size() > 1 || stencil.periodic;
    EXPECT_EQ(is_cartesian(comm), edges);
    expect_reference_results(comm, graph);
    if (edges && stencil.moore) expect_combining_runs(parent, graph);
    MPI_Comm_free(&comm);
    MPI_Comm_free(&parent);
  }
  expect_no_leaks();
}

INSTANTIATE_TEST_SUITE_P(Parents, Stencils,
                         testing::Values(Parent::named, Parent::named_column_major, Parent::mpi_cart, Parent::unnamed),
                         [](const auto& info) { return std::to_string(static_cast<int>(info.param)); });

// The general form makes the same neighborhood from edges that other processes name.
TEST(Detection, GeneralFormIsDetectedToo) {
  const Watchdog watchdog("GeneralFormIsDetectedToo", deadline);
  const CartesianNaming naming = naming_for(3, true, DimOrder::row_major);
  const Graph graph = stencil_graph(naming, moore(3));
  const int rank = world_rank();
  const std::vector<int>& out = graph.destinations(rank);
  const int sources[] = {rank}, degrees[] = {static_cast<int>(out.size())};
  MPI_Comm comm = MPI_COMM_NULL;
  ASSERT_EQ(CC_Dist_graph_create(MPI_COMM_WORLD, 1, sources, degrees, out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &comm),
            MPI_SUCCESS);
  EXPECT_TRUE(is_cartesian(comm));
  expect_reference_results(comm, gather_topology(comm));
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// A communicator MPI made is looked at in its first blocking call (rule 65), on the MPI_Dims_create
// grids, as it has no parent: a 3-D Moore stencil made by MPI_Dist_graph_create_adjacent is found
// there, and every call before and after it delivers what the graph reference model says.
TEST(Detection, CommunicatorsMpiMadeAreDetectedAtTheirFirstBlockingCall) {
  const Watchdog watchdog("CommunicatorsMpiMadeAreDetectedAtTheirFirstBlockingCall", deadline);
  const Graph graph = stencil_graph(naming_for(3, true, DimOrder::row_major), moore(3));
  const std::vector<int>& in = graph.sources(world_rank());
  const std::vector<int>& out = graph.destinations(world_rank());
  MPI_Comm comm = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                                           static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                           &comm),
            MPI_SUCCESS);
  EXPECT_FALSE(is_cartesian(comm));
  expect_reference_results(comm, graph);
  EXPECT_TRUE(is_cartesian(comm));
  MPI_Comm_free(&comm);
  expect_no_leaks();
}

// MPI lets processes that share no receiver size their blocks differently. With the offsets +e_k and
// (1,1,1) on the 2 x 2 x 2 torus the senders fall into two classes (the parities), and combining
// forwards a block of one class through a process of the other, which cannot size it by its own
// arguments. The neighborhood is detected, and one-count calls forward with the blocks' sizes
// travelling along: exact everywhere, and combining ran.
TEST(Detection, ClassesThatMaySizeBlocksApartCarryTheirSizes) {
  const Watchdog watchdog("ClassesThatMaySizeBlocksApartCarryTheirSizes", deadline);
  if (world_size() != 8) GTEST_SKIP() << "the 2 x 2 x 2 torus takes 8 processes";
  const CartesianNaming naming({2, 2, 2}, {true, true, true}, DimOrder::row_major);
  MPI_Comm torus = parent_for(Parent::mpi_cart, naming);
  const Offsets offsets = Offsets::from_list(3, {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}});
  const Graph graph = stencil_graph(naming, offsets);
  MPI_Comm comm = graph_over(torus, graph, "combining");
  ASSERT_TRUE(is_cartesian(comm));
  const int rank = world_rank();
  const std::vector<int> coords = naming.coordinates(rank);
  const int parity = (coords[0] + coords[1] + coords[2]) % 2;
  const int mine = 1 + parity, theirs = 2 - parity;  // every sender of this process has the other parity
  const std::vector<int>& sources = graph.sources(rank);
  const std::vector<int>& destinations = graph.destinations(rank);
  for (const bool gather : {false, true}) {
    const std::size_t blocks = gather ? 1 : destinations.size();
    std::vector<int> send(blocks * static_cast<std::size_t>(mine)), recv(sources.size() * static_cast<std::size_t>(theirs), -1);
    for (std::size_t j = 0; j < send.size(); ++j) send[j] = 1000 * rank + static_cast<int>(j);
    ASSERT_EQ(gather ? CC_Neighbor_allgather(send.data(), mine, MPI_INT, recv.data(), theirs, MPI_INT, comm)
                     : CC_Neighbor_alltoall(send.data(), mine, MPI_INT, recv.data(), theirs, MPI_INT, comm),
              MPI_SUCCESS);
    for (std::size_t i = 0; i < sources.size(); ++i) {
      const std::vector<int>& out = graph.destinations(sources[i]);
      const auto j = gather ? 0 : std::find(out.begin(), out.end(), rank) - out.begin();
      for (int e = 0; e < theirs; ++e)
        EXPECT_EQ(recv[i * static_cast<std::size_t>(theirs) + static_cast<std::size_t>(e)],
                  1000 * sources[i] + static_cast<int>(j) * theirs + e)
            << (gather ? "allgather" : "alltoall") << ", block " << i << ", element " << e;
    }
    EXPECT_EQ(last_algorithm(comm), "combining");
  }
  MPI_Comm_free(&comm);
  MPI_Comm_free(&torus);
  expect_no_leaks();
}

// A Cartesian forwarder forced on a detected Moore stencil, under MPI's contract: v and w calls with
// every edge sized apart (zeros included) forward blocks whose sizes travel with them. Every
// operation and form against the graph reference model, on a torus, a mixed grid and a mesh; the
// forced planner ran the last call (an alltoallw).
// Each case runs one variant (plain, mixed types, zero counts) of every operation and form: the
// three cases together run every variant.
struct Forced {
  const char* algorithm;
  int node_size;
  std::vector<bool> periods;
  std::span<const Variant> variants;
};
const Variant plain[] = {Variant::plain}, mixed_types[] = {Variant::mixed_types};
const Variant zero_counts[] = {Variant::zero_counts};

TEST(CartesianSizesTravel, ForcedForwardersOnDetectedStencilsEveryOperationAndForm) {
  const Watchdog watchdog("ForcedForwardersOnDetectedStencilsEveryOperationAndForm", deadline);
  const Forced cases[] = {{"combining", 0, {true, true}, mixed_types},
                          {"torus", 0, {true, false, true}, zero_counts},
                          {"node-combining", 2, {false, false}, plain}};
  unsigned seed = 20;
  for (const Forced& forced : cases) {
    const int d = static_cast<int>(forced.periods.size());
    std::vector<int> dims(forced.periods.size(), 0);
    MPI_Dims_create(world_size(), d, dims.data());
    const CartesianNaming naming(dims, forced.periods, DimOrder::row_major);
    const Graph graph = stencil_graph(naming, moore(d));
    SCOPED_TRACE(std::string(forced.algorithm) + ", " + cartcoll::test::describe(naming.numbering(), moore(d)));
    if (graph.size() == 1 && !forced.periods.front()) continue;  // no edge: no stencil to detect
    MPI_Comm parent = parent_for(Parent::mpi_cart, naming);
    MPI_Comm comm = graph_over(parent, graph, forced.algorithm, false, forced.node_size);
    ASSERT_TRUE(is_cartesian(comm));
    every_operation_and_form(comm, ++seed, Sizes::per_edge, Pairing::kth_occurrence, forced.variants);
    EXPECT_EQ(last_algorithm(comm), forced.algorithm);
    MPI_Comm_free(&comm);
    MPI_Comm_free(&parent);
  }
  expect_no_leaks();
}

// An MPI_Cart_create communicator (MPI's ±e_k neighbors, blocks paired as s with s ^ 1) with a
// Cartesian forwarder forced by CARTCOLL_ALGORITHM at its first blocking call: every operation and
// form exact with every edge sized apart, on 2 and 3 dimensions periodic or not (dimensions of 1
// and 2 processes: moves onto the process itself, both neighbors one process).
TEST(CartesianSizesTravel, ForcedForwardersOnMpiCartCreateEveryOperationAndForm) {
  const Watchdog watchdog("ForcedForwardersOnMpiCartCreateEveryOperationAndForm", deadline);
  // mpi_cart's seeds: 5 a 3-D grid periodic in its outer dimensions, 7 a 2-D torus, 2 a 3-D grid
  // periodic in its middle dimension.
  const Forced cases[] = {
      {"combining", 0, {}, zero_counts}, {"torus", 0, {}, plain}, {"node-combining", 2, {}, mixed_types}};
  const unsigned seeds[] = {5, 7, 2};
  for (std::size_t c = 0; c < std::size(cases); ++c) {
    const Forced& forced = cases[c];
    MPI_Comm comm = mpi_cart(seeds[c]);
    SCOPED_TRACE(std::string(forced.algorithm) + ", mpi_cart(" + std::to_string(seeds[c]) + ")");
    setenv("CARTCOLL_ALGORITHM", forced.algorithm, 1);
    if (forced.node_size > 0) setenv("CARTCOLL_NODE_SIZE", std::to_string(forced.node_size).c_str(), 1);
    every_operation_and_form(comm, seeds[c], Sizes::per_edge, Pairing::cartesian, cases[c].variants);
    unsetenv("CARTCOLL_ALGORITHM");
    unsetenv("CARTCOLL_NODE_SIZE");
    EXPECT_EQ(last_algorithm(comm), forced.algorithm);
    MPI_Comm_free(&comm);
  }
  expect_no_leaks();
}

// Carrying sizes keeps the combining: an alltoallv with every edge sized apart on a detected 2-D
// Moore torus under forced combining sends fewer messages than one per edge (PMPI census), exactly.
TEST(CartesianSizesTravel, CombinedAlltoallvSendsFewerMessagesThanEdges) {
  const Watchdog watchdog("CombinedAlltoallvSendsFewerMessagesThanEdges", deadline);
  if (world_size() < 2) GTEST_SKIP() << "one process sends to no other";
  const CartesianNaming naming = naming_for(2, true, DimOrder::row_major);
  const Graph graph = stencil_graph(naming, moore(2));
  MPI_Comm parent = parent_for(Parent::mpi_cart, naming);
  MPI_Comm comm = graph_over(parent, graph, "combining");
  ASSERT_TRUE(is_cartesian(comm));
  EXPECT_LT(checked_messages(comm, graph, Op::alltoallv, 5, Sizes::per_edge), direct_messages(graph));
  EXPECT_EQ(last_algorithm(comm), "combining");
  MPI_Comm_free(&comm);
  MPI_Comm_free(&parent);
  expect_no_leaks();
}

// One process with an extra edge, or an edge repeated by one process only: no stencil, so the graph
// planners run (and the results are still right); a naming on some processes only is no naming.
TEST(Detection, GraphsThatAreNoStencilStayGraphs) {
  const Watchdog watchdog("GraphsThatAreNoStencilStayGraphs", deadline);
  const int p = world_size();
  if (p < 2) GTEST_SKIP() << "one process's graph is always one stencil";
  // On a torus (named, so that no mesh is guessed: on a line, 0 -> p-1 is an offset of its own).
  const CartesianNaming naming = naming_for(2, true, DimOrder::row_major);
  MPI_Comm torus = parent_for(Parent::named, naming);
  Graph extra = stencil_graph(naming, von_neumann(2));
  extra.destinations(0).push_back(p - 1);
  extra.sources(p - 1).push_back(0);
  Graph repeated = stencil_graph(naming, von_neumann(2));
  const int target = repeated.destinations(1).front();
  repeated.destinations(1).push_back(target);
  repeated.sources(target).push_back(1);
  for (const Graph* graph : {&extra, &repeated}) {
    ASSERT_EQ(graph->inconsistency(), "");
    MPI_Comm comm = graph_over(torus, *graph);
    EXPECT_FALSE(is_cartesian(comm));
    expect_reference_results(comm, *graph);
    MPI_Comm_free(&comm);
  }
  MPI_Comm_free(&torus);
  MPI_Comm some_named = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &some_named);
  const Graph stencil = stencil_graph(naming, von_neumann(2));
  if (world_rank() == 0) {
    const int dims[] = {p}, periods[] = {1};
    int size = 0;
    CC_Cart_name(some_named, 1, MPI_ORDER_C, dims, periods, &size);
  }
  MPI_Comm comm = graph_over(some_named, stencil);
  EXPECT_FALSE(is_cartesian(comm));
  expect_reference_results(comm, stencil);
  MPI_Comm_free(&comm);
  MPI_Comm_free(&some_named);
  expect_no_leaks();
}

}  // namespace
