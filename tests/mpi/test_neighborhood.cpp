// SPDX-License-Identifier: BSD-3-Clause
// Cart_neighborhood_create and the query functions: MPI Cartesian communicator, coordinates,
// relative ranks, neighbor lists, weights, reorder, extra processes, MPI_Comm_dup.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/handle_census.hpp"
#include "cartcoll/cartcoll.hpp"

using namespace support;

namespace {

// 2-D grid using all processes: rows x cols with rows the largest divisor <= sqrt(p).
std::vector<int> two_d(int p) {
  int rows = 1;
  for (int r = 1; r * r <= p; ++r)
    if (p % r == 0) rows = r;
  return {rows, p / rows};
}

const std::vector<int> nine_point = {0, 1, 0, -1, -1, 0, 1, 0, -1, 1, 1, 1, 1, -1, -1, -1};

// The 9-point stencil on a 2-D grid; MPI_COMM_NULL where creation fails.
MPI_Comm nine_point_cart(const std::vector<int>& dims, const int* periods, const int* weights = MPI_UNWEIGHTED,
                         int reorder = 0) {
  MPI_Comm cart = MPI_COMM_NULL;
  EXPECT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 2, dims.data(), periods, 8, nine_point.data(), weights,
                                     MPI_INFO_NULL, reorder, &cart),
            MPI_SUCCESS);
  return cart;
}

TEST(Neighborhood, IsAnMpiCartesianCommunicatorWithRowMajorCoordinates) {
  const auto dims = two_d(world_size());
  const int periods[] = {1, 0};
  MPI_Comm cart = nine_point_cart(dims, periods);
  ASSERT_NE(cart, MPI_COMM_NULL);
  ASSERT_NE(cart, MPI_COMM_NULL);
  int topology = MPI_UNDEFINED, rank = 0, coords[2];
  MPI_Topo_test(cart, &topology);
  EXPECT_EQ(topology, MPI_CART);
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  EXPECT_EQ(rank, coords[0] * dims[1] + coords[1]);
  int t = -1;
  ASSERT_EQ(Cart_neighbor_count(cart, &t), MPI_SUCCESS);
  EXPECT_EQ(t, 8);
  MPI_Comm_free(&cart);
}

TEST(Neighborhood, RelativeRanksFollowTheGridRules) {
  const auto dims = two_d(world_size());
  const int periods[] = {1, 0};
  MPI_Comm cart = nine_point_cart(dims, periods);
  ASSERT_NE(cart, MPI_COMM_NULL);
  int rank = 0, coords[2];
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  for (int dr = -3; dr <= 3; ++dr) {
    for (int dc = -3; dc <= 3; ++dc) {
      const int relative[] = {dr, dc};
      const int row = ((coords[0] + dr) % dims[0] + dims[0]) % dims[0], col = coords[1] + dc;
      const int expected_out = col < 0 || col >= dims[1] ? MPI_PROC_NULL : row * dims[1] + col;
      const int back_row = ((coords[0] - dr) % dims[0] + dims[0]) % dims[0], back_col = coords[1] - dc;
      const int expected_in = back_col < 0 || back_col >= dims[1] ? MPI_PROC_NULL : back_row * dims[1] + back_col;
      int out = -2, in = -2, via_rank = -2;
      ASSERT_EQ(Cart_relative_shift(cart, relative, &in, &out), MPI_SUCCESS);
      ASSERT_EQ(Cart_relative_rank(cart, relative, &via_rank), MPI_SUCCESS);
      EXPECT_EQ(out, expected_out) << dr << "," << dc;
      EXPECT_EQ(in, expected_in) << dr << "," << dc;
      EXPECT_EQ(via_rank, expected_out);
    }
  }
  for (int other = 0; other < world_size(); ++other) {
    int relative[2], back = -1;
    ASSERT_EQ(Cart_relative_coord(cart, other, relative), MPI_SUCCESS);
    ASSERT_EQ(Cart_relative_rank(cart, relative, &back), MPI_SUCCESS);
    EXPECT_EQ(back, other) << "relative_coord then relative_rank returns to the same rank";
  }
  MPI_Comm_free(&cart);
}

