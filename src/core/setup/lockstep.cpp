// SPDX-License-Identifier: BSD-3-Clause
#include "lockstep.hpp"

#include <algorithm>
#include <map>

#include "cartcoll/error.hpp"

namespace cartcoll::detail {

LockstepProtocols::LockstepProtocols(std::span<RoundProtocol* const> protocols)
    : protocols_(protocols.begin(), protocols.end()) {
  for (const RoundProtocol* protocol : protocols_) rounds_ = std::max(rounds_, protocol->rounds());
}

std::vector<Parcel> LockstepProtocols::outgoing(int round) {
  std::map<int, std::vector<int>> by_peer;
  for (std::size_t i = 0; i < protocols_.size(); ++i) {
    if (round >= protocols_[i]->rounds()) continue;
    for (const Parcel& parcel : protocols_[i]->outgoing(round)) {
      std::vector<int>& merged = by_peer[parcel.peer];
      merged.insert(merged.end(), {static_cast<int>(i), static_cast<int>(parcel.values.size())});
      merged.insert(merged.end(), parcel.values.begin(), parcel.values.end());
    }
  }
  std::vector<Parcel> parcels;
  for (auto& [peer, values] : by_peer) parcels.push_back({peer, std::move(values)});
  return parcels;
}

void LockstepProtocols::incoming(int round, std::vector<Parcel> parcels) {
  std::vector<std::vector<Parcel>> split(protocols_.size());
  for (const Parcel& parcel : parcels) {  // by sender: each protocol's share stays in that order
    const std::vector<int>& values = parcel.values;
    for (std::size_t at = 0; at < values.size();) {
      if (at + 2 > values.size() || values[at] < 0 || static_cast<std::size_t>(values[at]) >= split.size() ||
          values[at + 1] < 0 || at + 2 + static_cast<std::size_t>(values[at + 1]) > values.size())
        throw Error(Errc::intern, "a lockstep parcel that is not [protocol, length, values...]");
      const auto begin = values.begin() + static_cast<std::ptrdiff_t>(at + 2);
      split[static_cast<std::size_t>(values[at])].push_back({parcel.peer, {begin, begin + values[at + 1]}});
      at += 2 + static_cast<std::size_t>(values[at + 1]);
    }
  }
  for (std::size_t i = 0; i < protocols_.size(); ++i)
    if (round < protocols_[i]->rounds()) protocols_[i]->incoming(round, std::move(split[i]));
}

}  // namespace cartcoll::detail
