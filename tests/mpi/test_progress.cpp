// SPDX-License-Identifier: BSD-3-Clause
// The progress engine: several operations outstanding at once, on one and on two communicators,
// completed in orders that differ between processes — by wait, by test loops, by wait-all, and
// across blocking calls — for every algorithm; and nonblocking starts that neither wait nor agree.
//
// Each test runs under a watchdog. With the engine switched off (CARTCOLL_PROGRESS=operation, the
// ctest entries test_progress_disabled.*), waiting advances only the operation waited for, and the
// multi-phase algorithms deadlock: the watchdog must then report "deadlock detected".
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "../support/call_census.hpp"
#include "../support/cart_fixture.hpp"
#include "../support/handle_census.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/neighbor.h"

using namespace support;

namespace {

const std::chrono::seconds deadline = deadline_or_environment(std::chrono::seconds(30));

// A 2-D torus over all processes with the Moore neighborhood of radius 1: combining needs 2 phases,
// torus 4, so a process that stops advancing an operation halfway stalls its neighbors.
MPI_Comm moore_torus(const std::string& algorithm) { return support::moore_torus(2, algorithm); }

// One collective call with data that depends on the sender, the block and a generation number, and
// the check of what arrived.
class Exchange {
 public:
  Exchange(MPI_Comm cart, bool gather, int generation) : cart_(cart), gather_(gather), generation_(generation) {
    int rank = 0;
    MPI_Comm_rank(cart, &rank);
    sources_.resize(8);
    targets_.resize(8);
    Cart_neighbor_get(cart, 8, sources_.data(), MPI_UNWEIGHTED, 8, targets_.data(), MPI_UNWEIGHTED);
    send_.resize(gather ? 1 : 8);
    for (std::size_t i = 0; i < send_.size(); ++i) send_[i] = value(rank, static_cast<int>(i));
    recv_.assign(8, -1);
  }

  int start() {
    return gather_ ? Cart_iallgather(send_.data(), 1, MPI_INT, recv_.data(), 1, MPI_INT, cart_, &request_)
                   : Cart_ialltoall(send_.data(), 1, MPI_INT, recv_.data(), 1, MPI_INT, cart_, &request_);
  }
  int init() {
    return gather_ ? Cart_allgather_init(send_.data(), 1, MPI_INT, recv_.data(), 1, MPI_INT, cart_, MPI_INFO_NULL, &request_)
                   : Cart_alltoall_init(send_.data(), 1, MPI_INT, recv_.data(), 1, MPI_INT, cart_, MPI_INFO_NULL, &request_);
  }
  int blocking() {
    return gather_ ? Cart_allgather(send_.data(), 1, MPI_INT, recv_.data(), 1, MPI_INT, cart_)
                   : Cart_alltoall(send_.data(), 1, MPI_INT, recv_.data(), 1, MPI_INT, cart_);
  }
  // For a persistent request's next cycle.
  void renew(int generation) {
    generation_ = generation;
    int rank = 0;
    MPI_Comm_rank(cart_, &rank);
    for (std::size_t i = 0; i < send_.size(); ++i) send_[i] = value(rank, static_cast<int>(i));
    std::fill(recv_.begin(), recv_.end(), -1);
  }
  Cart_request& request() { return request_; }

  void expect_delivered(const char* how) const {
    for (std::size_t i = 0; i < recv_.size(); ++i)
      EXPECT_EQ(recv_[i], value(sources_[i], gather_ ? 0 : static_cast<int>(i)))
          << how << ", " << (gather_ ? "allgather" : "alltoall") << " generation " << generation_ << ", block " << i;
  }

 private:
  int value(int rank, int block) const { return 1000000 * generation_ + 1000 * rank + block; }

