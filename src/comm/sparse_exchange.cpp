#include "sparse_exchange.hpp"

#include <sched.h>

#include <optional>

#include "../exec/mpi_check.hpp"
#include "../exec/progress.hpp"
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

}  // namespace

std::vector<Parcel> sparse_exchange(MPI_Comm comm, int tag, const std::vector<Parcel>& outgoing) {
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

}  // namespace cartcoll::detail
