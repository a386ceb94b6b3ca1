// SPDX-License-Identifier: BSD-3-Clause
// What the library really sends: per process, the point-to-point messages and bytes counted by the
// PMPI traffic census around one collective call must be exactly what cartcoll::plan says for this
// process's coordinates — messages = the schedule's sends, bytes = blocks sent x m x sizeof(int).
// Blocking, nonblocking and persistent (every start) forms; alltoall and allgather; every grid of
// support::grids_for with the offsets of support::offsets_for and a 3-D Moore neighborhood.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "../support/cart_fixture.hpp"
#include "../support/exchange_case.hpp"
#include "../support/handle_census.hpp"
#include "../support/neighborhoods.hpp"
#include "traffic_census.hpp"
#include "cartcoll/cartcoll.hpp"
#include "core/planning/plan.hpp"
#include "core/model/neighborhoods.hpp"

using namespace support;

namespace {

// The node size node-combining plans with: CARTCOLL_NODE_SIZE where the test runs under it (ctest
// runs it so too), else what MPI_COMM_TYPE_SHARED shows on this one machine: one node (0).
int node_size_of_environment() {
  const char* value = std::getenv("CARTCOLL_NODE_SIZE");
  return value != nullptr ? std::atoi(value) : 0;
}

struct Expected {
  long long messages = 0;
  long long bytes = 0;
};

// Straight from the schedule: every send is one message of its blocks, each m ints here.
Expected expected_traffic(const cartcoll::Schedule& schedule, int m) {
  Expected expected;
  long long blocks = 0;
  for (const cartcoll::Phase& phase : schedule.phases)
    for (const cartcoll::Message& send : phase.sends) {
      ++expected.messages;
      blocks += static_cast<long long>(send.blocks.size());
    }
  expected.bytes = blocks * m * static_cast<long long>(sizeof(int));
  return expected;
}

// Moore radius 1 in 3-D, the zero offset included: 27 offsets.
cartcoll::Offsets moore3() { return cartcoll::Offsets(3, cartcoll::neighborhoods::box(3, 3, -1, true)); }

struct Case {
  cartcoll::Grid grid;
  std::vector<cartcoll::Offsets> offsets;
};

// grids_for x offsets_for, plus the 3-D Moore neighborhood on a periodic and a non-periodic 3-D grid.
std::vector<Case> cases(int p) {
  std::vector<Case> all;
  unsigned seed = 1;
  for (const cartcoll::Grid& grid : grids_for(p)) {
    all.push_back({grid, offsets_for(grid.ndims(), seed++)});
    if (grid.ndims() == 3) {
      const std::vector<int> dims(grid.dims().begin(), grid.dims().end());
      all.push_back({cartcoll::Grid(dims, {true, true, true}), {moore3()}});
      all.push_back({cartcoll::Grid(dims, {false, false, false}), {moore3()}});
    }
  }
  return all;
}

const char* name(cartcoll::Collective collective) {
  return collective == cartcoll::Collective::alltoall ? "alltoall" : "allgather";
}

class TrafficCheck {
 public:
  TrafficCheck(std::string context, Expected expected) : context_(std::move(context)), expected_(expected) {}

  // Counts only what happens inside `call`.
  template <typename Call>
  void measure(const char* what, Call&& call) {
    census::reset_traffic();
    call();
    const census::Traffic traffic = census::traffic();
    EXPECT_EQ(traffic.messages, expected_.messages) << "messages sent, " << what << ", " << context_;
    EXPECT_EQ(traffic.bytes, expected_.bytes) << "bytes sent, " << what << ", " << context_;
    EXPECT_EQ(traffic.unknown_starts, 0) << "requests started that the census did not see made, " << what
                                         << ", " << context_;
  }