  MPI_Comm cart_;
  bool gather_;
  int generation_;
  std::vector<int> sources_, targets_, send_, recv_;
  Cart_request request_ = CART_REQUEST_NULL;
};

// A permutation of 0..n-1 that differs between neighboring ranks: rotated by the rank, reversed on
// every other block of n ranks.
std::vector<std::size_t> rank_order(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  const auto rank = static_cast<std::size_t>(world_rank());
  std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(rank % n), order.end());
  if ((rank / n) % 2 == 1) std::reverse(order.begin(), order.end());
  return order;
}

class Progress : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    watchdog_ = std::make_unique<Watchdog>(testing::UnitTest::GetInstance()->current_test_info()->name(), deadline);
    first_ = moore_torus(GetParam());
    second_ = moore_torus(GetParam());
  }
  void TearDown() override {
    MPI_Comm_free(&first_);
    MPI_Comm_free(&second_);
    EXPECT_EQ(census::live().requests, 0u);
    EXPECT_EQ(census::live().datatypes, 0u);
    EXPECT_EQ(census::live().communicators, 0u);
    watchdog_.reset();
  }
  MPI_Comm first_ = MPI_COMM_NULL, second_ = MPI_COMM_NULL;

 private:
  std::unique_ptr<Watchdog> watchdog_;
};

TEST_P(Progress, TwoNonblockingOnOneCommunicatorWaitedInRankDependentOrder) {
  for (int round = 0; round < 4; ++round) {
    std::vector<Exchange> ops{{first_, false, 2 * round}, {first_, true, 2 * round + 1}};
    for (Exchange& op : ops) ASSERT_EQ(op.start(), MPI_SUCCESS);
    for (std::size_t i : rank_order(ops.size())) ASSERT_EQ(Cart_wait(&ops[i].request()), MPI_SUCCESS);
    for (const Exchange& op : ops) op.expect_delivered("wait");
  }
}

TEST_P(Progress, ThreeNonblockingOnTwoCommunicatorsWaitedInRankDependentOrder) {
  for (int round = 0; round < 4; ++round) {
    std::vector<Exchange> ops{{first_, false, 3 * round}, {second_, true, 3 * round + 1}, {first_, true, 3 * round + 2}};
    for (Exchange& op : ops) ASSERT_EQ(op.start(), MPI_SUCCESS);
    for (std::size_t i : rank_order(ops.size())) ASSERT_EQ(Cart_wait(&ops[i].request()), MPI_SUCCESS);
    for (const Exchange& op : ops) op.expect_delivered("wait, two communicators");
  }
}

TEST_P(Progress, PersistentStartedTogetherWaitedInRankDependentOrder) {
  std::vector<Exchange> ops{{first_, false, 0}, {first_, true, 0}, {second_, false, 0}};
  for (Exchange& op : ops) ASSERT_EQ(op.init(), MPI_SUCCESS);
  for (int cycle = 1; cycle <= 5; ++cycle) {
    for (Exchange& op : ops) op.renew(cycle);
    for (Exchange& op : ops) ASSERT_EQ(Cart_start(&op.request()), MPI_SUCCESS);
    for (std::size_t i : rank_order(ops.size())) ASSERT_EQ(Cart_wait(&ops[i].request()), MPI_SUCCESS);
    for (const Exchange& op : ops) op.expect_delivered("persistent");
  }
  for (Exchange& op : ops) ASSERT_EQ(Cart_request_free(&op.request()), MPI_SUCCESS);
}

TEST_P(Progress, TestLoopsInRankDependentOrder) {
  std::vector<Exchange> ops{{first_, false, 7}, {second_, true, 8}, {first_, true, 9}};
  for (Exchange& op : ops) ASSERT_EQ(op.start(), MPI_SUCCESS);
  // Polls one request until it completes before looking at the next: only progress made while
  // testing the one advances the others.
  for (std::size_t i : rank_order(ops.size())) {
    int done = 0;
    while (!done) ASSERT_EQ(Cart_test(&ops[i].request(), &done), MPI_SUCCESS);
  }
  for (const Exchange& op : ops) op.expect_delivered("test loop");
}

