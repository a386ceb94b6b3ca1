// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Several round protocols of one process run as one: in each round, everything they send to one peer
// travels as one parcel. k set-ups then cost the rounds of the longest, with at most one message per
// peer a round, not k times the rounds (`auto` runs graph-combining's set-up once per phase budget:
// src/runtime/selection/at_creation.cpp).
#include <span>
#include <vector>

#include "transport.hpp"

namespace cartcoll::detail {

class LockstepProtocols final : public RoundProtocol {
 public:
  // Non-owning: the protocols must outlive this.
  explicit LockstepProtocols(std::span<RoundProtocol* const> protocols);

  int rounds() const override { return rounds_; }
  // A merged parcel is, for each protocol in order, each of its parcels to that peer in order:
  // [protocol index, number of values, values...].
  std::vector<Parcel> outgoing(int round) override;
  // Error(Errc::intern) for a parcel not in that form.
  void incoming(int round, std::vector<Parcel> parcels) override;

 private:
  std::vector<RoundProtocol*> protocols_;
  int rounds_ = 0;
};

}  // namespace cartcoll::detail
