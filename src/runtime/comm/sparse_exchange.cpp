// SPDX-License-Identifier: BSD-3-Clause
#include "sparse_exchange.hpp"

#include <sched.h>

#include <optional>
#include <span>

#include "cartcoll/error.hpp"

#include "runtime/exec/mpi_check.hpp"
#include "runtime/progress/progress.hpp"
#include "collective.hpp"

namespace cartcoll::detail {

namespace {

// The barrier's messages, where it sends any (collective.hpp), on a tag apart from the parcels'.
constexpr int barrier_tag_offset = 2;

// Receives one parcel if one has arrived.
bool receive_one(MPI_Comm comm, int tag, std::vector<Parcel>& received) {
  int arrived = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &arrived, &status), "MPI_Iprobe");
  if (!arrived) return false;
  int count = 0;
  check(MPI_Get_count(&status, MPI_INT, &count), "MPI_Get_count");
  Parcel parcel{status.MPI_SOURCE, std::vector<int>(static_cast<std::size_t>(count))};
  check(MPI_Recv(parcel.values.data(), count, MPI_INT, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
  received.push_back(std::move(parcel));
  return true;
}

std::vector<Parcel> probing_exchange(MPI_Comm comm, int tag, const std::vector<Parcel>& outgoing) {
  std::vector<MPI_Request> sends(outgoing.size(), MPI_REQUEST_NULL);
  for (std::size_t k = 0; k < outgoing.size(); ++k)
    check(MPI_Issend(outgoing[k].values.data(), static_cast<int>(outgoing[k].values.size()), MPI_INT, outgoing[k].peer,
                     tag, comm, &sends[k]),
          "MPI_Issend");
  std::vector<Parcel> received;
  std::optional<NonblockingBarrier> barrier;
  for (bool done = false; !done;) {
    const bool got = receive_one(comm, tag, received);
    if (!barrier) {
      int all_sent = 0;
      check(MPI_Testall(static_cast<int>(sends.size()), sends.data(), &all_sent, MPI_STATUSES_IGNORE), "MPI_Testall");
      if (all_sent) barrier.emplace(comm, tag + barrier_tag_offset);
    } else {
      done = barrier->test();
    }
    if (!got && !done) {
      ProgressEngine::instance().poll();  // peers may wait for this process's outstanding operations
      sched_yield();                      // more processes than cores is common: let the others run
    }
  }
  return received;
}

// A parcel on its way: where it came from and where it goes.
struct Routed {
  int origin, destination;
  std::vector<int> values;
};

// [origin, destination, size, values...] per parcel.
void pack(const Routed& parcel, std::vector<int>& message) {
  message.insert(message.end(), {parcel.origin, parcel.destination, static_cast<int>(parcel.values.size())});
  message.insert(message.end(), parcel.values.begin(), parcel.values.end());
}

void unpack(const std::vector<int>& message, std::vector<Routed>& held) {
  for (std::size_t at = 0; at < message.size();) {
    if (at + 3 > message.size() || message[at + 2] < 0 || at + 3 + static_cast<std::size_t>(message[at + 2]) > message.size())
      throw Error(Errc::intern, "a malformed routed parcel");
    const auto begin = message.begin() + static_cast<std::ptrdiff_t>(at + 3);
    held.push_back({message[at], message[at + 1], std::vector<int>(begin, begin + message[at + 2])});
    at += 3 + static_cast<std::size_t>(message[at + 2]);
  }
}

// Receives `into` from `from` while sending `what` to `to`: the receive posted first, then a
// blocking send, then a wait (SMPI 3.32 with sends not buffered deadlocked in MPI_Sendrecv here).
void pass_on(MPI_Comm comm, int tag, std::span<int> into, int to, const std::vector<int>& what, int from) {
  MPI_Request receive = MPI_REQUEST_NULL;
  check(MPI_Irecv(into.data(), static_cast<int>(into.size()), MPI_INT, from, tag, comm, &receive), "MPI_Irecv");
  check(MPI_Send(what.data(), static_cast<int>(what.size()), MPI_INT, to, tag, comm), "MPI_Send");
  check(MPI_Wait(&receive, MPI_STATUS_IGNORE), "MPI_Wait");
}

std::vector<Parcel> routed_exchange(MPI_Comm comm, int tag, const std::vector<Parcel>& outgoing) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  std::vector<Routed> held;
  for (const Parcel& parcel : outgoing) {
    if (parcel.peer < 0 || parcel.peer >= size) throw Error(Errc::intern, "a parcel for no process of the communicator");
    held.push_back({rank, parcel.peer, parcel.values});
  }
  // A sender's parcels to one process take one route, in order: their order stays.
  for (int distance = 1; distance < size; distance *= 2) {
    std::vector<int> message;
    std::vector<Routed> kept;
    for (Routed& parcel : held) {
      if (((parcel.destination - rank + size) % size & distance) != 0) pack(parcel, message);
      else kept.push_back(std::move(parcel));
    }
    const int to = (rank + distance) % size, from = (rank - distance + size) % size;
    int receiving = 0;
    pass_on(comm, tag, std::span<int>(&receiving, 1), to, {static_cast<int>(message.size())}, from);
    std::vector<int> arrived(static_cast<std::size_t>(receiving));
    pass_on(comm, tag, arrived, to, message, from);
    held = std::move(kept);
    unpack(arrived, held);
  }
  std::vector<Parcel> received;
  for (Routed& parcel : held) received.push_back({parcel.origin, std::move(parcel.values)});
  return received;
}

}  // namespace

std::vector<Parcel> sparse_exchange(MPI_Comm comm, int tag, const std::vector<Parcel>& outgoing, ExchangeKind kind) {
  return kind == ExchangeKind::routed ? routed_exchange(comm, tag, outgoing) : probing_exchange(comm, tag, outgoing);
}

}  // namespace cartcoll::detail
