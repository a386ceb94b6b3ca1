// SPDX-License-Identifier: BSD-3-Clause
#include "errors.hpp"

#include <cstdio>
#include <cstdlib>

namespace cartcoll::capi {

int mpi_error_class(const Error& error) {
  switch (error.kind()) {
    case Errc::arg: return MPI_ERR_ARG;
    case Errc::dims: return MPI_ERR_DIMS;
    case Errc::count: return MPI_ERR_COUNT;
    case Errc::buffer: return MPI_ERR_BUFFER;
    case Errc::rank: return MPI_ERR_RANK;
    case Errc::root: return MPI_ERR_ROOT;
    case Errc::op: return MPI_ERR_OP;
    case Errc::type: return MPI_ERR_TYPE;
    case Errc::request: return MPI_ERR_REQUEST;
    case Errc::topology: return MPI_ERR_TOPOLOGY;
    case Errc::comm: return MPI_ERR_COMM;
    case Errc::info_value: return MPI_ERR_INFO_VALUE;
    case Errc::not_isomorphic: return MPI_ERR_ARG;
    case Errc::no_memory: return MPI_ERR_NO_MEM;
    case Errc::intern: return MPI_ERR_INTERN;
    case Errc::mpi: return error.mpi_code() != MPI_SUCCESS ? error.mpi_code() : MPI_ERR_INTERN;
  }
  return MPI_ERR_INTERN;
}

void report(const Error& error) {
  static const bool verbose = std::getenv("CARTCOLL_VERBOSE_ERRORS") != nullptr;  // read once
  if (verbose) std::fprintf(stderr, "cartcoll: %s\n", error.what());
}

int raise(MPI_Comm comm, int code) {
  MPI_Comm_call_errhandler(comm == MPI_COMM_NULL ? MPI_COMM_SELF : comm, code);
  return code;
}

}  // namespace cartcoll::capi
