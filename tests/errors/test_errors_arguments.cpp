// SPDX-License-Identifier: BSD-3-Clause
// The errors suite, arguments: an intercommunicator given to CC_Dist_graph_create(_adjacent)
// (MPI_ERR_COMM on every process, MPI_COMM_NULL), and an uncommitted datatype in a nonblocking call
// (MPI_ERR_TYPE at the call, no request made), through the CC_ and Cart_ faces. Every case asserts
// the class on every process and ends with a full, checked call on the communicator.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/cartcoll.h"
#include "cartcoll/neighbor.h"
#include "request_cases.hpp"

using namespace support;

namespace {

constexpr std::chrono::seconds deadline{60};

class ArgumentErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  Watchdog watchdog_{::testing::UnitTest::GetInstance()->current_test_info()->name(), deadline};
};

// The lower and upper halves of MPI_COMM_WORLD joined by an intercommunicator (MPI_ERRORS_RETURN).
MPI_Comm halves() {
  const int p = world_size(), rank = world_rank(), lower = rank < p / 2 ? 1 : 0;
  MPI_Comm half = MPI_COMM_NULL, inter = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, lower, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, lower ? p / 2 : 0, 33, &inter);
  MPI_Comm_free(&half);
  MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
  return inter;
}

TEST_F(ArgumentErrors, IntercommunicatorMakesNoDistributedGraph) {
  if (world_size() < 2) GTEST_SKIP() << "an intercommunicator needs two processes";
  MPI_Comm inter = halves();
  const int self[] = {0};
  MPI_Comm graph = MPI_COMM_WORLD;
  expect_everywhere(CC_Dist_graph_create_adjacent(inter, 1, self, MPI_UNWEIGHTED, 1, self, MPI_UNWEIGHTED,
                                                  MPI_INFO_NULL, 0, &graph),
                    MPI_ERR_COMM, &graph);
  graph = MPI_COMM_NULL;
  const int one[] = {1};
  expect_everywhere(CC_Dist_graph_create(inter, 1, self, one, self, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &graph),
                    MPI_ERR_COMM, &graph);
  MPI_Comm_free(&inter);
  MPI_Comm comm = errors::graph_comm(11);
  errors::expect_usable(comm, cc_api);
  MPI_Comm_free(&comm);
}

// An uncommitted copy of MPI_INT as the send or the receive datatype.
class Uncommitted {
 public:
  Uncommitted() { MPI_Type_contiguous(1, MPI_INT, &type_); }
  ~Uncommitted() { MPI_Type_free(&type_); }
  Uncommitted(const Uncommitted&) = delete;
  Uncommitted& operator=(const Uncommitted&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

TEST_F(ArgumentErrors, UncommittedDatatypeFailsTheNonblockingCall) {
  MPI_Comm comm = errors::graph_comm(12);
  const Uncommitted uncommitted;
  std::vector<int> send(64, 1), recv(64, 0);
  for (const bool on_send : {true, false}) {
    const MPI_Datatype sendtype = on_send ? uncommitted.get() : MPI_INT;
    const MPI_Datatype recvtype = on_send ? MPI_INT : uncommitted.get();
    MPI_Request request = MPI_REQUEST_NULL;
    expect_class_everywhere(CC_Ineighbor_alltoall(send.data(), 1, sendtype, recv.data(), 1, recvtype, comm, &request),
                            MPI_ERR_TYPE);
    EXPECT_EQ(request, MPI_REQUEST_NULL) << "no request is made";
  }
  errors::expect_usable(comm, cc_api);
  MPI_Comm_free(&comm);
}

TEST_F(ArgumentErrors, UncommittedDatatypeFailsTheNonblockingCartCall) {
  MPI_Comm ring = errors::cart_ring();
  const Uncommitted uncommitted;
  errors::RingBlocks blocks;
  blocks.prepare(1);
  for (const bool on_send : {true, false}) {
    Cart_request request = CART_REQUEST_NULL;
    const MPI_Datatype sendtype = on_send ? uncommitted.get() : MPI_INT;
    const MPI_Datatype recvtype = on_send ? MPI_INT : uncommitted.get();
    expect_class_everywhere(
        Cart_ialltoall(blocks.send.data(), 3, sendtype, blocks.recv.data(), 3, recvtype, ring, &request), MPI_ERR_TYPE);
    EXPECT_EQ(request, CART_REQUEST_NULL) << "no request is made";
  }
  errors::expect_cart_usable(ring);
  MPI_Comm_free(&ring);
}

}  // namespace
