// SPDX-License-Identifier: BSD-3-Clause
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace cartcoll::detail {

// A block's address (absolute, as MPI_Get_address gives it) as the pointer MPI's buffer arguments take.
inline std::byte* pointer_of(MPI_Aint address) { return reinterpret_cast<std::byte*>(static_cast<std::intptr_t>(address)); }

}  // namespace cartcoll::detail
