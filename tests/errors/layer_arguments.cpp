// SPDX-License-Identifier: BSD-3-Clause
// The errors suite, bad arguments of MPI's neighborhood collectives, as an unmodified MPI program:
// MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall and MPI_Neighbor_alltoall_init by MPI's names
// (support/mpi_api.hpp), which libcartcoll_mpi serves where it is preloaded or linked (rules 29 and
// 30 through the layer, rule 50). Each bad argument is the same expression on every process, in
// every form: its class on every process, no request made, no hang (a watchdog); a block larger than
// the receiver expects is MPI_ERR_TRUNCATE on the receiver only. Every case ends with a full, checked
// call on the communicator. The communicator is a directed ring made by MPI, whose pairing every MPI
// agrees on, so that the cases MPI alone reports the same way also run without the layer
// (CARTCOLL_TEST_EXPECT=native).
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/mpi_api.hpp"
#include "../support/watchdog.hpp"
#include "error_support.hpp"

using namespace support;

namespace {

constexpr std::chrono::seconds deadline{60};

// The arguments of one MPI_Neighbor_alltoall.
struct Alltoall {
  const void* send;
  int sendcount;
  MPI_Datatype sendtype;
  void* recv;
  int recvcount;
  MPI_Datatype recvtype;
};

std::vector<Form> every_form() {
  std::vector<Form> forms{Form::blocking, Form::nonblocking};
  if (mpi_names_api.has_persistent()) forms.push_back(Form::persistent);
  return forms;
}

// The call in `form`, by MPI's names. A request it makes is completed (started first where
// persistent, then freed) and its code returned.
int call(Form form, const Alltoall& a, MPI_Comm comm) {
  const Api& api = mpi_names_api;
  if (form == Form::blocking)
    return api.neighbor_alltoall(a.send, a.sendcount, a.sendtype, a.recv, a.recvcount, a.recvtype, comm);
  MPI_Request request = MPI_REQUEST_NULL;
  const int code =
      form == Form::nonblocking
          ? api.ineighbor_alltoall(a.send, a.sendcount, a.sendtype, a.recv, a.recvcount, a.recvtype, comm, &request)
          : api.alltoall_init(a.send, a.sendcount, a.sendtype, a.recv, a.recvcount, a.recvtype, comm, MPI_INFO_NULL,
                              &request);
  if (code != MPI_SUCCESS) {
    EXPECT_EQ(request, MPI_REQUEST_NULL) << name(form) << ": a failed call makes no request";
    return code;
  }
  if (form == Form::persistent) {
    if (const int started = api.start(&request); started != MPI_SUCCESS) return started;
  }
  const int waited = api.wait(&request, MPI_STATUS_IGNORE);
  if (form == Form::persistent) api.request_free(&request);
  return waited;
}

// Each call in every form: `expected` on every process.
void expect_in_every_form(const std::vector<Alltoall>& calls, MPI_Comm comm, int expected) {
  for (const Form form : every_form())
    for (std::size_t i = 0; i < calls.size(); ++i) {
      SCOPED_TRACE(std::string(name(form)) + ", bad argument " + std::to_string(i));
      expect_class_everywhere(call(form, calls[i], comm), expected);
    }
}

class LayerArguments : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    comm_ = errors::ring_comm();
  }
  void TearDown() override {
    errors::expect_usable(comm_, mpi_names_api);
    MPI_Comm_free(&comm_);
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
  int send_[4] = {1, 2, 3, 4}, recv_[4] = {};
  Watchdog watchdog_{::testing::UnitTest::GetInstance()->current_test_info()->name(), deadline};
};

TEST_F(LayerArguments, IsWhereExpected) { EXPECT_EQ(errors::layer_in_front(), errors::layer_expected()); }

TEST_F(LayerArguments, NegativeCountIsErrCount) {
  expect_in_every_form({{send_, -1, MPI_INT, recv_, 1, MPI_INT}, {send_, 1, MPI_INT, recv_, -1, MPI_INT}}, comm_,
                       MPI_ERR_COUNT);
}

