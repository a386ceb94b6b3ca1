// SPDX-License-Identifier: BSD-3-Clause
// Bad input: a clear MPI error class on every process, through the communicator's error handler,
// never a hang (the ctest timeout would catch one) or a crash.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/exchange_case.hpp"
#include "../support/watchdog.hpp"

using namespace support;

namespace {

class Errors : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  void TearDown() override {
    if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
  }
  // A 1-D ring over all processes with offsets {+1, -1}.
  MPI_Comm ring() {
    const int dims[] = {world_size()}, periods[] = {1}, offsets[] = {1, -1};
    EXPECT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, 2, offsets, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                       &cart_),
              MPI_SUCCESS);
    MPI_Comm_set_errhandler(cart_, MPI_ERRORS_RETURN);
    return cart_;
  }
  MPI_Comm cart_ = MPI_COMM_NULL;
};

int create_1d(int d, const int* dims, const int* periods, int t, const int* offsets, MPI_Comm* out,
              MPI_Info info = MPI_INFO_NULL) {
  return Cart_neighborhood_create(MPI_COMM_WORLD, d, dims, periods, t, offsets, MPI_UNWEIGHTED, info, 0, out);
}

TEST_F(Errors, BadGridArguments) {
  const int p = world_size(), dims[] = {p}, periods[] = {1}, offsets[] = {1}, zero[] = {0}, too_big[] = {p + 1};
  MPI_Comm out = MPI_COMM_WORLD;
  expect_everywhere(create_1d(0, dims, periods, 1, offsets, &out), MPI_ERR_DIMS, &out);
  expect_everywhere(create_1d(1, zero, periods, 1, offsets, &out), MPI_ERR_DIMS, &out);
  expect_everywhere(create_1d(1, too_big, periods, 1, offsets, &out), MPI_ERR_DIMS, &out);
  expect_everywhere(create_1d(1, dims, periods, -1, offsets, &out), MPI_ERR_ARG, &out);
  expect_everywhere(create_1d(1, nullptr, periods, 1, offsets, &out), MPI_ERR_ARG, &out);
  expect_everywhere(create_1d(1, dims, nullptr, 1, offsets, &out), MPI_ERR_ARG, &out);
  expect_everywhere(create_1d(1, dims, periods, 1, nullptr, &out), MPI_ERR_ARG, &out);
  EXPECT_EQ(error_class(Cart_neighborhood_create(MPI_COMM_NULL, 1, dims, periods, 1, offsets, MPI_UNWEIGHTED,
                                                 MPI_INFO_NULL, 0, &out)),
            MPI_ERR_COMM);
}

TEST_F(Errors, BadArgumentOnOneProcessFailsEverywhere) {
  const int p = world_size(), dims[] = {p}, periods[] = {1}, offsets[] = {1};
  const int bad_t = world_rank() == p - 1 ? -1 : 1;
  MPI_Comm out = MPI_COMM_WORLD;
  expect_everywhere(create_1d(1, dims, periods, bad_t, offsets, &out), MPI_ERR_ARG, &out);
}

TEST_F(Errors, DifferentNeighborhoodsAreDetectedEverywhere) {
  const int p = world_size(), last = world_rank() == p - 1;
  const int dims[] = {p}, periods[] = {1}, nonperiodic[] = {0};
  const int offsets[] = {1, 2}, other[] = {1, last ? 3 : 2};
  MPI_Comm out = MPI_COMM_WORLD;
  if (p == 1) GTEST_SKIP() << "one process cannot disagree with another";
  {
    expect_everywhere(create_1d(1, dims, periods, 2, other, &out), MPI_ERR_ARG, &out);  // one offset differs
    expect_everywhere(create_1d(1, dims, periods, last ? 1 : 2, offsets, &out), MPI_ERR_ARG, &out);  // t differs
    expect_everywhere(create_1d(1, dims, last ? nonperiodic : periods, 2, offsets, &out), MPI_ERR_ARG, &out);
    const int dims2[] = {1, p}, periods2[] = {1, 1}, offsets2[] = {0, 1, 0, 2};
    // d differs: the last process passes a 2-D grid of the same size.
    const int code = last ? create_1d(2, dims2, periods2, 2, offsets2, &out) : create_1d(1, dims, periods, 2, offsets, &out);
    expect_everywhere(code, MPI_ERR_ARG, &out);
  }
}

