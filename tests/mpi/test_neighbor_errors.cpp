// SPDX-License-Identifier: BSD-3-Clause
// Bad input to the CC_ interface: MPI's error classes through the communicator's error handler, on
// every process that can detect it (every process, for the collective creation and *_init calls),
// never a hang or a crash; and the buffer rules (MPI_BOTTOM with absolute addresses works, NULL with
// a non-zero count and MPI_IN_PLACE do not).
#include <gtest/gtest.h>

#include <cstdlib>

#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_checks.hpp"
#include "cartcoll/neighbor.h"

using namespace support;

namespace {

class NeighborErrors : public testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  void TearDown() override {
    if (ring_ != MPI_COMM_NULL) MPI_Comm_free(&ring_);
  }
  // Each process receives from the previous one and sends to the next (itself, alone).
  MPI_Comm ring() {
    const int p = world_size(), rank = world_rank();
    const int from = (rank + p - 1) % p, to = (rank + 1) % p;
    EXPECT_EQ(CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &from, MPI_UNWEIGHTED, 1, &to, MPI_UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &ring_),
              MPI_SUCCESS);
    MPI_Comm_set_errhandler(ring_, MPI_ERRORS_RETURN);
    return ring_;
  }
  int previous() const { return (world_rank() + world_size() - 1) % world_size(); }
  MPI_Comm ring_ = MPI_COMM_NULL;
};

int adjacent(int indegree, const int* sources, int outdegree, const int* destinations, MPI_Comm* out) {
  return CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, indegree, sources, MPI_UNWEIGHTED, outdegree, destinations,
                                       MPI_UNWEIGHTED, MPI_INFO_NULL, 0, out);
}

TEST_F(NeighborErrors, InconsistentGraphsFailEverywhereWithoutHanging) {
  const int p = world_size(), rank = world_rank();
  const int next = (rank + 1) % p, previous = (rank + p - 1) % p;
  MPI_Comm out = MPI_COMM_WORLD;
  // Rank 0 names its successor as a destination; nobody lists a source.
  expect_everywhere(adjacent(0, nullptr, rank == 0 ? 1 : 0, &next, &out), MPI_ERR_TOPOLOGY, &out);
  // Everyone names its successor twice; the successors list each predecessor once.
  const int twice[] = {next, next};
  expect_everywhere(adjacent(1, &previous, 2, twice, &out), MPI_ERR_TOPOLOGY, &out);
  // Only the last process lists a source nobody sends from.
  expect_everywhere(adjacent(rank == p - 1 ? 1 : 0, &previous, 0, nullptr, &out), MPI_ERR_TOPOLOGY, &out);
}

// Rule 70 on a graph: a bad CARTCOLL_STAGE_BYTES on the last process only.
TEST_F(NeighborErrors, BadStageBytesOnOneProcessFailEverywhere) {
  const int p = world_size(), rank = world_rank();
  const int next = (rank + 1) % p, previous = (rank + p - 1) % p;
  MPI_Comm out = MPI_COMM_WORLD;
  if (rank == p - 1) ASSERT_EQ(setenv("CARTCOLL_STAGE_BYTES", "lots", 1), 0);
  expect_everywhere(adjacent(1, &previous, 1, &next, &out), MPI_ERR_ARG, &out);
  ASSERT_EQ(unsetenv("CARTCOLL_STAGE_BYTES"), 0);
}