 private:
  std::string context_;
  Expected expected_;
};

// One collective in its three forms; blocking twice (the first call also makes the library's
// private communicator), persistent over two start/wait cycles.
void check_forms(MPI_Comm cart, cartcoll::Collective collective, int t, int m, TrafficCheck& check) {
  const bool alltoall = collective == cartcoll::Collective::alltoall;
  std::vector<int> send(static_cast<std::size_t>(std::max(1, (alltoall ? t : 1) * m)), 7);
  std::vector<int> recv(static_cast<std::size_t>(std::max(1, t * m)), -1);
  const auto blocking = [&] {
    const int code = alltoall ? Cart_alltoall(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, cart)
                              : Cart_allgather(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, cart);
    ASSERT_EQ(code, MPI_SUCCESS);
  };
  check.measure("blocking (first call)", blocking);
  check.measure("blocking (second call)", blocking);

  check.measure("nonblocking", [&] {
    Cart_request request = CART_REQUEST_NULL;
    const int code = alltoall ? Cart_ialltoall(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, cart, &request)
                              : Cart_iallgather(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, cart, &request);
    ASSERT_EQ(code, MPI_SUCCESS);
    ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
  });

  // The init call (with its internal MPI_Allreduce) is not measured; each start is.
  Cart_request request = CART_REQUEST_NULL;
  const int code =
      alltoall ? Cart_alltoall_init(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, cart, MPI_INFO_NULL, &request)
               : Cart_allgather_init(send.data(), m, MPI_INT, recv.data(), m, MPI_INT, cart, MPI_INFO_NULL, &request);
  ASSERT_EQ(code, MPI_SUCCESS);
  for (const char* cycle : {"persistent (first start)", "persistent (second start)"}) {
    check.measure(cycle, [&] {
      ASSERT_EQ(Cart_start(&request), MPI_SUCCESS);
      ASSERT_EQ(Cart_wait(&request), MPI_SUCCESS);
    });
  }
  ASSERT_EQ(Cart_request_free(&request), MPI_SUCCESS);
}

class Traffic : public testing::TestWithParam<std::string> {};

TEST_P(Traffic, EveryProcessSendsExactlyWhatItsScheduleSays) {
  const cartcoll::Algorithm algorithm = cartcoll::Algorithm::named(GetParam());
  const AlgorithmInfo info(GetParam());
  const bool forced = std::getenv("CARTCOLL_ALGORITHM") != nullptr;
  for (const Case& c : cases(world_size())) {
    for (const cartcoll::Offsets& offsets : c.offsets) {
      MPI_Comm cart = MPI_COMM_NULL;
      ASSERT_EQ(create(MPI_COMM_WORLD, c.grid, offsets, info.get(), &cart), MPI_SUCCESS);
      if (cart == MPI_COMM_NULL) {
        EXPECT_GE(world_rank(), c.grid.size()) << "only processes beyond the grid get MPI_COMM_NULL";
        continue;
      }
      const cartcoll::CartComm view(cart);
      // The expectation follows the algorithm the communicator runs; that is the one asked for
      // unless CARTCOLL_ALGORITHM overrides the info key.
      const cartcoll::Algorithm used = view.algorithm();
      if (!forced) EXPECT_EQ(used, algorithm);
      const std::vector<int> coords(view.coords().begin(), view.coords().end());
      EXPECT_EQ(coords, c.grid.coords_of(view.rank()));
      for (cartcoll::Collective collective : {cartcoll::Collective::alltoall, cartcoll::Collective::allgather}) {
        const cartcoll::Schedule schedule =
            cartcoll::plan(used, {c.grid, offsets, coords, node_size_of_environment()}, collective);
        for (int m : {1, 5}) {
          const Expected expected = expected_traffic(schedule, m);
          std::ostringstream context;
          context << used.name() << ' ' << name(collective) << ", m = " << m << " ints, rank "
                  << view.rank() << ", " << describe(c.grid, offsets);
          TrafficCheck check(context.str(), expected);
          check_forms(cart, collective, offsets.count(), m, check);
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

INSTANTIATE_TEST_SUITE_P(Algorithms, Traffic, testing::ValuesIn(algorithm_names(false)),
                         [](const auto& info) { return algorithm_test_name(info.param); });

}  // namespace
