// SPDX-License-Identifier: BSD-3-Clause
// The isomorphic-collectives paper's (Träff, Carpen-Amarie, Hunold and Rougier) persistent
// isomorphic interface (<cartcoll/iso.h>): every Iso_ init on the tori, meshes and mixed grids of
// support::grids_for (dimensions of size 1 and 2 included) made by MPI_Cart_create, with the offset
// lists of support::offsets_for (repeated offsets, the zero offset, offsets beyond the grid, the
// empty list), started repeatedly with new data and checked against the reference model after each
// Iso_start; the isocomm as an MPI Cartesian communicator; bad input.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/exchange_case.hpp"
#include "../support/handle_census.hpp"
#include "../support/neighborhoods.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/iso.h"
#include "core/model/neighborhoods.hpp"

using namespace support;

namespace {

int create_iso(MPI_Comm cart, const cartcoll::Offsets& offsets, MPI_Comm* iso) {
  return Iso_neighborhood_create(cart, offsets.count(), offsets.flat().data(), iso);
}

// Iso_start completes the collective: the receive buffer is checked right after it, without a wait.
void run_iso(ExchangeCase& exchange, MPI_Comm iso) {
  Iso_request request = ISO_REQUEST_NULL;
  exchange.prepare(0);
  ASSERT_EQ(exchange.init_iso(iso, &request), MPI_SUCCESS) << exchange.describe();
  ASSERT_NE(request, ISO_REQUEST_NULL);
  for (int generation = 1; generation <= 3; ++generation) {
    exchange.prepare(generation);
    ASSERT_EQ(Iso_start(&request), MPI_SUCCESS) << exchange.describe();
    EXPECT_EQ(exchange.mismatch(), "") << "start " << generation << ", " << exchange.describe();
  }
  ASSERT_EQ(Iso_request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(request, ISO_REQUEST_NULL);
}

// CARTCOLL_ALGORITHM for the duration of a test (the isomorphic-collectives paper has no info
// arguments: the environment is how a user picks the algorithm).
class AlgorithmEnvironment {
 public:
  explicit AlgorithmEnvironment(const std::string& name) { setenv("CARTCOLL_ALGORITHM", name.c_str(), 1); }
  ~AlgorithmEnvironment() { unsetenv("CARTCOLL_ALGORITHM"); }
  AlgorithmEnvironment(const AlgorithmEnvironment&) = delete;
  AlgorithmEnvironment& operator=(const AlgorithmEnvironment&) = delete;
};

// Each grid and offset list with one planner, the planners taking turns (so each runs on tori,
// meshes and mixed grids): the Iso_ layer does not depend on the planner, and test_collectives runs
// every planner on every case. `auto` (which measures per communicator and size class) is what the
// Isocomm tests and test_iso_c run.
TEST(IsoCollectives, MatchTheReferenceModelOnEveryGridAfterEveryStart) {
  const std::vector<std::string> planners = algorithm_names(false);
  const TestTypes types;
  unsigned seed = 1;
  std::size_t turn = 0;
  for (const cartcoll::Grid& grid : grids_for(world_size())) {
    for (const cartcoll::Offsets& offsets : offsets_for(grid.ndims(), seed++)) {
      const std::string& planner = planners[turn++ % planners.size()];
      const AlgorithmEnvironment algorithm(planner);
      MPI_Comm cart = mpi_cart_create(MPI_COMM_WORLD, grid, 0);
      if (cart == MPI_COMM_NULL) {
        EXPECT_GE(world_rank(), grid.size()) << "only processes beyond the grid get MPI_COMM_NULL";
        continue;
      }
      MPI_Comm iso = MPI_COMM_NULL;
      ASSERT_EQ(create_iso(cart, offsets, &iso), MPI_SUCCESS) << describe(grid, offsets);
      int rank = 0;
      MPI_Comm_rank(iso, &rank);
      // Zero counts are the layout builders' business, proven by test_collectives; datatypes that
      // differ between the sides matter here, for the v forms' MPI_Aint displacements in extents.
      for (Op op : all_ops) {
        for (Variant variant : {Variant::plain, Variant::mixed_types}) {
          ExchangeCase exchange(op, variant, types, grid, offsets, rank);
          SCOPED_TRACE(planner);
          run_iso(exchange, iso);
        }
      }
      MPI_Comm_free(&iso);
      MPI_Comm_free(&cart);
      EXPECT_EQ(census::leaks(), "") << describe(grid, offsets);
    }
  }
}

// A 2-D grid over all processes (MPI_Dims_create), periodic in dimension 0 only.
cartcoll::Grid mixed_plane() {
  std::vector<int> dims(2, 0);
  MPI_Dims_create(world_size(), 2, dims.data());
  return cartcoll::Grid(dims, {true, false});
}

// The isocomm is an MPI Cartesian communicator with cartcomm's grid, ranks and coordinates (also when
// cartcomm was reordered), carrying the offsets as a cartcoll neighborhood: the Cart_ calls see it,
// and the Iso_ collectives deliver what the reference model says.
TEST(Isocomm, IsCartcommsGridWithTheNeighborhoodAttached) {
  const cartcoll::Grid grid = mixed_plane();
  const cartcoll::Offsets moore(2, cartcoll::neighborhoods::moore(2, 1));
  MPI_Comm cart = mpi_cart_create(MPI_COMM_WORLD, grid, 1), iso = MPI_COMM_NULL;
  ASSERT_EQ(create_iso(cart, moore, &iso), MPI_SUCCESS);
  int topology = MPI_UNDEFINED, cart_rank = 0, iso_rank = 0, dims[2], periods[2], coords[2], cart_coords[2];
  MPI_Topo_test(iso, &topology);
  EXPECT_EQ(topology, MPI_CART);
  MPI_Comm_rank(cart, &cart_rank);
  MPI_Comm_rank(iso, &iso_rank);
  EXPECT_EQ(iso_rank, cart_rank);
  MPI_Cart_get(iso, 2, dims, periods, coords);
  MPI_Cart_coords(cart, cart_rank, 2, cart_coords);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(dims[k], grid.dims()[static_cast<std::size_t>(k)]);
    EXPECT_EQ(periods[k] != 0, grid.periodic(k));
    EXPECT_EQ(coords[k], cart_coords[k]);
  }
  int t = 0;
  ASSERT_EQ(Cart_neighbor_count(iso, &t), MPI_SUCCESS);
  EXPECT_EQ(t, moore.count());
  std::vector<int> sources(static_cast<std::size_t>(t)), targets(sources.size());
  ASSERT_EQ(Cart_neighbor_get(iso, t, sources.data(), MPI_UNWEIGHTED, t, targets.data(), MPI_UNWEIGHTED), MPI_SUCCESS);
  // What MPI's own Cartesian functions say of cartcomm: coordinates -/+ offset i, MPI_PROC_NULL off
  // the mesh (dimension 1); MPI_Cart_rank wraps the periodic dimension 0.
  const auto rank_at = [&](int sign, int i) {
    int at[2] = {cart_coords[0] + sign * moore[i][0], cart_coords[1] + sign * moore[i][1]}, rank = MPI_PROC_NULL;
    if (at[1] >= 0 && at[1] < dims[1]) MPI_Cart_rank(cart, at, &rank);
    return rank;
  };
  for (int i = 0; i < t; ++i) {
    EXPECT_EQ(sources[static_cast<std::size_t>(i)], rank_at(-1, i)) << "offset " << i;
    EXPECT_EQ(targets[static_cast<std::size_t>(i)], rank_at(+1, i)) << "offset " << i;
  }
  // Every collective through the default algorithm (auto), against the reference model.
  const TestTypes types;
  for (Op op : all_ops) {
    ExchangeCase exchange(op, Variant::plain, types, grid, moore, iso_rank);
    run_iso(exchange, iso);
  }
  MPI_Comm_free(&iso);
  MPI_Comm_free(&cart);
  EXPECT_EQ(census::leaks(), "");
}

// A communicator made by Cart_neighborhood_create is an MPI Cartesian communicator too: it can be
// the cartcomm (the isocomm then carries the new offsets), and the Iso_ inits accept it as an isocomm.
TEST(Isocomm, CartNeighborhoodCommunicatorsServeBothWays) {
  const cartcoll::Grid grid = mixed_plane();
  const cartcoll::Offsets axes(2, cartcoll::neighborhoods::cartesian_axes(2));
  const cartcoll::Offsets moore(2, cartcoll::neighborhoods::moore(2, 1));
  MPI_Comm cart = MPI_COMM_NULL, iso = MPI_COMM_NULL;
  ASSERT_EQ(create(MPI_COMM_WORLD, grid, axes, MPI_INFO_NULL, &cart), MPI_SUCCESS);
  ASSERT_EQ(create_iso(cart, moore, &iso), MPI_SUCCESS);
  int t = 0;
  ASSERT_EQ(Cart_neighbor_count(iso, &t), MPI_SUCCESS);
  EXPECT_EQ(t, moore.count());
  const TestTypes types;
  int rank = 0;
  MPI_Comm_rank(cart, &rank);
  ExchangeCase on_cart(Op::alltoall, Variant::plain, types, grid, axes, rank);
  run_iso(on_cart, cart);
  MPI_Comm_free(&iso);
  MPI_Comm_free(&cart);
  EXPECT_EQ(census::leaks(), "");
}

// Requests outlive their communicator (rule 20c); a request may be freed without a start; Iso_start
// runs any number of times.
TEST(IsoRequests, OutliveTheIsocommAndMayBeFreedUnstarted) {
  const int p = world_size(), rank = world_rank();
  const cartcoll::Grid ring({p}, {true});
  const cartcoll::Offsets offsets(1, {1, -1, 0});
  MPI_Comm cart = mpi_cart_create(MPI_COMM_WORLD, ring, 0), iso = MPI_COMM_NULL;
  ASSERT_EQ(create_iso(cart, offsets, &iso), MPI_SUCCESS);
  int send = 0, recv[3] = {-1, -1, -1}, unused_send[3] = {0, 0, 0}, unused_recv[3];
  Iso_request unstarted = ISO_REQUEST_NULL, request = ISO_REQUEST_NULL;
  ASSERT_EQ(Iso_neighbor_alltoall_init(unused_send, 1, MPI_INT, unused_recv, 1, MPI_INT, iso, &unstarted), MPI_SUCCESS);
  ASSERT_EQ(Iso_request_free(&unstarted), MPI_SUCCESS);
  ASSERT_EQ(Iso_neighbor_allgather_init(&send, 1, MPI_INT, recv, 1, MPI_INT, iso, &request), MPI_SUCCESS);
  MPI_Comm_free(&iso);
  for (int generation = 0; generation < 20; ++generation) {
    send = 1000 * generation + rank;
    ASSERT_EQ(Iso_start(&request), MPI_SUCCESS);
    EXPECT_EQ(recv[0], 1000 * generation + (rank + p - 1) % p);
    EXPECT_EQ(recv[1], 1000 * generation + (rank + 1) % p);
    EXPECT_EQ(recv[2], 1000 * generation + rank);
  }
  ASSERT_EQ(Iso_request_free(&request), MPI_SUCCESS);
  MPI_Comm_free(&cart);
  EXPECT_EQ(census::leaks(), "");
}

class IsoErrors : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  void TearDown() override {
    if (iso_ != MPI_COMM_NULL) MPI_Comm_free(&iso_);
    if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
    EXPECT_EQ(census::leaks(), "") << "failed calls free what they made";
  }
  // A 1-D ring (mesh or torus) over all processes, as MPI_Cart_create makes it, and on it the
  // isocomm with offsets {+1, -1}.
  MPI_Comm ring(bool periodic = true) {
    cart_ = mpi_cart_create(MPI_COMM_WORLD, cartcoll::Grid({world_size()}, {periodic}), 0);
    EXPECT_EQ(create_iso(cart_, cartcoll::Offsets(1, {1, -1}), &iso_), MPI_SUCCESS);
    return iso_;
  }
  MPI_Comm cart_ = MPI_COMM_NULL, iso_ = MPI_COMM_NULL;
  Watchdog watchdog_{"an IsoErrors test", std::chrono::seconds(60)};
};

