// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The transport of distributed set-up algorithms (Mirsadeghi et al.'s (Exploiting Common
// Neighborhoods) pattern extraction and matching), written once as per-process round protocols and
// run by two transports: the simulated one (simulated_transport.hpp, all processes in one process)
// and MPI (mpi_transport.hpp, one process over a library communicator, a sparse exchange per
// round).
#include <vector>

namespace cartcoll::detail {

// One message: to `peer` when sent, from `peer` when received; at least one value.
struct Parcel {
  int peer;
  std::vector<int> values;
};

// A per-process protocol of rounds. Every process runs rounds() rounds (the same number on every
// process: computed from agreed values only). In round r a process sends outgoing(r), then gets
// incoming(r, ...): every parcel sent to it in round r, ordered by sender, a sender's parcels in
// sending order.
class RoundProtocol {
 public:
  virtual ~RoundProtocol() = default;
  virtual int rounds() const = 0;
  virtual std::vector<Parcel> outgoing(int round) = 0;
  virtual void incoming(int round, std::vector<Parcel> parcels) = 0;
};

// Orders received parcels as incoming() promises (a stable sort by sender).
void order_by_sender(std::vector<Parcel>& parcels);

}  // namespace cartcoll::detail
