// SPDX-License-Identifier: BSD-3-Clause
// Every collective, in every form, on every grid and offset list of support::grids_for /
// offsets_for, against the reference model, once per algorithm.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "../support/cart_fixture.hpp"
#include "../support/exchange_case.hpp"
#include "../support/handle_census.hpp"
#include "../support/neighborhoods.hpp"

using namespace support;

namespace {

void run_blocking(ExchangeCase& exchange, MPI_Comm cart) {
  exchange.prepare(0);
  ASSERT_EQ(exchange.call(Form::blocking, cart, MPI_INFO_NULL, nullptr), MPI_SUCCESS) << exchange.describe();
  EXPECT_EQ(exchange.mismatch(), "") << "blocking " << exchange.describe();
}

// Completes with Cart_test polling on odd generations and Cart_wait on even ones.
void run_nonblocking(ExchangeCase& exchange, MPI_Comm cart, int generation) {
  exchange.prepare(generation);
  Cart_request request = CART_REQUEST_NULL;
  ASSERT_EQ(exchange.call(Form::nonblocking, cart, MPI_INFO_NULL, &request), MPI_SUCCESS) << exchange.describe();
  if (generation % 2) {
    int done = 0;
    while (!done) ASSERT_EQ(Cart_test(&request, &done), MPI_SUCCESS);
  } else {
    ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
  }
  EXPECT_EQ(request, CART_REQUEST_NULL);
  EXPECT_EQ(exchange.mismatch(), "") << "nonblocking " << exchange.describe();
}

// Several start/wait cycles with new send data and a reset receive buffer before each start.
void run_persistent(ExchangeCase& exchange, MPI_Comm cart, MPI_Info info) {
  Cart_request request = CART_REQUEST_NULL;
  exchange.prepare(0);
  ASSERT_EQ(exchange.call(Form::persistent, cart, info, &request), MPI_SUCCESS) << exchange.describe();
  for (int generation = 1; generation <= 3; ++generation) {
    exchange.prepare(generation);
    ASSERT_EQ(Cart_start(&request), MPI_SUCCESS);
    ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
    EXPECT_NE(request, CART_REQUEST_NULL) << "a persistent request survives its wait";
    EXPECT_EQ(exchange.mismatch(), "") << "persistent cycle " << generation << ", " << exchange.describe();
  }
  ASSERT_EQ(Cart_request_free(&request), MPI_SUCCESS);
  EXPECT_EQ(request, CART_REQUEST_NULL);
}

// Every grid and offset list of this process count, every operation, variant and form, under `algorithm`.
void check_every_grid(const std::string& algorithm) {
  const TestTypes types;
  const AlgorithmInfo info(algorithm);
  unsigned seed = 1;
  for (const cartcoll::Grid& grid : grids_for(world_size())) {
    for (const cartcoll::Offsets& offsets : offsets_for(grid.ndims(), seed++)) {
      MPI_Comm cart = MPI_COMM_NULL;
      ASSERT_EQ(create(MPI_COMM_WORLD, grid, offsets, info.get(), &cart), MPI_SUCCESS);
      if (cart == MPI_COMM_NULL) {
        EXPECT_GE(world_rank(), grid.size()) << "only processes beyond the grid get MPI_COMM_NULL";
        continue;
      }
      int rank = 0;
      MPI_Comm_rank(cart, &rank);
      for (Op op : all_ops) {
        for (Variant variant : all_variants) {
          ExchangeCase exchange(op, variant, types, grid, offsets, rank);
          run_blocking(exchange, cart);
          run_nonblocking(exchange, cart, seed % 2 ? 1 : 2);
          run_persistent(exchange, cart, info.get());
        }
      }
      MPI_Comm_free(&cart);
      const census::Live live = census::live();
      EXPECT_EQ(live.datatypes, 0u) << "struct datatypes leaked";
      EXPECT_EQ(live.requests, 0u) << "persistent requests leaked";
      EXPECT_EQ(live.communicators, 0u) << "communicators leaked";
    }
  }
}

class Collectives : public testing::TestWithParam<std::string> {};

TEST_P(Collectives, MatchTheReferenceModelOnEveryGridAndForm) { check_every_grid(GetParam()); }

// Semantics rule 70: a multi-block message goes as one staged run (CARTCOLL_STAGE_BYTES, read at
// creation) or as a struct datatype, a local choice that keeps the message's type signature. The
// sweep runs combining with every message a struct, with every eligible message staged, and with
// the two ends of every message choosing differently (even ranks stage, odd ones never). The suite
// runs it at 1-4 processes (tests/mpi/CMakeLists.txt): what a message carries does not depend on the
// process count, and at 1-4 processes the grids already have every kind of dimension (size 1, 2,
// more; periodic or not).
class StagedMessages : public testing::TestWithParam<std::string> {};

TEST_P(StagedMessages, DeliverWhatStructMessagesDeliver) {
  const std::string mode = GetParam();
  const char* limit = mode == "structs" ? "0" : mode == "staged" ? "1000000000" : world_rank() % 2 ? "0" : "1000000000";
  ASSERT_EQ(setenv("CARTCOLL_STAGE_BYTES", limit, 1), 0);
  check_every_grid("combining");
  ASSERT_EQ(unsetenv("CARTCOLL_STAGE_BYTES"), 0);
}

INSTANTIATE_TEST_SUITE_P(Modes, StagedMessages, testing::Values("structs", "staged", "mixed"),
                         [](const auto& info) { return std::string(info.param); });

INSTANTIATE_TEST_SUITE_P(Algorithms, Collectives, testing::ValuesIn(algorithm_names(true)),
                         [](const auto& info) { return algorithm_test_name(info.param); });

}  // namespace