// An init that must fail with `expected` on every process and leave the request null.
void expect_init_fails_everywhere(int code, int expected, Iso_request request) {
  MPI_Comm no_comm = MPI_COMM_NULL;
  expect_everywhere(code, expected, &no_comm);
  EXPECT_EQ(request, ISO_REQUEST_NULL);
}

TEST_F(IsoErrors, CreateNeedsAnMpiCartesianCommunicator) {
  const int offsets[] = {1};
  MPI_Comm out = MPI_COMM_WORLD;
  expect_everywhere(Iso_neighborhood_create(MPI_COMM_WORLD, 1, offsets, &out), MPI_ERR_TOPOLOGY, &out);
  const int rank = world_rank(), next = (rank + 1) % world_size(), previous = (rank + world_size() - 1) % world_size();
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &previous, MPI_UNWEIGHTED, 1, &next, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                 0, &graph);
  MPI_Comm_set_errhandler(graph, MPI_ERRORS_RETURN);
  expect_everywhere(Iso_neighborhood_create(graph, 1, offsets, &out), MPI_ERR_TOPOLOGY, &out);
  MPI_Comm_free(&graph);
  EXPECT_EQ(error_class(Iso_neighborhood_create(MPI_COMM_NULL, 1, offsets, &out)), MPI_ERR_COMM);
  // A zero-dimensional Cartesian topology (rank 0 alone gets it) has no offsets to name.
  MPI_Comm point = MPI_COMM_NULL;
  int no_dims[1] = {1}, no_periods[1] = {0};
  MPI_Cart_create(MPI_COMM_WORLD, 0, no_dims, no_periods, 0, &point);
  if (point != MPI_COMM_NULL) {
    EXPECT_EQ(error_class(Iso_neighborhood_create(point, 0, nullptr, &out)), MPI_ERR_DIMS);
    MPI_Comm_free(&point);
  }
}

