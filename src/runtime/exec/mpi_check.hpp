// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Turns MPI return codes into exceptions; the library's own communicators return errors.
#include <mpi.h>

#include "cartcoll/error.hpp"

namespace cartcoll::detail {

inline void check(int code, const char* what) {
  if (code != MPI_SUCCESS) throw Error(Errc::mpi, what, code);
}

}  // namespace cartcoll::detail
