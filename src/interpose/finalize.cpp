// SPDX-License-Identifier: BSD-3-Clause
// libcartcoll_mpi: MPI_Finalize makes sure the CARTCOLL_REPORT lines are printed, even by a process
// that called no neighborhood collective (report.hpp prints them inside PMPI_Finalize).
#include <mpi.h>

#include "report.hpp"

extern "C" int MPI_Finalize(void) {
  cartcoll::interpose::arm_report();
  return PMPI_Finalize();
}
