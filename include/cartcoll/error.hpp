// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Errors thrown by the C++ API. MPI-free: the MPI layer maps each kind to an MPI error class.
#include <stdexcept>
#include <string>

#include "cartcoll/export.h"

namespace cartcoll {

enum class Errc {
  arg,             // a bad argument that no more specific class covers
  dims,            // bad grid: d < 1, a non-positive dimension, or a grid larger than the communicator
  count,           // a negative count, or send and receive blocks of different sizes
  buffer,          // MPI_IN_PLACE, or a block of non-zero size at address 0 (NULL)
  rank,            // a rank outside the communicator
  root,            // a root outside the communicator, or processes naming different roots
  op,              // MPI_OP_NULL where a reduction operation is needed
  type,            // MPI_DATATYPE_NULL where a datatype is needed
  request,         // a null, freed or active request where that is not allowed
  topology,        // a communicator without a cartcoll neighborhood
  comm,            // MPI_COMM_NULL where a communicator is needed
  info_value,      // an unknown cartcoll_algorithm value
  not_isomorphic,  // processes passed different grids or offset lists
  no_memory,
  intern,          // a limit of the library was reached (see the message)
  mpi,             // an MPI call failed; Error::mpi_code() holds its code
};

class CARTCOLL_API Error : public std::runtime_error {
 public:
  Error(Errc kind, const std::string& what, int mpi_code = 0)
      : std::runtime_error(what), kind_(kind), mpi_code_(mpi_code) {}
  Errc kind() const noexcept { return kind_; }
  int mpi_code() const noexcept { return mpi_code_; }

 private:
  Errc kind_;
  int mpi_code_;
};

}  // namespace cartcoll
