// SPDX-License-Identifier: BSD-3-Clause
// Tags: concurrent and persistent operations never share a tag while both are live, however many
// operations came before. With CARTCOLL_MAX_TAG=127 (set before the communicator is made) the library
// has 64 persistent and 64 ephemeral tags, so 640 create/free cycles wrap both ranges ten times. Odd
// ranks keep every 10th cycle's persistent request for 300 more cycles (free is local): when the
// candidates come round to such a tag, it is free on even ranks and still in use on odd ones, and only
// tags agreed at *_init keep the processes on the same tag. Every cycle checks the data. The test is a
// count of cycles; its watchdog only catches a hang (MPICH's polling on 2 loaded cores takes tens of
// seconds for it at 4 processes).
#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/handle_census.hpp"
#include "../support/watchdog.hpp"

using namespace support;

namespace {

constexpr int cycles = 640;

int value(int cycle, int rank, int block) { return 100000 * cycle + 100 * rank + block; }

TEST(Tags, PersistentAndNonblockingTagsNeverCollide) {
  const Watchdog watchdog("PersistentAndNonblockingTagsNeverCollide", std::chrono::seconds(240));
  setenv("CARTCOLL_MAX_TAG", "127", 1);
  const int p = world_size(), rank = world_rank();
  const int dims[] = {p}, periods[] = {1}, offsets[] = {1, -2};
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                     &cart),
            MPI_SUCCESS);
  unsetenv("CARTCOLL_MAX_TAG");
  auto source = [&](int offset) { return ((rank - offset) % p + p) % p; };

  // The long-lived request.
  std::vector<int> live_send(2), live_recv(2);
  Cart_request live = CART_REQUEST_NULL;
  ASSERT_EQ(Cart_alltoall_init(live_send.data(), 1, MPI_INT, live_recv.data(), 1, MPI_INT, cart, MPI_INFO_NULL, &live),
            MPI_SUCCESS);

  std::vector<int> send(1), recv(2), nb_send(2), nb_recv(2);
  std::deque<std::pair<int, Cart_request>> kept;  // odd ranks: (cycle to free at, request)
  for (int cycle = 0; cycle < cycles; ++cycle) {
    Cart_request cycle_request = CART_REQUEST_NULL;
    ASSERT_EQ(Cart_allgather_init(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, cart, MPI_INFO_NULL, &cycle_request),
              MPI_SUCCESS);
    for (int i = 0; i < 2; ++i) {
      live_send[static_cast<std::size_t>(i)] = value(cycle, rank, i);
      nb_send[static_cast<std::size_t>(i)] = -value(cycle, rank, i);
    }
    send[0] = value(cycle, rank, 7);
    ASSERT_EQ(Cart_start(&live), MPI_SUCCESS);
    ASSERT_EQ(Cart_start(&cycle_request), MPI_SUCCESS);
    Cart_request nonblocking = CART_REQUEST_NULL;
    ASSERT_EQ(Cart_ialltoall(nb_send.data(), 1, MPI_INT, nb_recv.data(), 1, MPI_INT, cart, &nonblocking), MPI_SUCCESS);
    Cart_request all[] = {live, cycle_request, nonblocking};
    if (rank % 2) std::swap(all[0], all[2]);
    for (Cart_request& request : all) ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
    for (int i = 0; i < 2; ++i) {
      const int from = source(offsets[i]);
      ASSERT_EQ(live_recv[static_cast<std::size_t>(i)], value(cycle, from, i)) << "cycle " << cycle;
      ASSERT_EQ(nb_recv[static_cast<std::size_t>(i)], -value(cycle, from, i)) << "cycle " << cycle;
      ASSERT_EQ(recv[static_cast<std::size_t>(i)], value(cycle, from, 7)) << "cycle " << cycle;
    }
    if (rank % 2 == 1 && cycle % 10 == 0)
      kept.emplace_back(cycle + 300, cycle_request);
    else
      ASSERT_EQ(Cart_request_free(&cycle_request), MPI_SUCCESS);
    while (!kept.empty() && kept.front().first == cycle) {
      ASSERT_EQ(Cart_request_free(&kept.front().second), MPI_SUCCESS);
      kept.pop_front();
    }
  }
  for (auto& [when, request] : kept) ASSERT_EQ(Cart_request_free(&request), MPI_SUCCESS);
  ASSERT_EQ(Cart_request_free(&live), MPI_SUCCESS);
  MPI_Comm_free(&cart);
  EXPECT_EQ(census::live().requests, 0u);
  EXPECT_EQ(census::live().communicators, 0u);
}

// With 64 persistent tags, a 65th persistent request alive finds none: every process gets the same
// error, and the requests already made keep working.
TEST(Tags, MorePersistentRequestsThanTagsFailEverywhere) {
  setenv("CARTCOLL_MAX_TAG", "127", 1);
  const int p = world_size(), dims[] = {p}, periods[] = {1}, offsets[] = {1};
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 1, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                     &cart),
            MPI_SUCCESS);
  unsetenv("CARTCOLL_MAX_TAG");
  MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
  int send = world_rank(), recv = -1;
  std::vector<Cart_request> requests(64, CART_REQUEST_NULL);
  for (Cart_request& request : requests)
    ASSERT_EQ(Cart_alltoall_init(&send, 1, MPI_INT, &recv, 1, MPI_INT, cart, MPI_INFO_NULL, &request), MPI_SUCCESS);
  Cart_request one_too_many = CART_REQUEST_NULL;
  int code = Cart_alltoall_init(&send, 1, MPI_INT, &recv, 1, MPI_INT, cart, MPI_INFO_NULL, &one_too_many);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(code, &error_class);
  EXPECT_EQ(error_class, MPI_ERR_INTERN);
  EXPECT_EQ(one_too_many, CART_REQUEST_NULL);
  ASSERT_EQ(Cart_start(&requests.back()), MPI_SUCCESS);
  ASSERT_EQ(Cart_wait(&requests.back()), MPI_SUCCESS);
  EXPECT_EQ(recv, (world_rank() - 1 + p) % p);
  for (Cart_request& request : requests) ASSERT_EQ(Cart_request_free(&request), MPI_SUCCESS);
  MPI_Comm_free(&cart);
}

}  // namespace
