// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Two checks the MPI tests of the CC_ interfaces share: a completion order that differs from rank to
// rank (rank_order, from graph_checks.hpp), and that every handle the library made is gone (here:
// it needs the PMPI census, which the interposer's tests must not link).
#include <gtest/gtest.h>

#include "graph_checks.hpp"
#include "handle_census.hpp"

namespace support {

// Every struct datatype, persistent request and communicator the library made has been freed.
inline void expect_no_leaks() {
  const census::Live live = census::live();
  EXPECT_EQ(live.datatypes, 0u) << "struct datatypes leaked";
  EXPECT_EQ(live.requests, 0u) << "persistent requests leaked";
  EXPECT_EQ(live.communicators, 0u) << "communicators leaked";
}

}  // namespace support
