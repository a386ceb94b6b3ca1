#include "mpi_transport.hpp"

#include "../comm/sparse_exchange.hpp"

namespace cartcoll::detail {

SetupTraffic run_over_mpi(MPI_Comm comm, RoundProtocol& protocol) {
  SetupTraffic traffic;
  const double start = MPI_Wtime();
  for (int round = 0; round < protocol.rounds(); ++round) {
    const std::vector<Parcel> parcels = protocol.outgoing(round);
    traffic.messages += static_cast<long long>(parcels.size());
    for (const Parcel& parcel : parcels) traffic.bytes += static_cast<long long>(parcel.values.size() * sizeof(int));
    // A process leaves a round's exchange when all have entered its barrier, so a peer is at most
    // one round ahead: alternating tags keep its next round's parcels out of this one.
    std::vector<Parcel> received = sparse_exchange(comm, round % 2, parcels);
    order_by_sender(received);
    protocol.incoming(round, std::move(received));
    ++traffic.rounds;
  }
  traffic.seconds = MPI_Wtime() - start;
  return traffic;
}

}  // namespace cartcoll::detail
