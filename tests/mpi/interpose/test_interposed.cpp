// SPDX-License-Identifier: BSD-3-Clause
// An unmodified MPI program: MPI's own neighborhood collectives and request functions, called by
// their MPI names, on topologies MPI made (MPI_Dist_graph_create_adjacent with repeated and self
// edges, MPI_Graph_create, MPI_Cart_create), checked against the graph reference model. The same
// program runs through libcartcoll_mpi (preloaded or linked) and without it; CARTCOLL_TEST_EXPECT
// (layer or native) says which, and Layer.IsWhereExpected checks it. The program links no PMPI
// census, which would stand in front of the layer.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "../../support/cart_fixture.hpp"
#include "../../support/graph_case.hpp"
#include "../../support/graph_checks.hpp"
#include "../../support/halo_case.hpp"
#include "../../support/mpi_api.hpp"
#include "../../support/watchdog.hpp"

using namespace support;
using cartcoll::Graph;
using support::HaloCase;
using support::stencil_halo;

namespace {

constexpr std::chrono::seconds deadline{120};

std::string expected_side() {
  const char* expect = std::getenv("CARTCOLL_TEST_EXPECT");
  return expect == nullptr ? "" : expect;
}

// The file that defines the MPI_Neighbor_alltoall this program calls.
std::string defining_object() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&MPI_Neighbor_alltoall), &info) == 0 || info.dli_fname == nullptr) return "?";
  return info.dli_fname;
}

TEST(Layer, IsWhereExpected) {
  const std::string expected = expected_side(), object = defining_object();
  if (expected.empty()) GTEST_SKIP() << "CARTCOLL_TEST_EXPECT is not set";
  const bool layer = object.find("libcartcoll_mpi") != std::string::npos;
  EXPECT_EQ(layer, expected == "layer") << "MPI_Neighbor_alltoall comes from " << object;
}

// ---------------------------------------------------------------------------------------------------
// Every operation in every form on every kind of MPI topology.

enum class Made { adjacent, graph, cart };

MPI_Comm make(Made made, unsigned seed) {
  switch (made) {
    case Made::adjacent: return mpi_adjacent(shared_graph(seed));
    case Made::graph: return mpi_graph(seed);
    case Made::cart: return mpi_cart(seed);
  }
  return MPI_COMM_NULL;
}

class EveryTopology : public testing::TestWithParam<Made> {};

TEST_P(EveryTopology, EveryOperationAndFormMatchesTheReferenceModel) {
  const Watchdog watchdog("EveryOperationAndFormMatchesTheReferenceModel", deadline);
  const TestTypes types;
  for (unsigned seed = 1; seed <= 2; ++seed) {
    MPI_Comm comm = make(GetParam(), seed);
    ASSERT_NE(comm, MPI_COMM_NULL);
    const Graph graph = gather_topology(comm);
    for (Op op : neighbor_ops)
      for (Variant variant : all_variants) {
        GraphCase exchange(op, variant, Sizes::per_edge, types, graph, world_rank(), seed,
                           GetParam() == Made::cart ? Pairing::cartesian : Pairing::kth_occurrence);
        run_all_forms(exchange, comm, (seed + static_cast<unsigned>(world_rank())) % 2 == 1, mpi_names_api);
      }
    MPI_Comm_free(&comm);
  }
}

std::string label(const testing::TestParamInfo<Made>& made) {
  static const char* names[] = {"DistGraphAdjacent", "Graph", "Cart"};
  return names[static_cast<int>(made.param)];
}

INSTANTIATE_TEST_SUITE_P(Made, EveryTopology, testing::Values(Made::adjacent, Made::graph, Made::cart), label);

