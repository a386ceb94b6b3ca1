// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Whether the MPI is SimGrid's SMPI (cmake/mpi_features.cmake: its mpi.h declares
// smpi_execute_flops). Where SMPI 3.32 is linear, unsynchronised or slow to simulate, the library
// picks another way for its own traffic (docs/simulation.md, "Building under SMPI").
namespace cartcoll::detail {

#ifdef CARTCOLL_MPI_IS_SMPI
inline constexpr bool mpi_is_simulated = true;
#else
inline constexpr bool mpi_is_simulated = false;
#endif

}  // namespace cartcoll::detail
