// SPDX-License-Identifier: BSD-3-Clause
// Requests: several alive on one communicator, started in different orders, freed without a start,
// completed by Cart_test polling; the library's traffic never meets the user's on the communicator.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/handle_census.hpp"
#include "cartcoll/neighbor.h"
#include "runtime/exec/argument_print.hpp"

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

// A repeated nonblocking v call finds its communicator's state without asking MPI, and its kept
// operation holds that state while idle: communicators freed and made again (MPI may give the new
// one the freed one's handle) with other neighborhoods each deliver their own blocks, and a call
// still in flight when its communicator is freed completes.
TEST(RepeatedNonblocking, CommunicatorsFreedAndMadeAgain) {
  int rank = 0;
  const int p = world_size();
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::vector<std::vector<int>> rounds = {{1, -1}, {2, 1, -1}, {-1}, {1, 1, 0}, {1, -1}};
  for (std::size_t round = 0; round < rounds.size(); ++round) {
    const std::vector<int>& offsets = rounds[round];
    const int degree = static_cast<int>(offsets.size()), dims[] = {p}, periods[] = {1};
    MPI_Comm comm = MPI_COMM_NULL;
    ASSERT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, degree, offsets.data(), MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &comm),
              MPI_SUCCESS);
    // Block j holds 1 + j ints, element e of this process's block j is value(rank, j, e, call).
    std::vector<int> counts, displs;
    for (int j = 0; j < degree; ++j) {
      displs.push_back(j == 0 ? 0 : displs.back() + counts.back());
      counts.push_back(1 + j);
    }
    const auto total = static_cast<std::size_t>(displs.back() + counts.back());
    std::vector<int> send(total), recv(total);
    const auto value = [&](int from, int block, int element, int call) {
      return 100000 * call + 10000 * static_cast<int>(round) + 100 * from + 10 * block + element;
    };
    for (int call = 0; call < 4; ++call) {
      for (int j = 0; j < degree; ++j)
        for (int e = 0; e < counts[static_cast<std::size_t>(j)]; ++e)
          send[static_cast<std::size_t>(displs[static_cast<std::size_t>(j)] + e)] = value(rank, j, e, call);
      std::fill(recv.begin(), recv.end(), -1);
      MPI_Request request = MPI_REQUEST_NULL;
      ASSERT_EQ(CC_Ineighbor_alltoallv(send.data(), counts.data(), displs.data(), MPI_INT, recv.data(), counts.data(),
                                       displs.data(), MPI_INT, comm, &request),
                MPI_SUCCESS);
      if (call == 3) ASSERT_EQ(MPI_Comm_free(&comm), MPI_SUCCESS);  // the last call in flight
      ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
      EXPECT_EQ(request, MPI_REQUEST_NULL);
      for (int j = 0; j < degree; ++j) {
        const int from = ((rank - offsets[static_cast<std::size_t>(j)]) % p + p) % p;
        for (int e = 0; e < counts[static_cast<std::size_t>(j)]; ++e)
          ASSERT_EQ(recv[static_cast<std::size_t>(displs[static_cast<std::size_t>(j)] + e)], value(from, j, e, call))
              << "round " << round << ", call " << call << ", block " << j << ", element " << e;
      }
    }
  }
}

// Blocking and nonblocking calls share struct datatypes through a cache on the communicator, keyed
// by (address, count, predefined type). Changing buffers, reallocating them, and reusing a freed
// derived datatype's handle for another layout must all still deliver the right data, and the cache
// must stay bounded.
class SharedDatatypes : public testing::Test {
 protected:
  void SetUp() override {
    cart_ = moore_torus(2, "combining");  // messages of several blocks: struct types
    ASSERT_NE(cart_, MPI_COMM_NULL);
    MPI_Comm_rank(cart_, &rank_);
    std::vector<int> sources(8), targets(8);
    ASSERT_EQ(Cart_neighbor_get(cart_, 8, sources.data(), MPI_UNWEIGHTED, 8, targets.data(), MPI_UNWEIGHTED),
              MPI_SUCCESS);
    sources_ = sources;
  }
  void TearDown() override {
    MPI_Comm_free(&cart_);
    EXPECT_EQ(census::live().datatypes, 0u) << "the cache's datatypes outlived the communicator";
  }
  // One alltoall of `m` ints per block through `type` (a predefined or derived type of one int's
  // signature per element, `stride` ints apart), blocking or nonblocking, checked against the
  // sources' data.
  void exchange(std::vector<int>& send, std::vector<int>& recv, int m, MPI_Datatype type, int call, bool blocking,
                int stride = 1) {
    auto at = [&](int i, int k) { return static_cast<std::size_t>((i * m + k) * stride); };
    std::fill(send.begin(), send.end(), -5);
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < m; ++k) send[at(i, k)] = value(rank_, i, k, call);
    std::fill(recv.begin(), recv.end(), -1);
    if (blocking) {
      ASSERT_EQ(Cart_alltoall(send.data(), m, type, recv.data(), m, type, cart_), MPI_SUCCESS);
    } else {
      Cart_request request = CART_REQUEST_NULL;
      ASSERT_EQ(Cart_ialltoall(send.data(), m, type, recv.data(), m, type, cart_, &request), MPI_SUCCESS);
      ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
    }
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < m; ++k)
        ASSERT_EQ(recv[at(i, k)], value(sources_[static_cast<std::size_t>(i)], i, k, call))
            << "call " << call << ", block " << i << ", element " << k;
  }
  static int value(int rank, int block, int element, int call) { return 100000 * call + 1000 * rank + 10 * block + element; }

  MPI_Comm cart_ = MPI_COMM_NULL;
  int rank_ = 0;
  std::vector<int> sources_;
};

