// SPDX-License-Identifier: BSD-3-Clause
#include "request_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/error_checks.hpp"
#include "../support/graph_case.hpp"

using namespace support;

namespace errors {

namespace {

constexpr int truncating_tag = 91;

int last_self_code = MPI_SUCCESS;
void log_self(MPI_Comm*, int* code, ...) { last_self_code = *code; }

bool completes_several(Completer how) {
  return how == Completer::waitall || how == Completer::testall || how == Completer::waitsome ||
         how == Completer::testsome;
}

// What one request's completion said: its status's MPI_ERROR where the call returned
// MPI_ERR_IN_STATUS and statuses were given, else the call's code.
int outcome(int code, const MPI_Status* status) {
  return code == MPI_ERR_IN_STATUS && status != nullptr ? error_class(status->MPI_ERROR) : error_class(code);
}

// Completes every request by `how`, as a program that checks each code would; each request's outcome.
std::vector<int> complete_checking(std::vector<MPI_Request>& requests, Completer how, bool with_statuses,
                                   const Api& api) {
  const int n = static_cast<int>(requests.size());
  std::vector<int> outcomes(requests.size(), -1), indices(requests.size());
  std::vector<MPI_Status> statuses(requests.size());
  MPI_Status* all = with_statuses ? statuses.data() : MPI_STATUSES_IGNORE;
  MPI_Status* one = with_statuses ? statuses.data() : MPI_STATUS_IGNORE;
  const MPI_Status* seen = with_statuses ? statuses.data() : nullptr;
  int flag = 0, index = 0, count = 0, code = MPI_SUCCESS;
  switch (how) {
    case Completer::waitall:
    case Completer::testall:
      do {
        code = how == Completer::waitall ? api.waitall(n, requests.data(), all)
                                          : api.testall(n, requests.data(), &flag, all);
      } while (how == Completer::testall && !flag && code == MPI_SUCCESS);
      for (int i = 0; i < n; ++i) {
        const auto at = static_cast<std::size_t>(i);
        outcomes[at] = outcome(code, seen ? seen + i : nullptr);
        // MPI may stop at the first failure and leave the rest pending, active (MPI_ERR_PENDING, or with
        // statuses ignored, only the handle says): they are waited for again.
        if (requests[at] != MPI_REQUEST_NULL && (outcomes[at] == MPI_ERR_PENDING || !with_statuses))
          outcomes[at] = error_class(api.wait(&requests[at], MPI_STATUS_IGNORE));
      }
      break;
    case Completer::waitany:
    case Completer::testany:
      for (;;) {
        code = how == Completer::waitany ? api.waitany(n, requests.data(), &index, one)
                                          : api.testany(n, requests.data(), &index, &flag, one);
        if (how == Completer::testany && !flag) {
          if (code == MPI_SUCCESS) continue;
          ADD_FAILURE() << "testany failed without completing a request";
          break;
        }
        if (index == MPI_UNDEFINED) break;
        outcomes[static_cast<std::size_t>(index)] = error_class(code);
      }
      break;
    case Completer::waitsome:
    case Completer::testsome:
      for (;;) {
        code = how == Completer::waitsome ? api.waitsome(n, requests.data(), &count, indices.data(), all)
                                           : api.testsome(n, requests.data(), &count, indices.data(), all);
        if (count == MPI_UNDEFINED) break;
        for (int k = 0; k < count; ++k)
          outcomes[static_cast<std::size_t>(indices[static_cast<std::size_t>(k)])] = outcome(code, seen ? seen + k : nullptr);
      }
      break;
    default:  // one request at a time
      for (int i = 0; i < n; ++i) {
        MPI_Request& request = requests[static_cast<std::size_t>(i)];
        if (how == Completer::wait) {
          code = api.wait(&request, one);
        } else {
          do code = api.test(&request, &flag, one);
          while (!flag && code == MPI_SUCCESS);
        }
        outcomes[static_cast<std::size_t>(i)] = error_class(code);
      }
  }
  return outcomes;
}

struct RingTruncation {
  int sent[2] = {0, 0}, received[2] = {-1, -1};
  MPI_Request receive = MPI_REQUEST_NULL, send = MPI_REQUEST_NULL;

  void post() {
    const int p = world_size(), rank = world_rank();
    sent[0] = 1000 + rank;
    sent[1] = 2000 + rank;
    ASSERT_EQ(MPI_Irecv(received, 1, MPI_INT, (rank + p - 1) % p, truncating_tag, MPI_COMM_WORLD, &receive), MPI_SUCCESS);
    ASSERT_EQ(MPI_Isend(sent, 2, MPI_INT, (rank + 1) % p, truncating_tag, MPI_COMM_WORLD, &send), MPI_SUCCESS);
  }
};

}  // namespace

const char* name(Completer how) {
  static const char* const names[] = {"wait", "waitall", "waitany", "waitsome", "test", "testall", "testany", "testsome"};
  return names[static_cast<int>(how)];
}

void truncated_receive(MPI_Comm comm, Completer how, bool with_statuses, bool with_operation, const Api& api) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const TestTypes types;
  GraphCase exchange(Op::alltoall, Variant::plain, Sizes::per_edge, types, gather_topology(comm), world_rank(), 5);
  RingTruncation ring;
  std::vector<MPI_Request> requests;
  ring.post();
  requests.push_back(ring.receive);
  if (with_operation) {
    exchange.prepare(1);
    MPI_Request operation = MPI_REQUEST_NULL;
    ASSERT_EQ(exchange.call(Form::nonblocking, comm, &operation, api), MPI_SUCCESS);
    requests.push_back(operation);
  }
  requests.push_back(ring.send);
  const std::vector<int> outcomes = complete_checking(requests, how, with_statuses, api);
  const bool several = completes_several(how);
  const std::string what = std::string(name(how)) + (with_statuses ? " with statuses" : " ignoring statuses") +
                           (with_operation ? ", an operation in flight" : "");
  const int truncated = several && !with_statuses ? MPI_ERR_IN_STATUS : MPI_ERR_TRUNCATE;
  expect_class_everywhere(outcomes.front(), truncated);
  EXPECT_EQ(error_class(outcomes.front()), truncated) << what;
  for (std::size_t i = 1; i < outcomes.size(); ++i) {
    if (several && !with_statuses && outcomes[i] == MPI_ERR_IN_STATUS) continue;  // completed in the same call
    EXPECT_EQ(outcomes[i], MPI_SUCCESS) << what << ": request " << i;
  }
  for (const MPI_Request request : requests) EXPECT_EQ(request, MPI_REQUEST_NULL) << what;
  if (with_operation) EXPECT_EQ(exchange.mismatch(), "") << what;
}