TEST(Neighborhood, NeighborGetListsSourcesTargetsAndWeights) {
  const auto dims = two_d(world_size());
  const int periods[] = {0, 1};
  const int weights[] = {10, 11, 12, 13, 14, 15, 16, 17};
  MPI_Comm cart = nine_point_cart(dims, periods, weights);
  ASSERT_NE(cart, MPI_COMM_NULL);
  std::vector<int> sources(8, -2), targets(8, -2), source_weights(8, -2), target_weights(8, -2);
  ASSERT_EQ(Cart_neighbor_get(cart, 8, sources.data(), source_weights.data(), 8, targets.data(), target_weights.data()),
            MPI_SUCCESS);
  // Expected by MPI's own arithmetic: coordinates from MPI_Cart_coords, ranks from MPI_Cart_rank;
  // dimension 0 is a mesh (MPI_PROC_NULL off its ends), dimension 1 a torus.
  int rank = 0, coords[2] = {0, 0};
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  auto neighbor = [&](const int* offset, int sign) {
    int at[2] = {coords[0] + sign * offset[0], coords[1] + sign * offset[1]};
    if (at[0] < 0 || at[0] >= dims[0]) return MPI_PROC_NULL;
    int found = MPI_PROC_NULL;
    MPI_Cart_rank(cart, at, &found);
    return found;
  };
  for (int i = 0; i < 8; ++i) {
    const int* offset = &nine_point[static_cast<std::size_t>(2 * i)];
    EXPECT_EQ(sources[static_cast<std::size_t>(i)], neighbor(offset, -1)) << "offset " << i;
    EXPECT_EQ(targets[static_cast<std::size_t>(i)], neighbor(offset, +1)) << "offset " << i;
    EXPECT_EQ(source_weights[static_cast<std::size_t>(i)], weights[i]);
    EXPECT_EQ(target_weights[static_cast<std::size_t>(i)], weights[i]);
  }
  // Fewer slots than neighbors: only that many are written.
  std::vector<int> three(4, -7);
  ASSERT_EQ(Cart_neighbor_get(cart, 3, three.data(), MPI_UNWEIGHTED, 0, nullptr, MPI_UNWEIGHTED), MPI_SUCCESS);
  EXPECT_EQ(three[3], -7);
  EXPECT_EQ(three[0], sources[0]);
  MPI_Comm_free(&cart);
}

TEST(Neighborhood, ProcessesBeyondTheGridGetCommNull) {
  const int p = world_size();
  if (p < 2) GTEST_SKIP() << "needs two processes";
  const int dims[] = {p - 1}, periods[] = {1}, offsets[] = {1};
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 1, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &cart),
            MPI_SUCCESS);
  EXPECT_EQ(cart == MPI_COMM_NULL, world_rank() == p - 1);
  if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
}

TEST(Neighborhood, ReorderIsPassedOnAndCoordinatesStayConsistent) {
  const auto dims = two_d(world_size());
  const int periods[] = {1, 1};
  MPI_Comm cart = nine_point_cart(dims, periods, MPI_UNWEIGHTED, 1);
  ASSERT_NE(cart, MPI_COMM_NULL);
  int rank = 0, coords[2], up = -1;
  MPI_Comm_rank(cart, &rank);
  MPI_Cart_coords(cart, rank, 2, coords);
  const int relative[] = {1, 0};
  Cart_relative_rank(cart, relative, &up);
  int expected_coords[2];
  MPI_Cart_coords(cart, up, 2, expected_coords);
  EXPECT_EQ(expected_coords[0], (coords[0] + 1) % dims[0]);
  EXPECT_EQ(expected_coords[1], coords[1]);
  MPI_Comm_free(&cart);
}

// MPI_Comm_dup keeps the neighborhood, as it keeps an MPI topology; the duplicate's collectives use
// their own library communicator.
TEST(Neighborhood, SurvivesCommDup) {
  const int p = world_size(), dims[] = {p}, periods[] = {1}, offsets[] = {1, -2};
  MPI_Comm cart = MPI_COMM_NULL, copy = MPI_COMM_NULL;
  ASSERT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &cart),
            MPI_SUCCESS);
  MPI_Comm_dup(cart, &copy);
  int t = 0;
  ASSERT_EQ(Cart_neighbor_count(copy, &t), MPI_SUCCESS);
  EXPECT_EQ(t, 2);
  int rank = 0;
  MPI_Comm_rank(copy, &rank);
  const int send[] = {rank * 10, rank * 10 + 1};
  int recv[] = {-1, -1};
  ASSERT_EQ(Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, copy), MPI_SUCCESS);
  EXPECT_EQ(recv[0], ((rank - 1 + p) % p) * 10);
  EXPECT_EQ(recv[1], ((rank + 2) % p) * 10 + 1);
  MPI_Comm_free(&copy);
  MPI_Comm_free(&cart);
  EXPECT_EQ(census::live().communicators, 0u);
}

