// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One step of Mirsadeghi et al.'s (Exploiting Common Neighborhoods) friend pairing (Algorithm 2,
// after Hoepman): a distributed matching over the friendship graph in which every process proposes
// to its best friend not yet lost; two processes proposing to each other in the same round are
// paired. Friends are ranked by shared out-neighbors, ties by the lower rank, the same order from
// both ends of a friendship (the count is symmetric), so the heaviest remaining friendship is
// always mutual and pairs in its round. A paired process, or one that does not count the proposer
// among its friends, refuses proposals, so proposers move on; one still searching stays silent (it
// may propose to the proposer later). Messages per round: one proposal and the refusals of the
// previous round's proposals. A proposal carries the proposer's load (the messages its schedule
// sends so far), so that a pair knows both loads when it forms.
#include <optional>
#include <vector>

#include "core/setup/transport.hpp"

namespace cartcoll::detail {

class FriendMatching {
 public:
  // A new step: `friends` best first; `load` goes with this process's proposals.
  void begin(std::vector<int> friends, int load);
  std::vector<Parcel> outgoing();
  void incoming(const std::vector<Parcel>& parcels);
  std::optional<int> partner() const noexcept { return partner_; }
  int partner_load() const noexcept { return partner_load_; }  // the partner's, where there is one

  static constexpr int propose = 3, refuse = 4;  // a parcel's first value

 private:
  bool is_friend(int process) const;
  bool lost(int process) const;

  std::vector<int> friends_, refused_, proposers_;
  std::optional<int> target_, partner_;
  int load_ = 0, partner_load_ = 0;
};

}  // namespace cartcoll::detail