void truncated_receive_every_way(MPI_Comm comm, const Api& api) {
  for (const Completer how : all_completers)
    for (const bool with_statuses : {true, false})
      for (const bool with_operation : {true, false}) truncated_receive(comm, how, with_statuses, with_operation, api);
}

void truncated_receive_status(MPI_Comm comm, const Api& api) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  const TestTypes types;
  GraphCase exchange(Op::alltoall, Variant::plain, Sizes::per_edge, types, gather_topology(comm), world_rank(), 6);
  RingTruncation ring;
  ring.post();
  exchange.prepare(1);
  MPI_Request operation = MPI_REQUEST_NULL;
  ASSERT_EQ(exchange.call(Form::nonblocking, comm, &operation, api), MPI_SUCCESS);
  int flag = 0, code = MPI_SUCCESS;
  while (!flag && code == MPI_SUCCESS) code = api.request_get_status(ring.receive, &flag, MPI_STATUS_IGNORE);
  int native_flag = 0;
  const int native = MPI_Request_get_status(ring.receive, &native_flag, MPI_STATUS_IGNORE);
  EXPECT_EQ(native_flag, 1);
  EXPECT_EQ(error_class(code), error_class(native)) << "as MPI's own MPI_Request_get_status";
  EXPECT_EQ(error_class(api.wait(&ring.receive, MPI_STATUS_IGNORE)), MPI_ERR_TRUNCATE);
  EXPECT_EQ(api.wait(&ring.send, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(api.wait(&operation, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(exchange.mismatch(), "");
}

void stale_library_handles(MPI_Comm comm, const Api& api) {
  const TestTypes types;
  GraphCase exchange(Op::alltoall, Variant::plain, Sizes::per_edge, types, gather_topology(comm), world_rank(), 8);
  std::vector<MPI_Request> stale;
  MPI_Request request = MPI_REQUEST_NULL;
  if (api.has_persistent()) {
    exchange.prepare(1);
    ASSERT_EQ(exchange.call(Form::persistent, comm, &request, api), MPI_SUCCESS);
    stale.push_back(request);
    ASSERT_EQ(api.request_free(&request), MPI_SUCCESS);
  }
  exchange.prepare(2);
  ASSERT_EQ(exchange.call(Form::nonblocking, comm, &request, api), MPI_SUCCESS);
  stale.push_back(request);
  ASSERT_EQ(api.wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS);
  EXPECT_EQ(exchange.mismatch(), "");

  SelfHandlerLog self;
  for (const MPI_Request freed : stale) {
    MPI_Request copy = freed;
    int flag = 0, index = 0, count = 0, indices[1];
    const auto expect_stale = [&](int code, const char* call) {
      EXPECT_EQ(error_class(code), MPI_ERR_REQUEST) << call;
      EXPECT_EQ(self.take(), MPI_ERR_REQUEST) << call << " calls MPI_COMM_SELF's handler";
      EXPECT_EQ(copy, freed) << call << " leaves the handle as it is";
    };
    expect_stale(api.start(&copy), "start");
    expect_stale(api.startall(1, &copy), "startall");
    expect_stale(api.wait(&copy, MPI_STATUS_IGNORE), "wait");
    expect_stale(api.test(&copy, &flag, MPI_STATUS_IGNORE), "test");
    expect_stale(api.request_get_status(copy, &flag, MPI_STATUS_IGNORE), "request_get_status");
    expect_stale(api.request_free(&copy), "request_free");
    expect_stale(api.waitall(1, &copy, MPI_STATUSES_IGNORE), "waitall");
    expect_stale(api.testall(1, &copy, &flag, MPI_STATUSES_IGNORE), "testall");
    expect_stale(api.waitany(1, &copy, &index, MPI_STATUS_IGNORE), "waitany");
    expect_stale(api.testany(1, &copy, &index, &flag, MPI_STATUS_IGNORE), "testany");
    expect_stale(api.waitsome(1, &copy, &count, indices, MPI_STATUSES_IGNORE), "waitsome");
    expect_stale(api.testsome(1, &copy, &count, indices, MPI_STATUSES_IGNORE), "testsome");
  }
}

SelfHandlerLog::SelfHandlerLog() {
  MPI_Comm_create_errhandler(log_self, &handler_);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, handler_);
  last_self_code = MPI_SUCCESS;
}

SelfHandlerLog::~SelfHandlerLog() {
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&handler_);
}

int SelfHandlerLog::take() {
  const int code = last_self_code;
  last_self_code = MPI_SUCCESS;
  return error_class(code);
}

}  // namespace errors