// docs/neighbor.md's example: rank 0 names destinations {1, 1}, rank 2 names {2, 1, 2}, rank 1 lists
// sources {0, 2, 0}; the k-th occurrence matches the k-th (MPICH 4.0.2 alone swaps rank 0's blocks).
TEST(RepeatedEdges, KthOccurrenceMatchesKth) {
  if (world_size() < 3) GTEST_SKIP() << "needs 3 processes";
  const int rank = world_rank();
  std::vector<int> sources, destinations;
  if (rank == 0) destinations = {1, 1};
  if (rank == 1) sources = {0, 2, 0};
  if (rank == 2) sources = {2, 2}, destinations = {2, 1, 2};
  MPI_Comm comm = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(sources.size()), sources.data(),
                                           MPI_UNWEIGHTED, static_cast<int>(destinations.size()), destinations.data(),
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &comm),
            MPI_SUCCESS);
  std::vector<int> send(1), received(std::max<std::size_t>(sources.size(), 1), -1);  // MPICH rejects NULL buffers
  for (std::size_t j = 0; j < destinations.size(); ++j) send.resize(j + 1), send[j] = 100 * rank + static_cast<int>(j);
  ASSERT_EQ(MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, received.data(), 1, MPI_INT, comm), MPI_SUCCESS);
  if (rank == 1) EXPECT_EQ(received, (std::vector<int>{0, 201, 1}));
  if (rank == 2) EXPECT_EQ(received, (std::vector<int>{200, 202}));
  MPI_Comm_free(&comm);
}

// ---------------------------------------------------------------------------------------------------
// Requests: the layer's and plain ones in one array, completed by MPI's functions in any order.

TEST(Requests, NonblockingMixedWithPlainByEveryCompletion) {
  const Watchdog watchdog("NonblockingMixedWithPlainByEveryCompletion", deadline);
  MPI_Comm graph_comm = mpi_adjacent(shared_graph(11)), cart_comm = mpi_cart(5);
  nonblocking_mixed_with_plain(graph_comm, cart_comm, mpi_names_api);
  MPI_Comm_free(&graph_comm);
  MPI_Comm_free(&cart_comm);
}

TEST(Requests, PersistentMixedWithPlainByEveryCompletion) {
  if (!mpi_names_api.has_persistent()) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
  const Watchdog watchdog("PersistentMixedWithPlainByEveryCompletion", deadline);
  MPI_Comm comm = mpi_adjacent(shared_graph(12));
  persistent_mixed_with_plain(comm, mpi_names_api);
  MPI_Comm_free(&comm);
}

// ---------------------------------------------------------------------------------------------------
// What only the layer does (CARTCOLL_TEST_EXPECT=layer).

class LayerOnly : public testing::Test {
 protected:
  void SetUp() override {
    if (expected_side() != "layer") GTEST_SKIP() << "checks of the layer itself";
  }
};

// Cancelling a collective's request is erroneous (MPI 4.1 section 6.12): MPI_ERR_REQUEST through
// the communicator's error handler; the request stays usable.
TEST_F(LayerOnly, CancelOfACollectiveIsErrRequest) {
  MPI_Comm comm = mpi_cart(1);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int degree = 0;
  MPI_Cartdim_get(comm, &degree);
  std::vector<int> send(2 * static_cast<std::size_t>(degree), world_rank()), received(send.size());
  MPI_Request request = MPI_REQUEST_NULL;
  ASSERT_EQ(MPI_Ineighbor_alltoall(send.data(), 1, MPI_INT, received.data(), 1, MPI_INT, comm, &request), MPI_SUCCESS);
  int code = MPI_Cancel(&request), error_class = MPI_SUCCESS;
  MPI_Error_class(code, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_REQUEST);
  ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  MPI_Comm_free(&comm);
}

// A bad argument reaches the communicator's own error handler, with MPI's error class.
int handled = 0;
void count_error(MPI_Comm*, int*, ...) { ++handled; }

TEST_F(LayerOnly, ErrorsGoThroughTheCommunicatorsHandler) {
  MPI_Comm comm = mpi_adjacent(shared_graph(3));
  MPI_Errhandler counting = MPI_ERRHANDLER_NULL;
  MPI_Comm_create_errhandler(count_error, &counting);
  MPI_Comm_set_errhandler(comm, counting);
  handled = 0;
  int value = 0;
  int code = MPI_Neighbor_allgather(&value, -1, MPI_INT, &value, -1, MPI_INT, comm), error_class = MPI_SUCCESS;
  MPI_Error_class(code, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_COUNT);
  EXPECT_EQ(handled, 1);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  code = MPI_Neighbor_allgather(&value, 1, MPI_INT, &value, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Error_class(code, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_TOPOLOGY) << "MPI_COMM_WORLD has no topology";
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&counting);
  MPI_Comm_free(&comm);
}