TEST_F(IsoErrors, BadCreateArgumentsFailEverywhere) {
  ring();
  const int p = world_size(), last = world_rank() == p - 1;
  const int offsets[] = {1, 2}, other[] = {1, last ? 3 : 2};
  MPI_Comm out = MPI_COMM_WORLD;
  expect_everywhere(Iso_neighborhood_create(cart_, -1, offsets, &out), MPI_ERR_ARG, &out);
  expect_everywhere(Iso_neighborhood_create(cart_, 2, nullptr, &out), MPI_ERR_ARG, &out);
  MPI_Comm ignored = MPI_COMM_NULL;
  expect_everywhere(Iso_neighborhood_create(cart_, 2, offsets, nullptr), MPI_ERR_ARG, &ignored);
  expect_everywhere(Iso_neighborhood_create(cart_, last ? -1 : 2, offsets, &out), MPI_ERR_ARG, &out);
  if (p == 1) GTEST_SKIP() << "arguments that differ between processes need two processes";
  expect_everywhere(Iso_neighborhood_create(cart_, last ? 1 : 2, offsets, &out), MPI_ERR_ARG, &out);  // s differs
  expect_everywhere(Iso_neighborhood_create(cart_, 2, other, &out), MPI_ERR_ARG, &out);  // an offset differs
}

