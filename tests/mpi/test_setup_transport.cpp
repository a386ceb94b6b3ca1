// SPDX-License-Identifier: BSD-3-Clause
// The MPI transport of the distributed set-up protocols (src/runtime/setup/mpi_transport.hpp), over both
// kinds of sparse exchange (probing, and routed as under SMPI): parcels arrive in their round,
// ordered by sender, and a protocol that throws on one process is an error of the same class on
// every process after the last round, never a hang; the communicator stays usable.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <thread>
#include <vector>

#include "../support/watchdog.hpp"
#include "cartcoll/error.hpp"
#include "runtime/comm/collective.hpp"
#include "runtime/comm/sparse_exchange.hpp"
#include "runtime/setup/mpi_transport.hpp"

using cartcoll::Errc;
using cartcoll::Error;
using cartcoll::detail::ExchangeKind;
using cartcoll::detail::Parcel;

namespace {

constexpr std::chrono::seconds deadline{60};
constexpr ExchangeKind kinds[] = {ExchangeKind::probing, ExchangeKind::routed};

// Every process sends {rank, round} to the next two ranks in every round and checks what it gets.
// `failing_rank` throws `failure` in round `failing_round` (on the way out if `when_sending`, else
// on the way in).
class RingProtocol : public cartcoll::detail::RoundProtocol {
 public:
  RingProtocol(int rank, int size, int failing_rank, int failing_round, bool when_sending, void (*failure)())
      : rank_(rank), size_(size), failing_rank_(failing_rank), failing_round_(failing_round),
        when_sending_(when_sending), failure_(failure) {}
  int rounds() const override { return 4; }
  std::vector<Parcel> outgoing(int round) override {
    fail_if(round, true);
    return {Parcel{(rank_ + 1) % size_, {rank_, round}}, Parcel{(rank_ + 2) % size_, {rank_, round}}};
  }
  void incoming(int round, std::vector<Parcel> parcels) override {
    fail_if(round, false);
    std::vector<Parcel> expected{Parcel{(rank_ - 1 + size_) % size_, {}}, Parcel{(rank_ - 2 + 2 * size_) % size_, {}}};
    std::sort(expected.begin(), expected.end(), [](const Parcel& a, const Parcel& b) { return a.peer < b.peer; });
    // Once the failing process has failed, it sends nothing more: the others see fewer parcels.
    if (failing_rank_ >= 0) std::erase_if(expected, [&](const Parcel& p) { return p.peer == failing_rank_; });
    const bool failing_rank_sent = failing_rank_ >= 0 && parcels.size() > expected.size();
    if (failing_rank_sent) return;  // before it failed: what it sent is checked in the healthy test
    ASSERT_EQ(parcels.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(parcels[i].peer, expected[i].peer);
      EXPECT_EQ(parcels[i].values, (std::vector<int>{expected[i].peer, round}));
    }
    ++rounds_heard;
  }
  int rounds_heard = 0;

 private:
  void fail_if(int round, bool sending) const {
    if (rank_ == failing_rank_ && round == failing_round_ && sending == when_sending_) failure_();
  }
  int rank_, size_, failing_rank_, failing_round_;
  bool when_sending_;
  void (*failure_)();
};

struct World {
  int rank = 0, size = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  World() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  }
  ~World() { MPI_Comm_free(&comm); }
};

void throw_bad_count() { throw Error(Errc::count, "a protocol's own error"); }
void throw_bad_alloc() { throw std::bad_alloc(); }

// Runs a ring protocol that fails on the last rank and returns the error this process threw.
Errc kind_thrown(const World& world, ExchangeKind exchange, bool when_sending, int failing_round, void (*failure)()) {
  RingProtocol protocol(world.rank, world.size, world.size - 1, failing_round, when_sending, failure);
  try {
    cartcoll::detail::run_over_mpi(world.comm, protocol, exchange);
  } catch (const Error& error) {
    return error.kind();
  }
  ADD_FAILURE() << "no process threw although the last rank's protocol failed";
  return Errc::arg;
}