// Known calls for the report (tests/mpi/interpose/check_report.sh reads what MPI_Finalize prints):
// on a periodic ring, 3 blocking alltoalls, 2 nonblocking allgathers, and one persistent alltoallv
// started 4 times; then a duplicate, which is a communicator of its own, with one alltoall.
TEST(Report, KnownCalls) {
  const int p = world_size(), rank = world_rank();
  int periodic = 1;
  MPI_Comm ring = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 1, &p, &periodic, 0, &ring), MPI_SUCCESS);
  int send[2] = {rank, rank + 100}, received[2] = {-1, -1};
  const int below = (rank + p - 1) % p, above = (rank + 1) % p;
  // Block 0 comes from R - 1, whose block 1 went to R; block 1 from R + 1, whose block 0 did. (With
  // 1 or 2 processes both neighbors are one process, where the library's pairing and MPI 4.1's
  // Example 8.10 differ: docs/transparent.md, "Limits"; the blocks are not checked there.)
  const std::vector<int> expected{below + 100, above};
  auto check = [&](const char* what) {
    if (p > 2) EXPECT_EQ(std::vector<int>(received, received + 2), expected) << what;
  };
  for (int call = 0; call < 3; ++call) {
    ASSERT_EQ(MPI_Neighbor_alltoall(send, 1, MPI_INT, received, 1, MPI_INT, ring), MPI_SUCCESS);
    check("blocking");
  }
  for (int call = 0; call < 2; ++call) {
    MPI_Request request = MPI_REQUEST_NULL;
    ASSERT_EQ(MPI_Ineighbor_allgather(&rank, 1, MPI_INT, received, 1, MPI_INT, ring, &request), MPI_SUCCESS);
    ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(received[0], below);
    EXPECT_EQ(received[1], above);
  }
  if (mpi_names_api.has_persistent()) {
    const int counts[2] = {1, 1}, displacements[2] = {0, 1};
    MPI_Request request = MPI_REQUEST_NULL;
    ASSERT_EQ(mpi_names_api.alltoallv_init(send, counts, displacements, MPI_INT, received, counts, displacements, MPI_INT,
                                     ring, MPI_INFO_NULL, &request),
              MPI_SUCCESS);
    for (int start = 0; start < 4; ++start) {
      received[0] = received[1] = -1;
      ASSERT_EQ(MPI_Start(&request), MPI_SUCCESS);
      ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
      check("persistent");
    }
    ASSERT_EQ(MPI_Request_free(&request), MPI_SUCCESS);
  }
  MPI_Comm copy = MPI_COMM_NULL;
  MPI_Comm_dup(ring, &copy);
  MPI_Comm_free(&ring);
  received[0] = received[1] = -1;
  ASSERT_EQ(MPI_Neighbor_alltoall(send, 1, MPI_INT, received, 1, MPI_INT, copy), MPI_SUCCESS);
  check("on the duplicate of a freed communicator");
  MPI_Comm_free(&copy);
}

// The stencil codes' case: a 3-D Moore neighborhood (26 neighbors) listed by hand from an MPI_Cart_create
// communicator's coordinates, made by MPI_Dist_graph_create_adjacent. The layer detects the stencil
// at creation (the report says neighborhood=cartesian); results as the graph reference model says.
// After KnownCalls, whose communicators the report numbers 1 and 2.
TEST(Report, HandMadeMooreGraphIsCartesian) {
  const Watchdog watchdog("HandMadeMooreGraphIsCartesian", deadline);
  int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, coords[3] = {0, 0, 0};
  MPI_Dims_create(world_size(), 3, dims);
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart), MPI_SUCCESS);
  MPI_Cart_coords(cart, world_rank(), 3, coords);
  std::vector<int> sources, destinations;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dz = -1; dz <= 1; ++dz) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        int to[3] = {coords[0] + dx, coords[1] + dy, coords[2] + dz}, from[3] = {coords[0] - dx, coords[1] - dy, coords[2] - dz};
        destinations.push_back(0);
        sources.push_back(0);
        MPI_Cart_rank(cart, to, &destinations.back());
        MPI_Cart_rank(cart, from, &sources.back());
      }
  MPI_Comm moore = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Dist_graph_create_adjacent(cart, 26, sources.data(), MPI_UNWEIGHTED, 26, destinations.data(),
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &moore),
            MPI_SUCCESS);
  const Graph graph = gather_topology(moore);
  const TestTypes types;
  for (Op op : {Op::alltoall, Op::allgather}) {
    GraphCase exchange(op, Variant::plain, Sizes::per_edge, types, graph, world_rank(), 3);
    run_all_forms(exchange, moore, false, mpi_names_api);
  }
  MPI_Comm_free(&moore);
  MPI_Comm_free(&cart);
}