TEST_F(IsoErrors, BadInitArgumentsFailEverywhere) {
  MPI_Comm iso = ring(false);
  int send[4] = {1, 2, 3, 4}, recv[4] = {0, 0, 0, 0}, counts[2] = {1, 1};
  const MPI_Aint displs[2] = {0, 1};
  const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  Iso_request request = ISO_REQUEST_NULL;
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, -1, MPI_INT, recv, -1, MPI_INT, iso, &request),
                               MPI_ERR_COUNT, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, 1, MPI_DATATYPE_NULL, recv, 1, MPI_INT, iso, &request),
                               MPI_ERR_TYPE, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, 1, MPI_INT, recv, 2, MPI_INT, iso, &request),
                               MPI_ERR_COUNT, request);  // send and receive blocks differ in size
  expect_init_fails_everywhere(Iso_neighbor_allgather_init(MPI_IN_PLACE, 1, MPI_INT, recv, 1, MPI_INT, iso, &request),
                               MPI_ERR_BUFFER, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, iso, &request),
                               MPI_ERR_BUFFER, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, 1, MPI_INT, nullptr, 1, MPI_INT, iso, &request),
                               MPI_ERR_BUFFER, request);
  expect_init_fails_everywhere(Iso_neighbor_allgatherv_init(nullptr, 1, MPI_INT, recv, counts, displs, MPI_INT, iso,
                                                            &request),
                               MPI_ERR_BUFFER, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoallv_init(send, nullptr, displs, MPI_INT, recv, counts, displs, MPI_INT,
                                                           iso, &request),
                               MPI_ERR_ARG, request);
  expect_init_fails_everywhere(Iso_neighbor_allgatherv_init(send, 1, MPI_INT, recv, counts, nullptr, MPI_INT, iso,
                                                            &request),
                               MPI_ERR_ARG, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoallw_init(send, counts, displs, nullptr, recv, counts, displs, types,
                                                           iso, &request),
                               MPI_ERR_ARG, request);
  expect_init_fails_everywhere(Iso_neighbor_allgatherw_init(send, 1, MPI_INT, recv, counts, displs, nullptr, iso,
                                                            &request),
                               MPI_ERR_ARG, request);
  expect_init_fails_everywhere(Iso_neighbor_allgather_init(send, 1, MPI_INT, recv, 1, MPI_INT, iso, nullptr),
                               MPI_ERR_REQUEST, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, cart_, &request),
                               MPI_ERR_TOPOLOGY, request);  // MPI_Cart_create's, without offsets
  EXPECT_EQ(error_class(Iso_neighbor_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_NULL, &request)),
            MPI_ERR_COMM);
  // A NULL buffer with zero counts is fine; after all of that, every collective on the isocomm
  // still delivers.
  ASSERT_EQ(Iso_neighbor_alltoall_init(nullptr, 0, MPI_INT, nullptr, 0, MPI_INT, iso, &request), MPI_SUCCESS);
  ASSERT_EQ(Iso_request_free(&request), MPI_SUCCESS);
  const TestTypes test_types;
  const cartcoll::Grid mesh({world_size()}, {false});
  const cartcoll::Offsets both_ways(1, {1, -1});
  for (Op op : all_ops) {
    ExchangeCase exchange(op, Variant::plain, test_types, mesh, both_ways, world_rank());
    run_iso(exchange, iso);
  }
}

