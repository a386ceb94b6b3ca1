// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The two collective families every neighborhood call belongs to (no MPI).
#include <cstdint>

namespace cartcoll {

// Which collective family a call or schedule serves: alltoall sends send block j to destination j;
// allgather sends the one send block (index 0) to every destination. Both receive block i from
// source i.
enum class Collective : std::uint8_t { alltoall, allgather };

}  // namespace cartcoll
