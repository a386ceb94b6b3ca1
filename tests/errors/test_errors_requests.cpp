// SPDX-License-Identifier: BSD-3-Clause
// The errors suite, requests and completion, through the library's C API: failed ordinary requests
// completed by every CC_ completion function (alone and with an operation of the library in
// flight, statuses given and ignored), stale copies of freed handles of the CC_, Cart_ and Iso_
// faces, foreign handles, and null requests. Every case asserts the class on every process and ends
// with a full, checked call on the communicator.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdint>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/cartcoll.h"
#include "cartcoll/iso.h"
#include "cartcoll/neighbor.h"
#include "request_cases.hpp"

using namespace support;

namespace {

constexpr std::chrono::seconds deadline{60};

class RequestErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    comm_ = errors::graph_comm(3);
  }
  void TearDown() override { MPI_Comm_free(&comm_); }
  MPI_Comm comm_ = MPI_COMM_NULL;
  Watchdog watchdog_{::testing::UnitTest::GetInstance()->current_test_info()->name(), deadline};
};

TEST_F(RequestErrors, TruncatedOrdinaryReceiveIsReportedByEveryCompletion) {
  if (world_size() < 2) GTEST_SKIP() << "Open MPI 4.1.4 reports no truncation of a message to the process itself";
  errors::truncated_receive_every_way(comm_, cc_api);
  errors::expect_usable(comm_, cc_api);
}

TEST_F(RequestErrors, TruncatedOrdinaryReceiveSeenByGetStatus) {
  if (world_size() < 2) GTEST_SKIP() << "Open MPI 4.1.4 reports no truncation of a message to the process itself";
  errors::truncated_receive_status(comm_, cc_api);
  errors::expect_usable(comm_, cc_api);
}