// An argument that is bad on one process only fails every process, with the same class.
TEST_F(IsoErrors, ABadArgumentOnOneProcessFailsEverywhere) {
  MPI_Comm iso = ring();
  int send[2] = {1, 2}, recv[2] = {0, 0};
  const bool last = world_rank() == world_size() - 1;
  Iso_request request = ISO_REQUEST_NULL;
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, last ? -1 : 1, MPI_INT, recv, 1, MPI_INT, iso, &request),
                               MPI_ERR_COUNT, request);
  expect_init_fails_everywhere(Iso_neighbor_allgather_init(last ? MPI_IN_PLACE : send, 1, MPI_INT, recv, 1, MPI_INT, iso,
                                                           &request),
                               MPI_ERR_BUFFER, request);
  expect_init_fails_everywhere(Iso_neighbor_allgather_init(send, 1, MPI_INT, recv, 1, MPI_INT, iso,
                                                           last ? nullptr : &request),
                               MPI_ERR_REQUEST, request);
}

// The isomorphic-collectives paper, section 2: all processes use the same block sizes. Sizes that
// are consistent on each process but differ between processes are found at init, by every process
// (semantics rule 49).
TEST_F(IsoErrors, BlockSizesThatDifferBetweenProcessesFailEverywhere) {
  if (world_size() == 1) GTEST_SKIP() << "one process cannot disagree with another";
  MPI_Comm iso = ring();
  const bool last = world_rank() == world_size() - 1;
  const int count = last ? 2 : 1;
  int send[4] = {1, 2, 3, 4}, recv[4] = {0, 0, 0, 0}, counts[2] = {1, count};
  const MPI_Aint displs[2] = {0, 2}, byte_displs[2] = {0, 8};
  const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  Iso_request request = ISO_REQUEST_NULL;
  expect_init_fails_everywhere(Iso_neighbor_alltoall_init(send, count, MPI_INT, recv, count, MPI_INT, iso, &request),
                               MPI_ERR_COUNT, request);
  expect_init_fails_everywhere(Iso_neighbor_allgather_init(send, count, MPI_INT, recv, count, MPI_INT, iso, &request),
                               MPI_ERR_COUNT, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoallv_init(send, counts, displs, MPI_INT, recv, counts, displs, MPI_INT,
                                                           iso, &request),
                               MPI_ERR_COUNT, request);
  expect_init_fails_everywhere(Iso_neighbor_alltoallw_init(send, counts, byte_displs, types, recv, counts, byte_displs,
                                                           types, iso, &request),
                               MPI_ERR_COUNT, request);
  // The same through the Cart_ interface, which shares the contract.
  Cart_request cart_request = CART_REQUEST_NULL;
  MPI_Comm no_comm = MPI_COMM_NULL;
  expect_everywhere(Cart_alltoall_init(send, count, MPI_INT, recv, count, MPI_INT, iso, MPI_INFO_NULL, &cart_request),
                    MPI_ERR_COUNT, &no_comm);
  EXPECT_EQ(cart_request, CART_REQUEST_NULL);
}

TEST_F(IsoErrors, BadRequests) {
  MPI_Comm iso = ring();
  Iso_request null_request = ISO_REQUEST_NULL;
  EXPECT_EQ(error_class(Iso_start(&null_request)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(Iso_start(nullptr)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(Iso_request_free(&null_request)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(Iso_request_free(nullptr)), MPI_ERR_REQUEST);
  int send[2] = {1, 2}, recv[2];
  Iso_request request = ISO_REQUEST_NULL;
  ASSERT_EQ(Iso_neighbor_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, iso, &request), MPI_SUCCESS);
  ASSERT_EQ(Iso_start(&request), MPI_SUCCESS);
  ASSERT_EQ(Iso_request_free(&request), MPI_SUCCESS) << "a request is inactive when Iso_start returns";
  EXPECT_EQ(request, ISO_REQUEST_NULL);
  EXPECT_EQ(error_class(Iso_request_free(&request)), MPI_ERR_REQUEST) << "freed twice";
  EXPECT_EQ(error_class(Iso_start(&request)), MPI_ERR_REQUEST) << "started after free";
}

}  // namespace
