# SPDX-License-Identifier: BSD-3-Clause
# What the chosen MPI offers beyond MPI-3.1's point-to-point and collectives, detected by symbol
# (never by MPI_VERSION). Sets, for the targets that need them:
#   CARTCOLL_MPI_IS_SMPI: the MPI is SimGrid's SMPI (its mpi.h declares smpi_execute_flops), a simulator
#     whose nonblocking collectives are linear (root 0 sends to every process in turn: its
#     smpi_nbc_impl.cpp) and which declares and exports functions it does not implement: calling
#     MPI_Neighbor_*, MPI_Dist_graph_*, MPI_Graph_*, MPI_Topo_test, MPI_Comm_idup,
#     MPI_Intercomm_merge or MPI_Comm_remote_size aborts the simulation (UNIMPLEMENTED_WRAPPED_PMPI_CALL
#     in its smpi_mpi.cpp, SimGrid 3.32).
#   CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES: MPI_Neighbor_* and MPI_Dist_graph_create_adjacent are
#     declared and work (declared, and the MPI is not SMPI).
include(CheckCXXSymbolExists)
include(CMakePushCheckState)
cmake_push_check_state(RESET)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_symbol_exists(smpi_execute_flops "mpi.h" CARTCOLL_MPI_IS_SMPI)
check_cxx_symbol_exists(MPI_Neighbor_alltoallw "mpi.h" CARTCOLL_MPI_DECLARES_NEIGHBOR_COLLECTIVES)
check_cxx_symbol_exists(MPI_Dist_graph_create_adjacent "mpi.h" CARTCOLL_MPI_DECLARES_DIST_GRAPH)
cmake_pop_check_state()
if(CARTCOLL_MPI_DECLARES_NEIGHBOR_COLLECTIVES AND CARTCOLL_MPI_DECLARES_DIST_GRAPH AND NOT CARTCOLL_MPI_IS_SMPI)
  set(CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES ON)
else()
  set(CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES OFF)
endif()
message(STATUS "MPI is SimGrid's SMPI: ${CARTCOLL_MPI_IS_SMPI}; MPI neighborhood collectives usable: "
               "${CARTCOLL_HAVE_MPI_NEIGHBOR_COLLECTIVES}")
