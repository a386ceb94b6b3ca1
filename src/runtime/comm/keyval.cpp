// SPDX-License-Identifier: BSD-3-Clause
#include "keyval.hpp"

#include <cstdint>

#include "runtime/exec/mpi_check.hpp"

namespace cartcoll::detail {

namespace {

// The delete callback of MPI_COMM_SELF's attribute: frees the key it carries and its own.
int free_keyvals(MPI_Comm, int own_keyval, void*, void* extra_state) {
  int keyval = static_cast<int>(reinterpret_cast<std::intptr_t>(extra_state));
  MPI_Comm_free_keyval(&keyval);
  MPI_Comm_free_keyval(&own_keyval);
  return MPI_SUCCESS;
}

}  // namespace

int create_keyval_freed_at_finalize(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* erase) {
  int keyval = MPI_KEYVAL_INVALID, cleanup = MPI_KEYVAL_INVALID;
  check(MPI_Comm_create_keyval(copy, erase, &keyval, nullptr), "MPI_Comm_create_keyval");
  check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_keyvals, &cleanup,
                               reinterpret_cast<void*>(static_cast<std::intptr_t>(keyval))),
        "MPI_Comm_create_keyval");
  check(MPI_Comm_set_attr(MPI_COMM_SELF, cleanup, nullptr), "MPI_Comm_set_attr");
  return keyval;
}

}  // namespace cartcoll::detail