// MPI_Dist_graph_create_adjacent over MPI_COMM_WORLD: every process sends to every other.
MPI_Comm complete_graph() {
  std::vector<int> others;
  for (int rank = 0; rank < world_size(); ++rank)
    if (rank != world_rank()) others.push_back(rank);
  const int degree = static_cast<int>(others.size());
  MPI_Comm complete = MPI_COMM_NULL;
  EXPECT_EQ(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, degree, others.data(), MPI_UNWEIGHTED, degree, others.data(),
                                           MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &complete),
            MPI_SUCCESS);
  return complete;
}

// Each of `ops` in every form on the complete graph, blocks of `elements` elements sized per edge,
// checked against the graph reference model (`by_test`: completed by MPI_Test, as run_all_forms says).
void every_form_on_the_complete_graph(std::span<const Op> ops, Variant variant, int elements, bool by_test) {
  MPI_Comm complete = complete_graph();
  ASSERT_NE(complete, MPI_COMM_NULL);
  const Graph graph = gather_topology(complete);
  const TestTypes types;
  for (Op op : ops) {
    GraphCase exchange(op, variant, Sizes::per_edge, types, graph, world_rank(), elements);
    run_all_forms(exchange, complete, by_test, mpi_names_api);
  }
  MPI_Comm_free(&complete);
}

// Every process sends to every other: with CARTCOLL_ALGORITHM=graph-combining the layer runs the
// set-up at MPI_Dist_graph_create_adjacent, and the report (interpose_combining) shows fewer
// messages per call; in every run the blocks are the reference model's.
TEST(Report, CompleteGraphIsExact) {
  const Watchdog watchdog("CompleteGraphIsExact", deadline);
  const Op ops[] = {Op::alltoall, Op::allgather};
  every_form_on_the_complete_graph(ops, Variant::plain, 3, false);
}

// The same complete graph, every operation (the v and w forms too) in every form with every edge
// sized apart and send and receive datatypes that differ: with a Cartesian forwarder forced (interpose_cartesian_sizes: on 8 processes the
// graph is the 2 x 2 x 2 torus's Moore neighborhood, detected) the blocks' sizes travel with them,
// and every run gives the reference model's blocks.
TEST(CompleteGraph, EveryOperationWithPerEdgeSizesIsExact) {
  const Watchdog watchdog("CompleteGraph.EveryOperationWithPerEdgeSizesIsExact", deadline);
  every_form_on_the_complete_graph(neighbor_ops, Variant::mixed_types, 5, world_rank() % 2 == 1);
}

