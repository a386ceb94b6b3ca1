// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The errors suite's cases on requests and completion that hold for the CC_ functions and for MPI's
// names through libcartcoll_mpi alike (one body, an Api table: support/api_table.hpp). Each case runs
// on every process, asserts the error class there and ends with a full, checked call on the
// communicator (expect_usable, error_support.hpp).
#include <mpi.h>

#include "../support/api_table.hpp"
#include "../support/graph_checks.hpp"
#include "error_support.hpp"

namespace errors {

// The completion functions, each completing an array of requests the way a careful program would.
enum class Completer { wait, waitall, waitany, waitsome, test, testall, testany, testsome };
inline const Completer all_completers[] = {Completer::wait, Completer::waitall, Completer::waitany,
                                           Completer::waitsome, Completer::test, Completer::testall,
                                           Completer::testany, Completer::testsome};
const char* name(Completer how);

// A plain MPI_Irecv of one int that two ints arrive for (from the left neighbor in the ring of
// MPI_COMM_WORLD, tag 91), completed by `how` together with the library's nonblocking operation on
// comm (in flight: `with_operation`) or alone, statuses given or ignored: the receive is
// MPI_ERR_TRUNCATE (MPI_ERR_IN_STATUS from the functions that complete several, with the class in
// its status where statuses are given), the operation succeeds. (What a truncated receive holds is
// MPI's choice: MPICH writes nothing.) Needs two processes: Open MPI 4.1.4 reports no truncation of
// a message to the process itself.
void truncated_receive(MPI_Comm comm, Completer how, bool with_statuses, bool with_operation,
                       const support::Api& api);

// truncated_receive by every completer, with statuses and without, beside an operation and alone.
void truncated_receive_every_way(MPI_Comm comm, const support::Api& api);

// The same receive, seen by api.request_get_status until it has completed: the same class as
// MPI's own MPI_Request_get_status gives for it, while an operation of the library is in flight.
void truncated_receive_status(MPI_Comm comm, const support::Api& api);

// Copies of freed handles of the library (a persistent request freed by api.request_free, a
// nonblocking one freed by api.wait) given to every request function: MPI_ERR_REQUEST on
// MPI_COMM_SELF's error handler, the copy unchanged.
void stale_library_handles(MPI_Comm comm, const support::Api& api);

// Records the codes MPI_COMM_SELF's handler is called with, for the life of the object, then puts
// MPI_ERRORS_RETURN back.
class SelfHandlerLog {
 public:
  SelfHandlerLog();
  ~SelfHandlerLog();
  SelfHandlerLog(const SelfHandlerLog&) = delete;
  SelfHandlerLog& operator=(const SelfHandlerLog&) = delete;
  // The class of the last code the handler saw since the last call (MPI_SUCCESS if none).
  int take();

 private:
  MPI_Errhandler handler_ = MPI_ERRHANDLER_NULL;
};

}  // namespace errors