TEST(SetupTransport, ParcelsArriveInTheirRoundOrderedBySender) {
  const support::Watchdog watchdog("ring protocol", deadline);
  const World world;
  for (ExchangeKind exchange : kinds) {
    RingProtocol protocol(world.rank, world.size, -1, 0, true, throw_bad_count);
    const auto traffic = cartcoll::detail::run_over_mpi(world.comm, protocol, exchange);
    EXPECT_EQ(protocol.rounds_heard, 4);
    EXPECT_EQ(traffic.rounds, 4);
    EXPECT_EQ(traffic.messages, 8);
  }
}

TEST(SetupTransport, AFailureOnOneProcessIsAnErrorOfItsClassEverywhere) {
  const support::Watchdog watchdog("failing ring protocols", deadline);
  const World world;
  for (ExchangeKind exchange : kinds) {
    EXPECT_EQ(kind_thrown(world, exchange, true, 1, throw_bad_count), Errc::count);
    EXPECT_EQ(kind_thrown(world, exchange, false, 0, throw_bad_count), Errc::count);
    EXPECT_EQ(kind_thrown(world, exchange, false, 3, throw_bad_alloc), Errc::no_memory);
    // The communicator is clean afterwards: a whole protocol runs over it again.
    RingProtocol protocol(world.rank, world.size, -1, 0, true, throw_bad_count);
    cartcoll::detail::run_over_mpi(world.comm, protocol, exchange);
    EXPECT_EQ(protocol.rounds_heard, 4);
  }
}

// Parcel k of process s goes to (7s + 3k) mod p (repeated peers and itself included) and holds
// k + 1 values that name s, k and its place; both kinds deliver every parcel once, a sender's
// parcels to one process in the order sent.
std::vector<Parcel> parcels_of(int sender, int size) {
  std::vector<Parcel> parcels;
  for (int k = 0; k < sender % 4 + 2; ++k) {
    std::vector<int> values;
    for (int v = 0; v <= k; ++v) values.push_back(sender * 10000 + k * 100 + v);
    parcels.push_back({(7 * sender + 3 * k) % size, values});
  }
  return parcels;
}

TEST(SetupTransport, BothExchangesDeliverEveryParcelInItsSendersOrder) {
  const support::Watchdog watchdog("sparse exchanges", deadline);
  const World world;
  std::vector<Parcel> expected;
  for (int sender = 0; sender < world.size; ++sender)
    for (Parcel& parcel : parcels_of(sender, world.size))
      if (parcel.peer == world.rank) expected.push_back({sender, std::move(parcel.values)});
  int tag = 7;  // a process may be in the next exchange while another is still in this one
  for (ExchangeKind exchange : kinds) {
    std::vector<Parcel> received =
        cartcoll::detail::sparse_exchange(world.comm, tag, parcels_of(world.rank, world.size), exchange);
    tag += 3;  // the probing exchange's barrier uses its tag + 2
    cartcoll::detail::order_by_sender(received);
    ASSERT_EQ(received.size(), expected.size()) << "exchange kind " << static_cast<int>(exchange);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(received[i].peer, expected[i].peer);
      EXPECT_EQ(received[i].values, expected[i].values);
    }
  }
}

// The barrier the exchange of every round ends with (src/runtime/comm/collective.hpp), both kinds: no process
// leaves it before the last has entered (SMPI 3.32's MPI_Ibarrier failed this). Three barriers in a
// row on one tag, each entered late by another process, stay apart.
TEST(SetupTransport, NoProcessLeavesABarrierBeforeTheLastEnters) {
  using Barrier = cartcoll::detail::NonblockingBarrier;
  const support::Watchdog watchdog("nonblocking barriers", deadline);
  const World world;
  const auto seconds_now = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
  for (Barrier::Kind kind : {Barrier::Kind::mpi, Barrier::Kind::dissemination}) {
    for (int late : {world.size - 1, 0, world.size / 2}) {
      if (world.rank == late) std::this_thread::sleep_for(std::chrono::milliseconds(30));
      const double entered = seconds_now();
      Barrier barrier(world.comm, 5, kind);
      while (!barrier.test()) std::this_thread::yield();
      const double left = seconds_now();
      double late_entered = entered;
      MPI_Bcast(&late_entered, 1, MPI_DOUBLE, late, world.comm);
      EXPECT_GE(left, late_entered) << "rank " << world.rank << " left before rank " << late << " entered";
    }
    Barrier(world.comm, 5, kind).wait();
  }
}

}  // namespace
