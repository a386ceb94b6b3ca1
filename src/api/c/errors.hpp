// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The C layer's one error path: exceptions -> MPI error class -> the communicator's error handler.
#include <mpi.h>

#include <new>

#include "cartcoll/error.hpp"

namespace cartcoll::capi {

int mpi_error_class(const Error& error);

// MPI error classes carry no message; with CARTCOLL_VERBOSE_ERRORS set, the reason goes to stderr.
void report(const Error& error);

// Raises `code` on comm's error handler (MPI_COMM_SELF's where there is no communicator, as MPI-4
// does for errors not tied to an object) and returns it.
int raise(MPI_Comm comm, int code);

template <typename Body>
int guarded(MPI_Comm comm, Body&& body) {
  try {
    body();
    return MPI_SUCCESS;
  } catch (const Error& error) {
    report(error);
    return raise(comm, mpi_error_class(error));
  } catch (const std::bad_alloc&) {
    return raise(comm, MPI_ERR_NO_MEM);
  } catch (...) {
    return raise(comm, MPI_ERR_INTERN);
  }
}

}  // namespace cartcoll::capi