TEST_F(Errors, UnknownAlgorithmIsAnInfoValueError) {
  const int p = world_size(), dims[] = {p}, periods[] = {1}, offsets[] = {1};
  const AlgorithmInfo info("no-such-algorithm");
  MPI_Comm out = MPI_COMM_WORLD;
  expect_everywhere(create_1d(1, dims, periods, 1, offsets, &out, info.get()), MPI_ERR_INFO_VALUE, &out);
  MPI_Comm cart = ring();
  int send[2] = {0, 0}, recv[2];
  Cart_request request = CART_REQUEST_NULL;
  EXPECT_EQ(error_class(Cart_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, cart, info.get(), &request)),
            MPI_ERR_INFO_VALUE);
  EXPECT_EQ(request, CART_REQUEST_NULL);
}

// node-combining's node size (cartcoll_node_size, CARTCOLL_NODE_SIZE): below 1 or not a number is
// MPI_ERR_INFO_VALUE everywhere; sizes that differ between processes are MPI_ERR_ARG everywhere.
TEST_F(Errors, BadOrDifferentNodeSizesFailEverywhere) {
  const int p = world_size(), dims[] = {p}, periods[] = {1}, offsets[] = {1};
  MPI_Comm out = MPI_COMM_WORLD;
  for (const char* bad : {"0", "-2", "two"}) {
    AlgorithmInfo info("node-combining");
    info.set("cartcoll_node_size", bad);
    expect_everywhere(create_1d(1, dims, periods, 1, offsets, &out, info.get()), MPI_ERR_INFO_VALUE, &out);
  }
  if (p == 1) GTEST_SKIP() << "node sizes that differ between processes need two processes";
  AlgorithmInfo info("auto");
  info.set("cartcoll_node_size", world_rank() == p - 1 ? "3" : "2");
  expect_everywhere(create_1d(1, dims, periods, 1, offsets, &out, info.get()), MPI_ERR_ARG, &out);
}

// Rule 70: CARTCOLL_STAGE_BYTES that is not a non-negative integer, here on the last process only.
TEST_F(Errors, BadStageBytesFailEverywhere) {
  const int p = world_size(), dims[] = {p}, periods[] = {1}, offsets[] = {1};
  MPI_Comm out = MPI_COMM_WORLD;
  for (const char* bad : {"-1", "lots", "12k"}) {
    if (world_rank() == p - 1) ASSERT_EQ(setenv("CARTCOLL_STAGE_BYTES", bad, 1), 0);
    expect_everywhere(create_1d(1, dims, periods, 1, offsets, &out, MPI_INFO_NULL), MPI_ERR_ARG, &out);
    ASSERT_EQ(unsetenv("CARTCOLL_STAGE_BYTES"), 0);
  }
}

