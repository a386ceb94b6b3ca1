// SPDX-License-Identifier: BSD-3-Clause
#include "matching.hpp"

#include <algorithm>

#include "cartcoll/error.hpp"

namespace cartcoll::detail {

void FriendMatching::begin(std::vector<int> friends, int load) {
  friends_ = std::move(friends);
  load_ = load;
  refused_.clear();
  proposers_.clear();
  target_.reset();
  partner_.reset();
}

bool FriendMatching::is_friend(int process) const {
  return std::find(friends_.begin(), friends_.end(), process) != friends_.end();
}

bool FriendMatching::lost(int process) const {
  return std::find(refused_.begin(), refused_.end(), process) != refused_.end();
}

std::vector<Parcel> FriendMatching::outgoing() {
  target_.reset();
  if (!partner_)
    for (int process : friends_)
      if (!lost(process)) {
        target_ = process;
        break;
      }
  std::vector<Parcel> parcels;
  for (int proposer : proposers_)
    if (proposer != partner_ && proposer != target_ && (partner_ || !is_friend(proposer)))
      parcels.push_back({proposer, {refuse}});
  if (target_) parcels.push_back({*target_, {propose, load_}});
  proposers_.clear();
  return parcels;
}

void FriendMatching::incoming(const std::vector<Parcel>& parcels) {
  for (const Parcel& parcel : parcels) {
    if (parcel.values.at(0) == propose) {
      proposers_.push_back(parcel.peer);
      if (target_ == parcel.peer) {
        partner_ = parcel.peer;
        partner_load_ = parcel.values.at(1);
      }
    } else if (parcel.values.at(0) == refuse) {
      refused_.push_back(parcel.peer);
    } else {
      throw Error(Errc::intern, "an unexpected parcel during friend matching");
    }
  }
}

}  // namespace cartcoll::detail
