// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The block lists MPI's argument lists describe, checked (MPI_IN_PLACE, MPI_DATATYPE_NULL, negative
// counts, short arrays, NULL buffers with data): the pieces of every layout builder (layout.hpp) and
// of the unified collectives' layouts (src/runtime/unified). `what` names the list in error messages.
#include <mpi.h>

#include <span>
#include <vector>

#include "cartcoll/layout.hpp"

namespace cartcoll::detail {

// n blocks of `count` elements of `type`, one after the other (MPI's regular collectives).
std::vector<BlockSpec> regular_blocks(int n, const void* buffer, int count, MPI_Datatype type, const char* what);
// n blocks at displacements in extents of the one datatype (the v collectives).
std::vector<BlockSpec> irregular_blocks(int n, const void* buffer, std::span<const int> counts,
                                        std::span<const int> displs, MPI_Datatype type, const char* what);
// n blocks with a datatype each, at displacements in bytes (the w collectives).
std::vector<BlockSpec> general_blocks(int n, const void* buffer, std::span<const int> counts,
                                      std::span<const MPI_Aint> displs, std::span<const MPI_Datatype> types,
                                      const char* what);

}  // namespace cartcoll::detail