TEST_F(Errors, BadCollectiveArguments) {
  MPI_Comm cart = ring();
  int send[4] = {1, 2, 3, 4}, recv[4] = {0, 0, 0, 0}, counts[2] = {1, 1}, displs[2] = {0, 1};
  EXPECT_EQ(error_class(Cart_alltoall(send, -1, MPI_INT, recv, -1, MPI_INT, cart)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(Cart_alltoall(send, 1, MPI_DATATYPE_NULL, recv, 1, MPI_INT, cart)), MPI_ERR_TYPE);
  EXPECT_EQ(error_class(Cart_alltoall(send, 1, MPI_INT, recv, 2, MPI_INT, cart)), MPI_ERR_COUNT);  // sizes differ
  EXPECT_EQ(error_class(Cart_allgather(send, 2, MPI_INT, recv, 1, MPI_INT, cart)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(Cart_alltoallv(send, nullptr, displs, MPI_INT, recv, counts, displs, MPI_INT, cart)), MPI_ERR_ARG);
  EXPECT_EQ(error_class(Cart_allgatherw(send, 1, MPI_INT, recv, counts, nullptr, nullptr, cart)), MPI_ERR_ARG);
  EXPECT_EQ(error_class(Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD)), MPI_ERR_TOPOLOGY);
  EXPECT_EQ(error_class(Cart_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_NULL)), MPI_ERR_COMM);
  EXPECT_EQ(error_class(Cart_ialltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart, nullptr)), MPI_ERR_REQUEST);
  // Rule 12: MPI_IN_PLACE, and NULL with a non-zero count and a datatype of relative addresses.
  EXPECT_EQ(error_class(Cart_alltoall(MPI_IN_PLACE, 1, MPI_INT, recv, 1, MPI_INT, cart)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(Cart_alltoall(send, 1, MPI_INT, nullptr, 1, MPI_INT, cart)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(Cart_allgather(nullptr, 1, MPI_INT, recv, 1, MPI_INT, cart)), MPI_ERR_BUFFER);
  int t = 0, rank = 0, relative[1] = {0};
  EXPECT_EQ(error_class(Cart_neighbor_count(MPI_COMM_WORLD, &t)), MPI_ERR_TOPOLOGY);
  EXPECT_EQ(error_class(Cart_relative_rank(cart, nullptr, &rank)), MPI_ERR_ARG);
  EXPECT_EQ(error_class(Cart_relative_coord(cart, world_size(), relative)), MPI_ERR_RANK);
  EXPECT_EQ(error_class(Cart_neighbor_get(cart, -1, nullptr, MPI_UNWEIGHTED, 0, nullptr, MPI_UNWEIGHTED)), MPI_ERR_ARG);
  // After all of that, every collective on the communicator still delivers.
  expect_every_op_exact(cart, cartcoll::Grid({world_size()}, {true}), cartcoll::Offsets(1, {1, -1}));
}

// Whether `code` is an error on some process (collective).
bool failed_somewhere(int code) {
  int failed = code != MPI_SUCCESS ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return failed == 1;
}

// Träff and Hunold's (Cartesian Collective Communication) contract gives every process the same
// block sizes, and a blocking or nonblocking call cannot see another process's. One that breaks it
// gets errors, never a hang. With the algorithm forced, every schedule runs to its end: processes
// that receive a block larger than their own get MPI_ERR_TRUNCATE. The others cannot tell, since a
// shorter block is no MPI error. The communicator works afterwards. Under `auto` the first blocking
// call of a size class compares the sizes everywhere first: MPI_ERR_COUNT on every process
// (semantics rule 30).
TEST_F(Errors, BlockSizesThatDifferBetweenProcessesAreErrorsNotHangs) {
  if (world_size() < 2) GTEST_SKIP() << "one process has nobody to differ from";
  const Watchdog watchdog("block sizes that differ between processes", std::chrono::seconds(120));
  const int count = world_rank() == world_size() - 1 ? 2 : 1, t = 8;
  std::vector<int> send(2 * t), recv(2 * t);
  for (int j = 0; j < 2 * t; ++j) send[static_cast<std::size_t>(j)] = 100 * world_rank() + j;
  auto is_truncation_or_none = [](int code) {
    return code == MPI_SUCCESS || error_class(code) == MPI_ERR_TRUNCATE;
  };
  for (const std::string& algorithm : algorithm_names(false)) {
    MPI_Comm cart = moore_torus(2, algorithm);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    const int blocking = Cart_alltoall(send.data(), count, MPI_INT, recv.data(), count, MPI_INT, cart);
    EXPECT_TRUE(is_truncation_or_none(blocking)) << algorithm << ": " << error_class(blocking);
    EXPECT_TRUE(failed_somewhere(blocking)) << algorithm;
    Cart_request request = CART_REQUEST_NULL;
    int nonblocking = Cart_iallgather(send.data(), count, MPI_INT, recv.data(), count, MPI_INT, cart, &request);
    if (nonblocking == MPI_SUCCESS) nonblocking = Cart_wait(&request);
    EXPECT_TRUE(is_truncation_or_none(nonblocking)) << algorithm << ": " << error_class(nonblocking);
    EXPECT_TRUE(failed_somewhere(nonblocking)) << algorithm;
    // Sizes that agree work again, block i from the process at -N[i].
    ASSERT_EQ(Cart_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, cart), MPI_SUCCESS) << algorithm;
    const int moore[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
    for (int i = 0; i < t; ++i) {
      const int back[2] = {-moore[i][0], -moore[i][1]};
      int source = 0;
      ASSERT_EQ(Cart_relative_rank(cart, back, &source), MPI_SUCCESS);
      EXPECT_EQ(recv[static_cast<std::size_t>(i)], 100 * source + i) << algorithm << ", block " << i;
    }
    MPI_Comm_free(&cart);
  }
  if (world_size() >= 4) {  // below, the 2-D Moore torus leaves `auto` one candidate: nothing to measure
    MPI_Comm cart = moore_torus(2);
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    expect_class_everywhere(Cart_alltoall(send.data(), count, MPI_INT, recv.data(), count, MPI_INT, cart),
                            MPI_ERR_COUNT);
    MPI_Comm_free(&cart);
  }
}

TEST_F(Errors, PersistentInitWithABadArgumentOnOneProcessFailsEverywhere) {
  MPI_Comm cart = ring();
  int send[2] = {1, 2}, recv[2];
  const int count = world_rank() == world_size() - 1 ? -1 : 1;
  Cart_request request = CART_REQUEST_NULL;
  const int code = Cart_alltoall_init(send, count, MPI_INT, recv, count, MPI_INT, cart, MPI_INFO_NULL, &request);
  EXPECT_EQ(error_class(code), MPI_ERR_COUNT);
  EXPECT_EQ(request, CART_REQUEST_NULL);
}

TEST_F(Errors, BadRequests) {
  MPI_Comm cart = ring();
  Cart_request null_request = CART_REQUEST_NULL;
  int flag = 0;
  EXPECT_EQ(error_class(Cart_start(&null_request)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(Cart_start(nullptr)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(Cart_request_free(&null_request)), MPI_ERR_REQUEST);
  EXPECT_EQ(Cart_wait(&null_request), MPI_SUCCESS) << "waiting on a null request returns at once, as MPI_Wait";
  EXPECT_EQ(Cart_test(&null_request, &flag), MPI_SUCCESS);
  EXPECT_EQ(flag, 1);
  int send[2] = {1, 2}, recv[2];
  Cart_request request = CART_REQUEST_NULL;
  ASSERT_EQ(Cart_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, cart, MPI_INFO_NULL, &request), MPI_SUCCESS);
  ASSERT_EQ(Cart_start(&request), MPI_SUCCESS);
  EXPECT_EQ(error_class(Cart_start(&request)), MPI_ERR_REQUEST) << "start on an active request";
  EXPECT_EQ(error_class(Cart_request_free(&request)), MPI_ERR_REQUEST) << "free on an active request";
  ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
  ASSERT_EQ(Cart_request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(error_class(Cart_start(&request)), MPI_ERR_REQUEST) << "start on a freed request";
  ASSERT_EQ(Cart_ialltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart, &request), MPI_SUCCESS);
  EXPECT_EQ(error_class(Cart_start(&request)), MPI_ERR_REQUEST) << "start on a nonblocking request";
  ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
}

int handled_code = MPI_SUCCESS;
void record(MPI_Comm*, int* code, ...) { handled_code = *code; }

TEST_F(Errors, GoThroughTheCommunicatorsErrorHandler) {
  MPI_Comm cart = ring();
  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(record, &handler);
  MPI_Comm_set_errhandler(cart, handler);
  handled_code = MPI_SUCCESS;
  int send[2] = {0, 0}, recv[2];
  const int code = Cart_alltoall(send, -3, MPI_INT, recv, -3, MPI_INT, cart);
  EXPECT_EQ(error_class(code), MPI_ERR_COUNT);
  EXPECT_EQ(handled_code, code);
  MPI_Errhandler_free(&handler);
}

}  // namespace