TEST_F(NeighborErrors, BadCreationArgumentsOnOneProcessFailEverywhere) {
  const int p = world_size(), rank = world_rank(), last = rank == p - 1;
  const int next = (rank + 1) % p, previous = (rank + p - 1) % p, outside = p, negative = -3;
  MPI_Comm out = MPI_COMM_WORLD;
  expect_everywhere(adjacent(last ? -1 : 1, &previous, 1, &next, &out), MPI_ERR_ARG, &out);
  expect_everywhere(adjacent(1, &previous, 1, last ? &outside : &next, &out), MPI_ERR_RANK, &out);
  expect_everywhere(adjacent(1, last ? &negative : &previous, 1, &next, &out), MPI_ERR_RANK, &out);
  expect_everywhere(adjacent(1, last ? nullptr : &previous, 1, &next, &out), MPI_ERR_ARG, &out);
  const int weights[] = {1};
  if (p > 1)  // weighted on some processes only
    expect_everywhere(CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &previous, last ? MPI_UNWEIGHTED : weights, 1,
                                                    &next, last ? MPI_UNWEIGHTED : weights, MPI_INFO_NULL, 0, &out),
                      MPI_ERR_ARG, &out);
  expect_everywhere(CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &previous, MPI_WEIGHTS_EMPTY, 1, &next,
                                                  MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &out),
                    MPI_ERR_ARG, &out);  // MPI_WEIGHTS_EMPTY for a non-zero degree
  const int one = 1, bad_degree = last ? -1 : 1;
  expect_everywhere(CC_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &bad_degree, &next, MPI_UNWEIGHTED, MPI_INFO_NULL,
                                         0, &out),
                    MPI_ERR_ARG, &out);
  expect_everywhere(CC_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &one, last ? &outside : &next, MPI_UNWEIGHTED,
                                         MPI_INFO_NULL, 0, &out),
                    MPI_ERR_RANK, &out);
  expect_everywhere(CC_Dist_graph_create(MPI_COMM_WORLD, last ? -2 : 1, &rank, &one, &next, MPI_UNWEIGHTED,
                                         MPI_INFO_NULL, 0, &out),
                    MPI_ERR_ARG, &out);
  // A NULL output pointer on one process: the others must not wait for it.
  const int code = CC_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &previous, MPI_UNWEIGHTED, 1, &next,
                                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, last ? nullptr : &out);
  if (last) out = MPI_COMM_NULL;
  expect_everywhere(code, MPI_ERR_ARG, &out);
  EXPECT_EQ(error_class(CC_Dist_graph_create_adjacent(MPI_COMM_NULL, 0, nullptr, MPI_UNWEIGHTED, 0, nullptr,
                                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &out)),
            MPI_ERR_COMM);
}

TEST_F(NeighborErrors, BadCollectiveArgumentsAreReportedAndLeaveTheCommunicatorUsable) {
  MPI_Comm comm = ring();
  int send[2] = {1, 2}, recv[2] = {0, 0}, counts[1] = {1}, negative[1] = {-1}, displs[1] = {0};
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(error_class(CC_Neighbor_alltoall(send, -1, MPI_INT, recv, -1, MPI_INT, comm)), MPI_ERR_COUNT);
  EXPECT_EQ(error_class(CC_Neighbor_alltoallv(send, negative, displs, MPI_INT, recv, counts, displs, MPI_INT, comm)),
            MPI_ERR_COUNT);
  EXPECT_EQ(error_class(CC_Neighbor_allgather(send, 1, MPI_DATATYPE_NULL, recv, 1, MPI_INT, comm)), MPI_ERR_TYPE);
  EXPECT_EQ(error_class(CC_Neighbor_alltoallv(send, nullptr, displs, MPI_INT, recv, counts, displs, MPI_INT, comm)),
            MPI_ERR_ARG);
  EXPECT_EQ(error_class(CC_Neighbor_alltoall(send, 1, MPI_INT, nullptr, 1, MPI_INT, comm)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(CC_Neighbor_allgather(nullptr, 1, MPI_INT, recv, 1, MPI_INT, comm)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(CC_Neighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, recv, 1, MPI_INT, comm)), MPI_ERR_BUFFER);
  EXPECT_EQ(error_class(CC_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm, nullptr)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(CC_Ineighbor_alltoall(send, -1, MPI_INT, recv, 1, MPI_INT, comm, &request)), MPI_ERR_COUNT);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  EXPECT_EQ(error_class(CC_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD)), MPI_ERR_TOPOLOGY);
  EXPECT_EQ(error_class(CC_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_NULL)), MPI_ERR_COMM);
  // A NULL buffer with zero counts is fine: nothing is read or written. After all of that, every
  // collective still delivers.
  ASSERT_EQ(CC_Neighbor_alltoall(nullptr, 0, MPI_INT, nullptr, 0, MPI_INT, comm), MPI_SUCCESS);
  expect_every_neighbor_op_exact(comm, 1);
}

TEST_F(NeighborErrors, PersistentInitWithABadArgumentOnOneProcessFailsEverywhere) {
  MPI_Comm comm = ring();
  int send[1] = {1}, recv[1] = {0};
  const bool last = world_rank() == world_size() - 1;
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Comm ignored = MPI_COMM_NULL;
  expect_everywhere(CC_Neighbor_alltoall_init(send, last ? -1 : 1, MPI_INT, recv, 1, MPI_INT, comm, MPI_INFO_NULL,
                                              &request),
                    MPI_ERR_COUNT, &ignored);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  ignored = MPI_COMM_NULL;
  expect_everywhere(CC_Neighbor_allgather_init(send, 1, MPI_INT, recv, 1, MPI_INT, comm, MPI_INFO_NULL,
                                               last ? nullptr : &request),
                    MPI_ERR_REQUEST, &ignored);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
}

