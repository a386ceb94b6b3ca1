// SPDX-License-Identifier: BSD-3-Clause
// `auto`'s trial is bounded (docs/semantics.md rule 24): on a neighborhood of thousands of repeated
// offsets, where trivial sends a message per offset and combining one per phase, the first blocking
// alltoall runs trivial at most in its two warm-ups (the model prices it out; else it takes more than
// 4x combining's time there), chooses combining on every process, and delivers every block. What ran is read from
// rank 0's CARTCOLL_VERBOSE_AUTO line, never from the clock.
#include <gtest/gtest.h>
#include <mpi.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/watchdog.hpp"
#include "cartcoll/cartcoll.h"

namespace {

using support::world_rank;
using support::world_size;

constexpr int repeated = 4000;  // offsets +1, each its own block

// What `action` writes to stderr, on this process (fd 2 goes to a file meanwhile).
template <typename Action>
std::string stderr_of(Action&& action) {
  const std::string path = "/tmp/cartcoll-trial-budget-" + std::to_string(getpid());
  std::fflush(stderr);
  const int saved = dup(2);
  FILE* capture = std::fopen(path.c_str(), "w");
  dup2(fileno(capture), 2);
  action();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(capture);
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  std::remove(path.c_str());
  return text.str();
}

TEST(TrialBudget, ASlowCandidateStopsAfterItsWarmUps) {
  const support::Watchdog watchdog("TrialBudget", std::chrono::seconds(90));
  const int p = world_size(), rank = world_rank();
  ASSERT_EQ(setenv("CARTCOLL_VERBOSE_AUTO", "1", 1), 0);
  const int dims[] = {p}, periods[] = {1};
  const std::vector<int> offsets(repeated, 1);
  MPI_Comm cart = MPI_COMM_NULL;
  ASSERT_EQ(Cart_neighborhood_create(MPI_COMM_WORLD, 1, dims, periods, repeated, offsets.data(), MPI_UNWEIGHTED,
                                     MPI_INFO_NULL, 0, &cart),
            MPI_SUCCESS);
  ASSERT_EQ(unsetenv("CARTCOLL_VERBOSE_AUTO"), 0);
  std::vector<int> send(repeated), received(repeated, -1);
  for (int i = 0; i < repeated; ++i) send[static_cast<std::size_t>(i)] = 10 * repeated * rank + i;
  int code = MPI_SUCCESS;
  const std::string said =
      stderr_of([&] { code = Cart_alltoall(send.data(), 1, MPI_INT, received.data(), 1, MPI_INT, cart); });
  ASSERT_EQ(code, MPI_SUCCESS);
  const int source = (rank + p - 1) % p;  // block i comes from R - N[i], which sent its block i
  for (int i = 0; i < repeated; ++i)
    ASSERT_EQ(received[static_cast<std::size_t>(i)], 10 * repeated * source + i) << "block " << i;
  if (rank == 0 && p > 1) {  // one process is its own only neighbor: nothing to choose
    SCOPED_TRACE(said);
    std::smatch trivial;
    ASSERT_TRUE(std::regex_search(said, trivial, std::regex(" trivial (not run \\(|[^;]* us, ([0-9]+) runs?;)")));
    if (trivial[2].matched) EXPECT_LE(std::stoi(trivial[2].str()), 2) << "trivial ran on after its slow warm-ups";
    EXPECT_NE(said.find("chose combining"), std::string::npos);
  }
  MPI_Comm_free(&cart);
}

}  // namespace