// The C++ API: RAII communicator, typed alltoall/allgather, Request objects.
TEST(Neighborhood, CppApiRoundTrip) {
  const int p = world_size();
  cartcoll::Grid grid({p}, {true});
  cartcoll::Offsets offsets(1, {1, -1, 0});
  cartcoll::Communicator owned = cartcoll::Communicator::create(MPI_COMM_WORLD, grid, offsets);
  ASSERT_TRUE(owned);
  const cartcoll::CartComm cart = owned.view();
  const int rank = cart.rank();
  std::vector<int> send = {rank * 3, rank * 3 + 1, rank * 3 + 2}, recv(3, -1);
  cartcoll::alltoall<int>(cart, send, recv);
  EXPECT_EQ(recv[0], ((rank - 1 + p) % p) * 3);
  EXPECT_EQ(recv[1], ((rank + 1) % p) * 3 + 1);
  EXPECT_EQ(recv[2], rank * 3 + 2);
  std::vector<int> mine = {rank}, gathered(3, -1);
  cartcoll::allgather<int>(cart, mine, gathered);
  EXPECT_EQ(gathered, (std::vector<int>{(rank - 1 + p) % p, (rank + 1) % p, rank}));
  cartcoll::Request request = cart.exchange_init(
      cartcoll::layout::alltoall({3, 3}, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT));
  auto value = [](int round, int from, int block) { return 100 * round + 10 * from + block; };
  for (int round = 1; round <= 3; ++round) {
    send = {value(round, rank, 0), value(round, rank, 1), value(round, rank, 2)};
    std::fill(recv.begin(), recv.end(), -1);
    request.start();
    request.wait();
    EXPECT_EQ(recv, (std::vector<int>{value(round, (rank - 1 + p) % p, 0), value(round, (rank + 1) % p, 1),
                                      value(round, rank, 2)}));
  }
  EXPECT_THROW(cartcoll::CartComm(MPI_COMM_WORLD), cartcoll::Error);
  // wait_all completes requests in array order, the empty ones skipped.
  std::vector<cartcoll::Request> requests;
  mine = {-rank - 1};
  std::fill(gathered.begin(), gathered.end(), 0);
  requests.push_back(cart.iexchange(cartcoll::layout::allgather({3, 3}, mine.data(), 1, MPI_INT, gathered.data(), 1, MPI_INT)));
  requests.emplace_back();
  cartcoll::wait_all(requests);
  EXPECT_FALSE(requests[0]);
  EXPECT_EQ(gathered, (std::vector<int>{-((rank - 1 + p) % p) - 1, -((rank + 1) % p) - 1, -rank - 1}));
}

// A view does not own its communicator: used after MPI_Comm_free it throws Error(Errc::comm) instead of
// reading freed state. Requests do outlive it, as MPI's own requests outlive MPI_Comm_free: an
// outstanding nonblocking one completes, and a persistent one can still be started and freed.
TEST(Neighborhood, ViewsNoticeAFreedCommunicatorAndRequestsOutliveIt) {
  const int p = world_size();
  cartcoll::Communicator owned = cartcoll::Communicator::create(MPI_COMM_WORLD, cartcoll::Grid({p}, {true}),
                                                                cartcoll::Offsets(1, {1, -1}));
  const cartcoll::CartComm cart = owned.view();
  const int rank = cart.rank();
  std::vector<int> send = {10 * rank, 10 * rank + 1}, recv(2, -1), psend = {7, 8}, precv(2, -1);
  cartcoll::Request outstanding = cart.iexchange(
      cartcoll::layout::alltoall({2, 2}, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT));
  cartcoll::Request persistent = cart.exchange_init(
      cartcoll::layout::alltoall({2, 2}, psend.data(), 1, MPI_INT, precv.data(), 1, MPI_INT));
  MPI_Comm comm = owned.release();
  MPI_Comm_free(&comm);
  try {
    (void)cart.grid();
    ADD_FAILURE() << "a view of a freed communicator answered";
  } catch (const cartcoll::Error& error) {
    EXPECT_EQ(error.kind(), cartcoll::Errc::comm);
  }
  EXPECT_THROW(cartcoll::alltoall<int>(cart, send, recv), cartcoll::Error);
  outstanding.wait();
  EXPECT_EQ(recv, (std::vector<int>{10 * ((rank - 1 + p) % p), 10 * ((rank + 1) % p) + 1}));
  for (int round = 0; round < 2; ++round) {
    psend = {100 * round + rank, -(100 * round + rank)};
    persistent.start();
    persistent.wait();
    EXPECT_EQ(precv, (std::vector<int>{100 * round + (rank - 1 + p) % p, -(100 * round + (rank + 1) % p)}));
  }
  persistent = cartcoll::Request();
  EXPECT_EQ(census::live().communicators, 0u) << "the library's communicator outlived the last request";
  EXPECT_EQ(census::live().requests, 0u);
}

}  // namespace
