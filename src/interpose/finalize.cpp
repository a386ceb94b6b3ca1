// libcartcoll_mpi: MPI_Finalize prints the CARTCOLL_REPORT lines while MPI still works; the
// library's state goes inside PMPI_Finalize, with MPI_COMM_SELF's attributes.
#include <mpi.h>

#include "report.hpp"

extern "C" int MPI_Finalize(void) {
  cartcoll::interpose::print_report();
  return PMPI_Finalize();
}
