// SPDX-License-Identifier: BSD-3-Clause
#include "mpi_transport.hpp"

#include <new>
#include <optional>

#include "runtime/comm/collective.hpp"

namespace cartcoll::detail {

namespace {

// The error a protocol step threw, as the library's own: its class is what every process reports.
Error as_library_error(std::exception_ptr thrown) {
  try {
    std::rethrow_exception(thrown);
  } catch (const Error& error) {
    return error;
  } catch (const std::bad_alloc&) {
    return Error(Errc::no_memory, "out of memory in a set-up protocol");
  } catch (const std::exception& error) {
    return Error(Errc::intern, error.what());
  }
}

}  // namespace

SetupTraffic run_over_mpi(MPI_Comm comm, RoundProtocol& protocol, ExchangeKind kind) {
  SetupTraffic traffic;
  std::optional<Error> failure;
  const double start = MPI_Wtime();
  for (int round = 0; round < protocol.rounds(); ++round) {
    // A process whose protocol failed goes on taking part in every round's exchange, sending
    // nothing, so the others finish theirs; then all of them throw (agree below), none hangs.
    std::vector<Parcel> parcels;
    if (!failure) try {
        parcels = protocol.outgoing(round);
      } catch (...) {
        failure = as_library_error(std::current_exception());
      }
    traffic.messages += static_cast<long long>(parcels.size());
    for (const Parcel& parcel : parcels) traffic.bytes += static_cast<long long>(parcel.values.size() * sizeof(int));
    // A process leaves a round's exchange when all have entered its barrier, so a peer is at most
    // one round ahead: alternating tags keep its next round's parcels out of this one.
    std::vector<Parcel> received = sparse_exchange(comm, round % 2, parcels, kind);
    order_by_sender(received);
    if (!failure) try {
        protocol.incoming(round, std::move(received));
      } catch (...) {
        failure = as_library_error(std::current_exception());
      }
    ++traffic.rounds;
  }
  agree(comm, failure, {}, std::span<const Error>{});
  traffic.seconds = MPI_Wtime() - start;
  return traffic;
}

}  // namespace cartcoll::detail