TEST_P(Progress, WaitAllInRankDependentArrayOrder) {
  std::vector<Exchange> ops{{first_, false, 11}, {second_, true, 12}, {first_, true, 13}, {second_, false, 14}};
  for (Exchange& op : ops) ASSERT_EQ(op.start(), MPI_SUCCESS);
  std::vector<Cart_request> requests;
  for (std::size_t i : rank_order(ops.size())) requests.push_back(ops[i].request());
  ASSERT_EQ(Cart_waitall(static_cast<int>(requests.size()), requests.data()), MPI_SUCCESS);
  for (Cart_request request : requests) EXPECT_EQ(request, CART_REQUEST_NULL);
  for (const Exchange& op : ops) op.expect_delivered("waitall");
}

// MPI's progress rule across a blocking call: a nonblocking operation outstanding while a blocking one
// runs, waited for before it on some processes and after it on others. The blocking call may be
// `auto`'s first of its size class, which then measures: that must progress the outstanding one too.
TEST_P(Progress, NonblockingOutstandingAcrossABlockingCall) {
  for (int round = 0; round < 3; ++round) {
    Exchange outstanding(first_, round % 2 == 1, 20 + round);
    Exchange blocking(first_, round % 2 == 0, 30 + round);
    ASSERT_EQ(outstanding.start(), MPI_SUCCESS);
    if (world_rank() % 2 == 0) {
      ASSERT_EQ(blocking.blocking(), MPI_SUCCESS);
      ASSERT_EQ(Cart_wait(&outstanding.request()), MPI_SUCCESS);
    } else {
      ASSERT_EQ(Cart_wait(&outstanding.request()), MPI_SUCCESS);
      ASSERT_EQ(blocking.blocking(), MPI_SUCCESS);
    }
    outstanding.expect_delivered("outstanding across a blocking call");
    blocking.expect_delivered("the blocking call");
  }
}

// One blocking call repeated with the same buffers (its second run keeps persistent requests on the
// blocking tag), alone and with a nonblocking operation outstanding across it, waited before or after
// it depending on the rank: new data every round must arrive, and nothing may match across calls.
TEST_P(Progress, RepeatedBlockingCallWithAndWithoutOutstandingOperations) {
  Exchange repeated(first_, false, 40);
  for (int round = 0; round < 6; ++round) {
    repeated.renew(40 + round);
    if (round % 3 == 0) {
      ASSERT_EQ(repeated.blocking(), MPI_SUCCESS);
    } else {
      Exchange outstanding(first_, round % 2 == 0, 50 + round);
      ASSERT_EQ(outstanding.start(), MPI_SUCCESS);
      ASSERT_EQ(repeated.blocking(), MPI_SUCCESS);
      if (world_rank() % 2 == 0) ASSERT_EQ(repeated.blocking(), MPI_SUCCESS);
      ASSERT_EQ(Cart_wait(&outstanding.request()), MPI_SUCCESS);
      if (world_rank() % 2 == 1) ASSERT_EQ(repeated.blocking(), MPI_SUCCESS);
      outstanding.expect_delivered("outstanding across repeated blocking calls");
    }
    repeated.expect_delivered("a repeated blocking call");
  }
}