TEST_F(LayerArguments, NullBufferWithACountIsErrBuffer) {
  expect_in_every_form({{nullptr, 1, MPI_INT, recv_, 1, MPI_INT}, {send_, 1, MPI_INT, nullptr, 1, MPI_INT}}, comm_,
                       MPI_ERR_BUFFER);
}

TEST_F(LayerArguments, InPlaceIsErrBuffer) {
  expect_in_every_form({{MPI_IN_PLACE, 1, MPI_INT, recv_, 1, MPI_INT}, {send_, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT}},
                       comm_, MPI_ERR_BUFFER);
}

TEST_F(LayerArguments, DatatypeNullIsErrType) {
  expect_in_every_form(
      {{send_, 1, MPI_DATATYPE_NULL, recv_, 1, MPI_INT}, {send_, 1, MPI_INT, recv_, 1, MPI_DATATYPE_NULL}}, comm_,
      MPI_ERR_TYPE);
}

TEST_F(LayerArguments, CommunicatorWithoutATopologyIsErrTopology) {
  MPI_Comm plain = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &plain);
  MPI_Comm_set_errhandler(plain, MPI_ERRORS_RETURN);
  expect_in_every_form({{send_, 1, MPI_INT, recv_, 1, MPI_INT}}, plain, MPI_ERR_TOPOLOGY);
  MPI_Comm_free(&plain);
}

TEST_F(LayerArguments, CommNullIsErrComm) {
  expect_in_every_form({{send_, 1, MPI_INT, recv_, 1, MPI_INT}}, MPI_COMM_NULL, MPI_ERR_COMM);
}

TEST_F(LayerArguments, NullCountsArrayIsErrArg) {
  const int counts[] = {1}, displacements[] = {0};
  for (const bool on_send : {true, false}) {
    SCOPED_TRACE(on_send ? "send counts" : "receive counts");
    expect_class_everywhere(MPI_Neighbor_alltoallv(send_, on_send ? nullptr : counts, displacements, MPI_INT, recv_,
                                                   on_send ? counts : nullptr, displacements, MPI_INT, comm_),
                            MPI_ERR_ARG);
  }
}

TEST_F(LayerArguments, NullRequestPointerIsErrRequest) {
  expect_class_everywhere(MPI_Ineighbor_alltoall(send_, 1, MPI_INT, recv_, 1, MPI_INT, comm_, nullptr),
                          MPI_ERR_REQUEST);
}

// Rule 29: the *_init calls agree, so a bad count on the last process only fails on every process.
TEST_F(LayerArguments, BadCountOnOneProcessFailsTheInitEverywhere) {
  if (!mpi_names_api.has_persistent()) GTEST_SKIP() << "this MPI has no persistent neighborhood collectives";
  const int count = world_rank() == world_size() - 1 ? -1 : 1;
  expect_class_everywhere(call(Form::persistent, {send_, count, MPI_INT, recv_, count, MPI_INT}, comm_), MPI_ERR_COUNT);
}

// The last process sends two ints where every process expects one: MPI_ERR_TRUNCATE on its
// receiver (rank 0) only, the others complete with their block, which names its sender.
TEST_F(LayerArguments, LargerBlockThanTheReceiverExpectsIsErrTruncateThere) {
  if (world_size() < 2) GTEST_SKIP() << "Open MPI 4.1.4 reports no truncation of a message to the process itself";
  const int p = world_size(), rank = world_rank(), sender = (rank + p - 1) % p;
  for (const Form form : {Form::blocking, Form::nonblocking}) {
    SCOPED_TRACE(name(form));
    int send[2] = {rank * 100, rank * 100 + 1}, recv[2] = {-1, -1};
    const int code = call(form, {send, rank == p - 1 ? 2 : 1, MPI_INT, recv, 1, MPI_INT}, comm_);
    EXPECT_EQ(error_class(code), rank == 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS);
    if (rank != 0) EXPECT_EQ(recv[0], sender * 100) << "the block from rank " << sender;
    EXPECT_EQ(recv[1], -1) << "nothing beyond the receive block";
  }
}

}  // namespace
