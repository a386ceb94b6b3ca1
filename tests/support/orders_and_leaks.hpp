#pragma once
// Two checks the MPI tests of the CC_ interfaces share: a completion order that differs from rank to
// rank, and that every handle the library made is gone.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "cart_fixture.hpp"
#include "handle_census.hpp"

namespace support {

// A permutation of 0..n-1 that differs between ranks.
inline std::vector<int> rank_order(int n, unsigned salt) {
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 rng(static_cast<unsigned>(world_rank()) * 7919u + salt);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

// Every struct datatype, persistent request and communicator the library made has been freed.
inline void expect_no_leaks() {
  const census::Live live = census::live();
  EXPECT_EQ(live.datatypes, 0u) << "struct datatypes leaked";
  EXPECT_EQ(live.requests, 0u) << "persistent requests leaked";
  EXPECT_EQ(live.communicators, 0u) << "communicators leaked";
}

}  // namespace support