TEST_F(SharedDatatypes, SameAndChangedAndReallocatedBuffers) {
  int call = 0;
  {
    std::vector<int> send_a(16), recv_a(16), send_b(16), recv_b(16);
    for (int repeat = 0; repeat < 3; ++repeat) exchange(send_a, recv_a, 2, MPI_INT, ++call, repeat != 1);
    exchange(send_b, recv_b, 2, MPI_INT, ++call, true);
    exchange(send_a, recv_a, 2, MPI_INT, ++call, true);
    exchange(send_a, recv_a, 1, MPI_INT, ++call, true);  // same addresses, other counts
  }
  // Freed and allocated again, quite possibly at the same addresses.
  std::vector<int> send(16), recv(16);
  exchange(send, recv, 2, MPI_INT, ++call, true);
}

// A blocking alltoall or allgather repeated with equal arguments reuses the last call's execution
// without building its layout (CommState::RepeatedCall). The same pointers and counts in another
// collective, or the same blocks reached through the v form in between, must not be taken for it.
TEST_F(SharedDatatypes, RepeatedArgumentsAreRecognizedPerCollective) {
  std::vector<int> send(16), recv(16);
  int call = 0;
  for (int round = 0; round < 2; ++round) {
    exchange(send, recv, 2, MPI_INT, ++call, true);
    exchange(send, recv, 2, MPI_INT, ++call, true);
    // allgather through the same pointers and counts: send block 0 goes to every target
    ++call;
    for (int k = 0; k < 2; ++k) send[static_cast<std::size_t>(k)] = value(rank_, 0, k, call);
    ASSERT_EQ(Cart_allgather(send.data(), 2, MPI_INT, recv.data(), 2, MPI_INT, cart_), MPI_SUCCESS);
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 2; ++k)
        ASSERT_EQ(recv[static_cast<std::size_t>(2 * i + k)], value(sources_[static_cast<std::size_t>(i)], 0, k, call))
            << "allgather after alltoall, block " << i;
    // the v form of the same blocks, then the regular form again
    ++call;
    for (int i = 0; i < 16; ++i) send[static_cast<std::size_t>(i)] = value(rank_, i / 2, i % 2, call);
    const std::vector<int> counts(8, 2), displs{0, 2, 4, 6, 8, 10, 12, 14};
    ASSERT_EQ(Cart_alltoallv(send.data(), counts.data(), displs.data(), MPI_INT, recv.data(), counts.data(),
                             displs.data(), MPI_INT, cart_),
              MPI_SUCCESS);
    for (int i = 0; i < 16; ++i)
      ASSERT_EQ(recv[static_cast<std::size_t>(i)], value(sources_[static_cast<std::size_t>(i / 2)], i / 2, i % 2, call));
  }
}

// A blocking v call repeated with the same arrays reuses the last call's execution only while their
// contents are equal (ArgumentPrint): displacements and counts changed in place are seen.
TEST_F(SharedDatatypes, RepeatedVArgumentsFollowTheArraysContents) {
  std::vector<int> send(16), recv(16), counts(8, 2), displs{0, 2, 4, 6, 8, 10, 12, 14};
  auto at = [&](int block, int element) { return static_cast<std::size_t>(displs[static_cast<std::size_t>(block)] + element); };
  for (int call = 1; call <= 4; ++call) {
    if (call == 3) std::reverse(displs.begin(), displs.end());  // other places, same pointers
    if (call == 4) std::fill(counts.begin(), counts.end(), 1);   // fewer elements, same pointers
    const int m = counts[0];
    std::fill(send.begin(), send.end(), -5);
    std::fill(recv.begin(), recv.end(), -1);
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < m; ++k) send[at(i, k)] = value(rank_, i, k, call);
    ASSERT_EQ(Cart_alltoallv(send.data(), counts.data(), displs.data(), MPI_INT, recv.data(), counts.data(),
                             displs.data(), MPI_INT, cart_),
              MPI_SUCCESS);
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < m; ++k)
        ASSERT_EQ(recv[at(i, k)], value(sources_[static_cast<std::size_t>(i)], i, k, call))
            << "call " << call << ", block " << i << ", element " << k;
    if (m == 1)
      for (int i = 0; i < 8; ++i) ASSERT_EQ(recv[at(i, 1) % 16], -1) << "call " << call << ": an element too many";
  }
}

