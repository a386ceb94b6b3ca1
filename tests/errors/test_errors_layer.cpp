// SPDX-License-Identifier: BSD-3-Clause
// The errors suite, requests and completion, as an unmodified MPI program: MPI's own names
// (support/mpi_api.hpp), which libcartcoll_mpi serves where it is preloaded or linked. A failed
// ordinary request completed by every MPI_Wait*/MPI_Test* while a neighborhood operation is in
// flight, copies of freed handles of the layer's neighborhood operations, and an uncommitted
// datatype in a nonblocking call. CARTCOLL_TEST_EXPECT (layer or native) says whether the layer must
// be in front of MPI; on MPI alone only the failed ordinary requests and the uncommitted datatype
// run (a freed handle is undefined there), on a ring, whose pairing every MPI agrees on.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/mpi_api.hpp"
#include "../support/watchdog.hpp"
#include "error_support.hpp"
#include "request_cases.hpp"

using namespace support;

namespace {

constexpr std::chrono::seconds deadline{60};

class LayerErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    comm_ = errors::layer_expected() ? errors::graph_comm(3) : errors::ring_comm();
  }
  void TearDown() override { MPI_Comm_free(&comm_); }
  MPI_Comm comm_ = MPI_COMM_NULL;
  Watchdog watchdog_{::testing::UnitTest::GetInstance()->current_test_info()->name(), deadline};
};

TEST_F(LayerErrors, IsWhereExpected) { EXPECT_EQ(errors::layer_in_front(), errors::layer_expected()); }

TEST_F(LayerErrors, TruncatedOrdinaryReceiveIsReportedByEveryCompletion) {
  if (world_size() < 2) GTEST_SKIP() << "Open MPI 4.1.4 reports no truncation of a message to the process itself";
  errors::truncated_receive_every_way(comm_, mpi_names_api);
  errors::expect_usable(comm_, mpi_names_api);
}

TEST_F(LayerErrors, TruncatedOrdinaryReceiveSeenByGetStatus) {
  if (world_size() < 2) GTEST_SKIP() << "Open MPI 4.1.4 reports no truncation of a message to the process itself";
  errors::truncated_receive_status(comm_, mpi_names_api);
  errors::expect_usable(comm_, mpi_names_api);
}

TEST_F(LayerErrors, StaleCopiesOfFreedRequestsAreErrRequest) {
  if (!errors::layer_expected()) GTEST_SKIP() << "a freed handle is undefined to MPI alone";
  errors::stale_library_handles(comm_, mpi_names_api);
  errors::expect_usable(comm_, mpi_names_api);
}

// An uncommitted copy of MPI_INT as send or receive datatype of MPI_Ineighbor_alltoall: MPI_ERR_TYPE
// at the call on every process, as MPI's own call reports it.
TEST_F(LayerErrors, UncommittedDatatypeFailsTheNonblockingCall) {
  MPI_Datatype uncommitted = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(1, MPI_INT, &uncommitted);
  std::vector<int> send(64, 1), recv(64, 0);
  for (const bool on_send : {true, false}) {
    MPI_Request request = MPI_REQUEST_NULL;
    const int code = MPI_Ineighbor_alltoall(send.data(), 1, on_send ? uncommitted : MPI_INT, recv.data(), 1,
                                            on_send ? MPI_INT : uncommitted, comm_, &request);
    expect_class_everywhere(code, MPI_ERR_TYPE);
    EXPECT_EQ(request, MPI_REQUEST_NULL) << "no request is made";
  }
  MPI_Type_free(&uncommitted);
  errors::expect_usable(comm_, mpi_names_api);
}

}  // namespace