// The first blocking neighborhood collective on a communicator MPI made attaches the library's state:
// it duplicates the communicator and, on a distributed graph, agrees on the settings and looks for a
// Cartesian neighborhood. Even ranks make that call with an operation outstanding that their odd
// neighbors wait for before they make it; waiting there (for the duplicate, for the agreement) must
// move the outstanding one on. A blocking MPI_Comm_dup deadlocked here.
TEST_P(Progress, FirstBlockingCallOnACommunicatorMpiMadeKeepsOthersMoving) {
  const int p = world_size(), rank = world_rank();
  const int dims[] = {p}, periods[] = {1};
  const int ring[] = {(rank + p - 1) % p, (rank + 1) % p};
  MPI_Comm cartesian = MPI_COMM_NULL, graph = MPI_COMM_NULL;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cartesian);
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, ring, MPI_UNWEIGHTED, 2, ring, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &graph);
  int generation = 60;
  for (MPI_Comm made : {cartesian, graph}) {
    Exchange outstanding(first_, generation % 2 == 0, generation);
    ++generation;
    const int send[] = {1000 * rank, 1000 * rank + 1};
    int recv[] = {-1, -1};
    auto first_call = [&] { return CC_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, made); };
    ASSERT_EQ(outstanding.start(), MPI_SUCCESS);
    if (rank % 2 == 0) {
      ASSERT_EQ(first_call(), MPI_SUCCESS);
      ASSERT_EQ(Cart_wait(&outstanding.request()), MPI_SUCCESS);
    } else {
      ASSERT_EQ(Cart_wait(&outstanding.request()), MPI_SUCCESS);
      ASSERT_EQ(first_call(), MPI_SUCCESS);
    }
    outstanding.expect_delivered("outstanding across a first call on a communicator MPI made");
    // Block 0 comes from rank - 1, which sent it its block 1; block 1 from rank + 1, its block 0. On the
    // graph of 1 or 2 processes the two edges repeat, and the k-th edge to a process meets its k-th
    // from this one (rule 35); the Cartesian topology keeps MPI's rule for dimensions of size 1 and 2.
    const bool repeated = made == graph && p <= 2;
    EXPECT_EQ(recv[0], 1000 * ring[0] + (repeated ? 0 : 1));
    EXPECT_EQ(recv[1], 1000 * ring[1] + (repeated ? 1 : 0));
  }
  MPI_Comm_free(&cartesian);
  MPI_Comm_free(&graph);
}

// Many operations outstanding on one communicator, completed in opposite orders on neighboring ranks.
TEST_P(Progress, ManyOutstandingCompletedInOppositeOrders) {
  std::vector<Exchange> ops;
  for (int i = 0; i < 64; ++i) ops.emplace_back(i % 3 == 0 ? second_ : first_, i % 2 == 0, 100 + i);
  for (Exchange& op : ops) ASSERT_EQ(op.start(), MPI_SUCCESS);
  if (world_rank() % 2 == 0) {
    for (Exchange& op : ops) ASSERT_EQ(Cart_wait(&op.request()), MPI_SUCCESS);
  } else {
    for (auto op = ops.rbegin(); op != ops.rend(); ++op) ASSERT_EQ(Cart_wait(&op->request()), MPI_SUCCESS);
  }
  for (const Exchange& op : ops) op.expect_delivered("many outstanding");
}

// MPI's nonblocking collectives are local: a start that does not wait for and does not agree with
// other processes. `auto` meeting a size class for the first time in a nonblocking call must decide
// without measuring.
TEST_P(Progress, NonblockingStartsNeitherWaitNorAgree) {
  Exchange op(first_, false, 40), other(first_, true, 41);
  census::reset_calls();
  ASSERT_EQ(op.start(), MPI_SUCCESS);
  ASSERT_EQ(other.start(), MPI_SUCCESS);
  const census::Calls calls = census::calls();
  EXPECT_EQ(calls.collectives, 0) << "a nonblocking start ran a collective";
  EXPECT_EQ(calls.blocking, 0) << "a nonblocking start waited";
  ASSERT_EQ(Cart_wait(&other.request()), MPI_SUCCESS);
  ASSERT_EQ(Cart_wait(&op.request()), MPI_SUCCESS);
  op.expect_delivered("nonblocking");
  other.expect_delivered("nonblocking");
}

INSTANTIATE_TEST_SUITE_P(Algorithms, Progress, testing::ValuesIn(algorithm_names(true)),
                         [](const auto& info) { return algorithm_test_name(info.param); });

}  // namespace
