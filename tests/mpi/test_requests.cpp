// Requests: several alive on one communicator, started in different orders, freed without a start,
// completed by Cart_test polling; the library's traffic never meets the user's on the communicator.
#include <gtest/gtest.h>

#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/handle_census.hpp"

using namespace support;

namespace {

class Requests : public testing::Test {
 protected:
  void SetUp() override {
    const int dims[] = {world_size()}, periods[] = {1}, offsets[] = {1, -1, 2, 0};
    ASSERT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 4, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                       &cart_),
              MPI_SUCCESS);
    MPI_Comm_rank(cart_, &rank_);
    p_ = world_size();
  }
  void TearDown() override {
    MPI_Comm_free(&cart_);
    EXPECT_EQ(census::live().requests, 0u);
    EXPECT_EQ(census::live().datatypes, 0u);
  }
  int source(int offset) const { return ((rank_ - offset) % p_ + p_) % p_; }
  MPI_Comm cart_ = MPI_COMM_NULL;
  int rank_ = 0, p_ = 1;
  const int offsets_[4] = {1, -1, 2, 0};
};

TEST_F(Requests, TwoPersistentRequestsAliveOnOneCommunicator) {
  std::vector<int> a_send(4), a_recv(4), b_send(1), b_recv(4);
  Cart_request a = CART_REQUEST_NULL, b = CART_REQUEST_NULL;
  ASSERT_EQ(Cart_alltoall_init(a_send.data(), 1, MPI_INT, a_recv.data(), 1, MPI_INT, cart_, MPI_INFO_NULL, &a), MPI_SUCCESS);
  ASSERT_EQ(Cart_allgather_init(b_send.data(), 1, MPI_INT, b_recv.data(), 1, MPI_INT, cart_, MPI_INFO_NULL, &b), MPI_SUCCESS);
  for (int cycle = 0; cycle < 20; ++cycle) {
    for (int i = 0; i < 4; ++i) a_send[static_cast<std::size_t>(i)] = 1000 * cycle + 10 * rank_ + i;
    b_send[0] = -(1000 * cycle + rank_);
    // Both in flight at once; completed in the opposite order every other cycle.
    ASSERT_EQ(Cart_start(&a), MPI_SUCCESS);
    ASSERT_EQ(Cart_start(&b), MPI_SUCCESS);
    if (cycle % 2) {
      ASSERT_EQ(Cart_wait(&b), MPI_SUCCESS);
      ASSERT_EQ(Cart_wait(&a), MPI_SUCCESS);
    } else {
      ASSERT_EQ(Cart_wait(&a), MPI_SUCCESS);
      ASSERT_EQ(Cart_wait(&b), MPI_SUCCESS);
    }
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(a_recv[static_cast<std::size_t>(i)], 1000 * cycle + 10 * source(offsets_[i]) + i);
      EXPECT_EQ(b_recv[static_cast<std::size_t>(i)], -(1000 * cycle + source(offsets_[i])));
    }
  }
  ASSERT_EQ(Cart_request_free(&a), MPI_SUCCESS);
  ASSERT_EQ(Cart_request_free(&b), MPI_SUCCESS);
}

TEST_F(Requests, FreeWithoutStart) {
  int send[4] = {}, recv[4] = {};
  Cart_request request = CART_REQUEST_NULL;
  ASSERT_EQ(Cart_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, cart_, MPI_INFO_NULL, &request), MPI_SUCCESS);
  ASSERT_EQ(Cart_request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(request, CART_REQUEST_NULL);
}

TEST_F(Requests, NonblockingAndBlockingInterleave) {
  std::vector<int> send(4), recv(4, -1), blocking_recv(4, -1);
  for (int i = 0; i < 4; ++i) send[static_cast<std::size_t>(i)] = 10 * rank_ + i;
  Cart_request request = CART_REQUEST_NULL;
  ASSERT_EQ(Cart_ialltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, cart_, &request), MPI_SUCCESS);
  // A blocking call while the nonblocking one is outstanding uses its own tag.
  ASSERT_EQ(Cart_alltoall(send.data(), 1, MPI_INT, blocking_recv.data(), 1, MPI_INT, cart_), MPI_SUCCESS);
  int done = 0;
  while (!done) ASSERT_EQ(Cart_test(&request, &done), MPI_SUCCESS);
  EXPECT_EQ(request, CART_REQUEST_NULL);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(recv[static_cast<std::size_t>(i)], 10 * source(offsets_[i]) + i);
    EXPECT_EQ(blocking_recv[static_cast<std::size_t>(i)], 10 * source(offsets_[i]) + i);
  }
}

// User point-to-point messages on the Cartesian communicator, posted around a collective with
// MPI_ANY_TAG, never match library messages (the library communicates on its own duplicate).
TEST_F(Requests, UserTrafficOnTheCommunicatorIsNotDisturbed) {
  const int right = (rank_ + 1) % p_, left = (rank_ - 1 + p_) % p_;
  int user_in = -1, user_out = 7000 + rank_;
  MPI_Request user_recv, user_send;
  MPI_Irecv(&user_in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, cart_, &user_recv);
  std::vector<int> send(4), recv(4, -1);
  for (int i = 0; i < 4; ++i) send[static_cast<std::size_t>(i)] = 10 * rank_ + i;
  ASSERT_EQ(Cart_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, cart_), MPI_SUCCESS);
  MPI_Isend(&user_out, 1, MPI_INT, right, 0, cart_, &user_send);
  MPI_Wait(&user_recv, MPI_STATUS_IGNORE);
  MPI_Wait(&user_send, MPI_STATUS_IGNORE);
  EXPECT_EQ(user_in, 7000 + left);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(recv[static_cast<std::size_t>(i)], 10 * source(offsets_[i]) + i);
}

}  // namespace