TEST_F(RequestErrors, StaleCopiesOfFreedRequestsAreErrRequest) {
  errors::stale_library_handles(comm_, cc_api);
  MPI_Request copy = MPI_REQUEST_NULL;
  int send[1] = {1}, recv[1] = {0};
  ASSERT_EQ(CC_Neighbor_alltoall_init(send, 0, MPI_INT, recv, 0, MPI_INT, comm_, MPI_INFO_NULL, &copy), MPI_SUCCESS);
  MPI_Request request = copy;
  ASSERT_EQ(CC_Request_free(&request), MPI_SUCCESS);
  errors::SelfHandlerLog self;
  EXPECT_EQ(error_class(CC_Cancel(&copy)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST);
  errors::expect_usable(comm_, cc_api);
}

TEST_F(RequestErrors, NullRequestsGoToSelfsHandler) {
  errors::SelfHandlerLog self;
  MPI_Request null = MPI_REQUEST_NULL;
  Cart_request cart_null = CART_REQUEST_NULL;
  Iso_request iso_null = ISO_REQUEST_NULL;
  EXPECT_EQ(error_class(CC_Start(&null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "CC_Start(MPI_REQUEST_NULL)";
  EXPECT_EQ(error_class(CC_Startall(1, &null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "CC_Startall with MPI_REQUEST_NULL";
  EXPECT_EQ(error_class(CC_Cancel(&null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "CC_Cancel(MPI_REQUEST_NULL)";
  EXPECT_EQ(error_class(CC_Request_free(&null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "CC_Request_free(MPI_REQUEST_NULL)";
  EXPECT_EQ(error_class(Cart_start(&cart_null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "Cart_start(CART_REQUEST_NULL)";
  EXPECT_EQ(error_class(Cart_request_free(&cart_null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "Cart_request_free(CART_REQUEST_NULL)";
  EXPECT_EQ(error_class(Iso_start(&iso_null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "Iso_start(ISO_REQUEST_NULL)";
  EXPECT_EQ(error_class(Iso_request_free(&iso_null)), MPI_ERR_REQUEST);
  EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "Iso_request_free(ISO_REQUEST_NULL)";
  EXPECT_EQ(CC_Wait(&null, MPI_STATUS_IGNORE), MPI_SUCCESS) << "waiting for MPI_REQUEST_NULL is no error";
  EXPECT_EQ(Cart_wait(&cart_null), MPI_SUCCESS);
  EXPECT_EQ(self.take(), MPI_SUCCESS);
  errors::expect_usable(comm_, cc_api);
}

// Every Cart_ request function given a copy of a freed handle, before and after the slot is reused,
// a handle of the Iso_ face and a made-up value: MPI_ERR_REQUEST on MPI_COMM_SELF's handler.
TEST_F(RequestErrors, StaleAndForeignCartAndIsoHandlesAreErrRequest) {
  MPI_Comm ring = errors::cart_ring();
  errors::RingBlocks blocks;
  blocks.prepare(1);
  Cart_request persistent = CART_REQUEST_NULL, nonblocking = CART_REQUEST_NULL;
  ASSERT_EQ(Cart_alltoall_init(blocks.send.data(), 3, MPI_INT, blocks.recv.data(), 3, MPI_INT, ring, MPI_INFO_NULL,
                               &persistent),
            MPI_SUCCESS);
  const Cart_request freed_persistent = persistent;
  ASSERT_EQ(Cart_request_free(&persistent), MPI_SUCCESS);
  EXPECT_EQ(persistent, CART_REQUEST_NULL);
  ASSERT_EQ(Cart_ialltoall(blocks.send.data(), 3, MPI_INT, blocks.recv.data(), 3, MPI_INT, ring, &nonblocking),
            MPI_SUCCESS);
  const Cart_request freed_nonblocking = nonblocking;
  ASSERT_EQ(Cart_wait(&nonblocking), MPI_SUCCESS);
  EXPECT_EQ(nonblocking, CART_REQUEST_NULL);
  EXPECT_TRUE(blocks.arrived(1));

  Iso_request iso = ISO_REQUEST_NULL;
  ASSERT_EQ(Iso_neighbor_alltoall_init(blocks.send.data(), 3, MPI_INT, blocks.recv.data(), 3, MPI_INT, ring, &iso),
            MPI_SUCCESS);
  // A live request of the other face, and a value no call made.
  const Cart_request foreign[] = {reinterpret_cast<Cart_request>(iso),
                                  reinterpret_cast<Cart_request>(std::uintptr_t{0x5a5a5a5a5a})};
  // The freed persistent request's slot, taken again by a new request: the old copy stays stale.
  Cart_request reused = CART_REQUEST_NULL;
  ASSERT_EQ(Cart_alltoall_init(blocks.send.data(), 3, MPI_INT, blocks.recv.data(), 3, MPI_INT, ring, MPI_INFO_NULL,
                               &reused),
            MPI_SUCCESS);

  errors::SelfHandlerLog self;
  for (const Cart_request bad : {freed_persistent, freed_nonblocking, foreign[0], foreign[1]}) {
    Cart_request copy = bad;
    int flag = 0;
    const auto expect_bad = [&](int code, const char* call) {
      EXPECT_EQ(error_class(code), MPI_ERR_REQUEST) << call;
      EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << call << " calls MPI_COMM_SELF's handler";
    };
    expect_bad(Cart_start(&copy), "Cart_start");
    expect_bad(Cart_wait(&copy), "Cart_wait");
    expect_bad(Cart_test(&copy, &flag), "Cart_test");
    expect_bad(Cart_waitall(1, &copy), "Cart_waitall");
    expect_bad(Cart_request_free(&copy), "Cart_request_free");
  }
  Iso_request freed_iso = iso, iso_copy = iso;
  ASSERT_EQ(Iso_request_free(&iso), MPI_SUCCESS);
  for (Iso_request bad : {freed_iso, reinterpret_cast<Iso_request>(reused)}) {
    iso_copy = bad;
    EXPECT_EQ(error_class(Iso_start(&iso_copy)), MPI_ERR_REQUEST);
    EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "Iso_start";
    EXPECT_EQ(error_class(Iso_request_free(&iso_copy)), MPI_ERR_REQUEST);
    EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << "Iso_request_free";
  }

  blocks.prepare(2);
  ASSERT_EQ(Cart_start(&reused), MPI_SUCCESS) << "the request in the reused slot is unharmed";
  ASSERT_EQ(Cart_wait(&reused), MPI_SUCCESS);
  EXPECT_TRUE(blocks.arrived(2));
  ASSERT_EQ(Cart_request_free(&reused), MPI_SUCCESS);
  errors::expect_cart_usable(ring);
  MPI_Comm_free(&ring);
}

}  // namespace
