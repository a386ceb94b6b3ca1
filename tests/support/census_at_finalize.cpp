// SPDX-License-Identifier: BSD-3-Clause
// For MPI programs that are not GoogleTest tests (the unified-interfaces paper's (Träff, Hunold,
// Mercier and Holmes) examples in --check mode): at MPI_Finalize, every communicator, struct
// datatype and persistent request the PMPI census counts must be gone; otherwise the program aborts
// with the census's list. Linked as an object, so that it (and through census::leaks the census's
// wrappers) always comes before the MPI library.
#include <mpi.h>

#include <cstdio>
#include <string>

#include "handle_census.hpp"

extern "C" int MPI_Finalize() {
  const std::string leaks = census::leaks();
  if (!leaks.empty()) {
    int rank = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "[rank %d] at MPI_Finalize: %s\n", rank, leaks.c_str());
    PMPI_Abort(MPI_COMM_WORLD, 2);
  }
  return PMPI_Finalize();
}