// The same through CC_Ineighbor_alltoallv + CC_Wait, whose repeats take the last call's lowered
// execution (CommState::RepeatedNonblocking): arrays changed in place are seen, and calls in flight
// at once with other buffers each run their own, whichever completes first.
TEST_F(SharedDatatypes, RepeatedNonblockingVArgumentsFollowTheArraysContents) {
  std::vector<int> send(16), recv(16), other_send(16), other_recv(16), counts(8, 2),
      displs{0, 2, 4, 6, 8, 10, 12, 14};
  auto at = [&](int block, int element) { return static_cast<std::size_t>(displs[static_cast<std::size_t>(block)] + element); };
  auto start = [&](std::vector<int>& out, std::vector<int>& in, int call, MPI_Request* request) {
    std::fill(out.begin(), out.end(), -5);
    std::fill(in.begin(), in.end(), -1);
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < counts[0]; ++k) out[at(i, k)] = value(rank_, i, k, call);
    ASSERT_EQ(CC_Ineighbor_alltoallv(out.data(), counts.data(), displs.data(), MPI_INT, in.data(), counts.data(),
                                     displs.data(), MPI_INT, cart_, request),
              MPI_SUCCESS);
  };
  auto check = [&](const std::vector<int>& in, int call) {
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < counts[0]; ++k)
        ASSERT_EQ(in[at(i, k)], value(sources_[static_cast<std::size_t>(i)], i, k, call))
            << "call " << call << ", block " << i << ", element " << k;
    if (counts[0] == 1)
      for (int i = 0; i < 8; ++i) ASSERT_EQ(in[at(i, 1) % 16], -1) << "call " << call << ": an element too many";
  };
  for (int call = 1; call <= 8; ++call) {
    if (call == 4) std::reverse(displs.begin(), displs.end());  // other places, same pointers
    if (call == 6) std::fill(counts.begin(), counts.end(), 1);   // fewer elements, same pointers
    MPI_Request request = MPI_REQUEST_NULL, other = MPI_REQUEST_NULL;
    start(send, recv, call, &request);
    const bool overlapping = call % 4 == 3;  // calls 2, 3, 5 and 7 repeat the one before
    if (overlapping) start(other_send, other_recv, -call, &other);  // in flight at once, other buffers
    if (call == 3) ASSERT_EQ(CC_Wait(&other, MPI_STATUS_IGNORE), MPI_SUCCESS);
    ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
    ASSERT_EQ(CC_Wait(&other, MPI_STATUS_IGNORE), MPI_SUCCESS);
    check(recv, call);
    if (overlapping) check(other_recv, -call);
  }
}

TEST_F(SharedDatatypes, ReusedHandlesOfDerivedDatatypesAreNotConfused) {
  std::vector<int> send(32), recv(32);
  for (int call = 1; call <= 4; ++call) {
    // Alternately one int, and one int in an extent of two (elements two ints apart): the same
    // signature but another layout. Each is freed after its call, so MPI may hand out the same
    // handle value for the next, different type; a struct type cached under that handle would put
    // the elements in the wrong places.
    MPI_Datatype type = MPI_DATATYPE_NULL;
    const int stride = call % 2 ? 1 : 2;
    if (stride == 1) {
      MPI_Type_contiguous(1, MPI_INT, &type);
    } else {
      MPI_Type_create_resized(MPI_INT, 0, static_cast<MPI_Aint>(2 * sizeof(int)), &type);
    }
    MPI_Type_commit(&type);
    exchange(send, recv, 2, type, call, true, stride);
    MPI_Type_free(&type);
  }
}

TEST_F(SharedDatatypes, TheCacheStaysBounded) {
  if (world_size() == 1) GTEST_SKIP() << "one process sends no messages: no struct datatypes to cache";
  // 300 calls on buffers at different addresses, all kept alive: each call's types are new.
  std::vector<std::vector<int>> sends(300, std::vector<int>(8)), recvs(300, std::vector<int>(8));
  for (std::size_t call = 0; call < sends.size(); ++call)
    exchange(sends[call], recvs[call], 1, MPI_INT, static_cast<int>(call), true);
  EXPECT_LE(census::live().datatypes, 256u + 16u) << "cached datatypes grow without bound";
}

}  // namespace