TEST_F(NeighborErrors, BadRequests) {
  MPI_Comm comm = ring();
  int send[1] = {test_value(0, world_rank(), 0, 0)}, recv[1] = {0};
  MPI_Request request = MPI_REQUEST_NULL;
  EXPECT_EQ(error_class(CC_Request_free(&request)), MPI_ERR_REQUEST);
  EXPECT_EQ(error_class(CC_Start(nullptr)), MPI_ERR_REQUEST);
  EXPECT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << "waiting on MPI_REQUEST_NULL returns at once";
  ASSERT_EQ(CC_Neighbor_alltoall_init(send, 1, MPI_INT, recv, 1, MPI_INT, comm, MPI_INFO_NULL, &request), MPI_SUCCESS);
  ASSERT_EQ(CC_Start(&request), MPI_SUCCESS);
  EXPECT_EQ(error_class(CC_Start(&request)), MPI_ERR_REQUEST) << "start on an active request";
  EXPECT_EQ(error_class(CC_Request_free(&request)), MPI_ERR_REQUEST) << "free on an active request";
  ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(recv[0], test_value(0, previous(), 0, 0));
  ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  ASSERT_EQ(CC_Ineighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, comm, &request), MPI_SUCCESS);
  EXPECT_EQ(error_class(CC_Start(&request)), MPI_ERR_REQUEST) << "start on a nonblocking request";
  ASSERT_EQ(CC_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  expect_every_neighbor_op_exact(comm, 2);
}

// A nonblocking call whose message fails (the last process sends rank 0 two ints where rank 0
// expects one: sizes MPI's contract forbids) completes in error at rank 0, and CC_Wait frees it
// there as everywhere, as MPI_Wait frees a request that failed (LeakSanitizer at 1 and 2 processes).
TEST_F(NeighborErrors, ANonblockingCallThatFailsIsFreedByItsWait) {
  if (world_size() < 2) GTEST_SKIP() << "one process has nobody to differ from";
  MPI_Comm comm = ring();
  const int count = world_rank() == world_size() - 1 ? 2 : 1;
  int send[2] = {1, 2}, recv[2] = {0, 0};
  MPI_Request request = MPI_REQUEST_NULL;
  ASSERT_EQ(CC_Ineighbor_allgather(send, count, MPI_INT, recv, count, MPI_INT, comm, &request), MPI_SUCCESS);
  const int code = CC_Wait(&request, MPI_STATUS_IGNORE);
  EXPECT_EQ(request, MPI_REQUEST_NULL);
  if (world_rank() == 0) {
    EXPECT_NE(code, MPI_SUCCESS) << "a block larger than the receive block";
  }
  expect_every_neighbor_op_exact(comm, 3);  // usable afterwards
}

int handled_code = MPI_SUCCESS;
void record(MPI_Comm*, int* code, ...) { handled_code = *code; }

TEST_F(NeighborErrors, GoThroughTheCommunicatorsErrorHandler) {
  MPI_Comm comm = ring();
  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(record, &handler);
  MPI_Comm_set_errhandler(comm, handler);
  handled_code = MPI_SUCCESS;
  int send[1] = {0}, recv[1];
  const int code = CC_Neighbor_alltoall(send, -3, MPI_INT, recv, -3, MPI_INT, comm);
  EXPECT_EQ(error_class(code), MPI_ERR_COUNT);
  EXPECT_EQ(handled_code, code);
  MPI_Errhandler_free(&handler);
}

// MPI_BOTTOM (which is NULL) with absolute addresses: as byte displacements of alltoallw, and inside
// a datatype.
TEST_F(NeighborErrors, BottomWithAbsoluteAddressesWorks) {
  MPI_Comm comm = ring();
  int send[1] = {test_value(0, world_rank(), 0, 0)}, recv[1] = {-1};
  MPI_Aint send_at = 0, recv_at = 0;
  MPI_Get_address(send, &send_at);
  MPI_Get_address(recv, &recv_at);
  const int one = 1;
  const MPI_Datatype int_type = MPI_INT;
  ASSERT_EQ(CC_Neighbor_alltoallw(MPI_BOTTOM, &one, &send_at, &int_type, MPI_BOTTOM, &one, &recv_at, &int_type, comm),
            MPI_SUCCESS);
  EXPECT_EQ(recv[0], test_value(0, previous(), 0, 0));
  MPI_Datatype absolute = MPI_DATATYPE_NULL;
  MPI_Type_create_hindexed(1, &one, &recv_at, MPI_INT, &absolute);
  MPI_Type_commit(&absolute);
  recv[0] = -1;
  ASSERT_EQ(CC_Neighbor_allgather(send, 1, MPI_INT, MPI_BOTTOM, 1, absolute, comm), MPI_SUCCESS);
  EXPECT_EQ(recv[0], test_value(0, previous(), 0, 0));
  MPI_Type_free(&absolute);
}

}  // namespace