// MPI(X)_Neighbor_alltoallw_init of `halo` on `comm`, started three times with new send values and
// checked after each start against the plain exchange's result (receive block j from sources[j]'s
// block sender_blocks[j], or j).
void run_persistent_halo(const HaloCase& halo, MPI_Comm comm, std::span<const int> sources,
                         std::span<const int> sender_blocks = {}) {
  std::vector<std::uint8_t> send(halo.send_bytes), recv(halo.recv_bytes, 0xee);
  const auto send_types = halo.send_handles(), recv_types = halo.recv_handles();
  MPI_Request request = MPI_REQUEST_NULL;
  ASSERT_EQ(mpi_names_api.alltoallw_init(send.data(), halo.sendcounts.data(), halo.sdispls.data(), send_types.data(),
                                         recv.data(), halo.recvcounts.data(), halo.rdispls.data(), recv_types.data(),
                                         comm, MPI_INFO_NULL, &request),
            MPI_SUCCESS);
  for (int start = 1; start <= 3; ++start) {
    const std::vector<std::uint8_t> values = halo.send_array(world_rank(), start);
    std::copy(values.begin(), values.end(), send.begin());  // the same buffer: the request holds its address
    std::vector<std::uint8_t> expected = recv;
    halo.expect_plain_result(sources, start, expected, {}, sender_blocks);
    ASSERT_EQ(MPI_Start(&request), MPI_SUCCESS);
    ASSERT_EQ(MPI_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    EXPECT_EQ(recv, expected) << "start " << start;
  }
  ASSERT_EQ(MPI_Request_free(&request), MPI_SUCCESS);
}

// The 9-point halo of the unified-interfaces paper's Figure 1 as a stencil code hands it to MPI: a
// Moore graph listed by hand from an MPI_Cart_create torus (MPI_Dist_graph_create_adjacent, which
// the layer detects as Cartesian) and MPI_Neighbor_alltoallw_init with ROW, COL and COR subarrays of
// one array, whose rows and columns hold the corners. With overlap-combining forced
// (interpose_shared_sends) the layer sends each corner once, in 4 messages instead of 8; every run
// leaves the plain exchange's halos.
TEST(Halo, NinePointAlltoallwInitIsExact) {
  const Watchdog watchdog("Halo.NinePointAlltoallwInitIsExact", deadline);
  if (!mpi_names_api.has_persistent()) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
  const HaloCase halo = stencil_halo(2, 5, 1);
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 2, halo.dims.data(), halo.periods.data(), 0, &cart), MPI_SUCCESS);
  int coords[2] = {0, 0};
  MPI_Cart_coords(cart, world_rank(), 2, coords);
  std::vector<int> sources, destinations;
  for (int j = 0; j < halo.blocks(); ++j) {
    const int dx = halo.offsets[2 * j], dy = halo.offsets[2 * j + 1];
    int to[2] = {coords[0] + dx, coords[1] + dy}, from[2] = {coords[0] - dx, coords[1] - dy};
    destinations.push_back(0);
    sources.push_back(0);
    MPI_Cart_rank(cart, to, &destinations.back());
    MPI_Cart_rank(cart, from, &sources.back());
  }
  MPI_Comm moore = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Dist_graph_create_adjacent(cart, halo.blocks(), sources.data(), MPI_UNWEIGHTED, halo.blocks(),
                                           destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &moore),
            MPI_SUCCESS);
  run_persistent_halo(halo, moore, sources);
  MPI_Comm_free(&moore);
  MPI_Comm_free(&cart);
}

// Rows and columns of an n x n interior on an MPI_Cart_create torus (MPI's neighbor order -e0, +e0,
// -e1, +e1; receive block i comes from neighbor i, which sends its block of the opposite direction):
// each corner cell of the interior is in a row and a column, so the send blocks overlap. Through
// MPI_Neighbor_alltoallw_init with overlap-combining forced (interpose_shared_sends) every halo is the
// plain exchange's.
TEST(Halo, RowsAndColumnsOnAnMpiCartesianTopologyAreExact) {
  const Watchdog watchdog("Halo.RowsAndColumnsOnAnMpiCartesianTopologyAreExact", deadline);
  if (!mpi_names_api.has_persistent()) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
  constexpr int n = 5;
  HaloCase halo{{0, 0}, {1, 1}};
  MPI_Dims_create(world_size(), 2, halo.dims.data());
  const int sizes[2] = {n + 2, n + 2}, row[2] = {1, n}, column[2] = {n, 1};
  // (send start, receive start, shape) per block, in MPI's order.
  const int starts[4][2][2] = {{{1, 1}, {0, 1}}, {{n, 1}, {n + 1, 1}}, {{1, 1}, {1, 0}}, {{1, n}, {1, n + 1}}};
  for (int i = 0; i < 4; ++i) {
    const int* shape = i < 2 ? row : column;
    MPI_Datatype send = MPI_DATATYPE_NULL, recv = MPI_DATATYPE_NULL;
    MPI_Type_create_subarray(2, sizes, shape, starts[i][0], MPI_ORDER_C, MPI_DOUBLE, &send);
    MPI_Type_create_subarray(2, sizes, shape, starts[i][1], MPI_ORDER_C, MPI_DOUBLE, &recv);
    halo.add(send, 1, 0, recv, 1, 0);
  }
  halo.send_bytes = halo.recv_bytes = (n + 2) * (n + 2) * sizeof(double);
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 2, halo.dims.data(), halo.periods.data(), 0, &cart), MPI_SUCCESS);
  std::vector<int> sources(4);
  MPI_Cart_shift(cart, 0, 1, &sources[0], &sources[1]);
  MPI_Cart_shift(cart, 1, 1, &sources[2], &sources[3]);
  const std::vector<int> sender_blocks = {1, 0, 3, 2};
  run_persistent_halo(halo, cart, sources, sender_blocks);
  MPI_Comm_free(&cart);
}

}  // namespace
