// SPDX-License-Identifier: BSD-3-Clause
#include "combining_setup.hpp"

#include <algorithm>
#include <map>

#include "cartcoll/error.hpp"
#include "core/setup/single_edges.hpp"

namespace cartcoll::detail {

CombiningSetup::CombiningSetup(const GraphView& view, const CombiningParameters& parameters)
    : rank_(view.rank),
      parameters_(parameters),
      active_out_(single_neighbors(view.destinations, view.rank)),
      active_in_(single_neighbors(view.sources, view.rank)),
      common_(view.rank),
      load_(static_cast<int>(std::count_if(view.destinations.begin(), view.destinations.end(),
                                           [&](int neighbor) { return neighbor != view.rank; }))) {
  validate(parameters);
}

std::vector<Parcel> CombiningSetup::outgoing(int round) {
  const int step = round / rounds_per_step(), stage = round % rounds_per_step();
  if (stage == 0) return send_lists(step);
  if (stage <= parameters_.matching_rounds) return matching_.outgoing();
  return pair_off(step);
}

void CombiningSetup::incoming(int round, std::vector<Parcel> parcels) {
  const int step = round / rounds_per_step(), stage = round % rounds_per_step();
  if (stage == 0) return receive_lists(step, std::move(parcels));
  if (stage <= parameters_.matching_rounds) return matching_.incoming(parcels);
  receive_notifications(step, parcels);
}

// The whole list first, then who left; an in-neighbor always finds itself in the list.
std::vector<Parcel> CombiningSetup::send_lists(int step) {
  std::vector<Parcel> parcels;
  if (step > 0 && left_in_.empty()) return parcels;
  std::vector<int> values = {step == 0 ? list : left};
  const std::vector<int>& names = step == 0 ? active_in_ : left_in_;
  values.insert(values.end(), names.begin(), names.end());
  for (int neighbor : active_in_) parcels.push_back({neighbor, values});
  left_in_.clear();
  return parcels;
}

void CombiningSetup::receive_lists(int step, std::vector<Parcel> parcels) {
  const int expected = step == 0 ? list : left;
  std::map<int, std::vector<int>> lists;
  for (Parcel& parcel : parcels) {
    if (parcel.values.at(0) != expected || !std::binary_search(active_out_.begin(), active_out_.end(), parcel.peer))
      throw Error(Errc::intern, "an unexpected in-neighbor list");
    if (step > 0) {
      common_.remove(parcel.peer, std::span<const int>(parcel.values).subspan(1));
      continue;
    }
    parcel.values.erase(parcel.values.begin());
    lists[parcel.peer] = std::move(parcel.values);
  }
  if (step == 0) {
    if (lists.size() != active_out_.size()) throw Error(Errc::intern, "an out-neighbor sent no in-neighbor list");
    common_.assign(std::move(lists));
  }
  matching_.begin(common_.friends(parameters_.threshold, parameters_.candidates, parameters_.node_size), load_);
}

namespace {

// How many of a pair's `shared` common out-neighbors the lower rank carries: as many as make the
// two processes' loads (messages sent) after the split equal, as near as whole neighbors allow,
// half of them (rounded up) where the loads are equal. The time of a call follows its busiest
// sender, so the busier of two friends hands the other more of what they share.
int lower_rank_carries(int shared, int lower_load, int higher_load) {
  return std::clamp((higher_load - lower_load + shared + 1) / 2, 0, shared);
}

}  // namespace

// Splits the common active out-neighbors with this step's friend, if any: hands the friend this
// process's bundles for the friend's part and tells each of those out-neighbors who carries its
// bundle now. The friend's part leaves the active out-set (the own part may stay: receive_handover).
std::vector<Parcel> CombiningSetup::pair_off(int step) {
  std::vector<Parcel> parcels;
  const auto partner = matching_.partner();
  if (!partner) return parcels;
  const std::vector<int> shared = common_.shared_with(*partner);
  const bool lower = rank_ < *partner;
  const auto first_part = static_cast<std::ptrdiff_t>(
      lower_rank_carries(static_cast<int>(shared.size()), lower ? load_ : matching_.partner_load(),
                         lower ? matching_.partner_load() : load_));
  CombiningStep paired{step, *partner, {}, {}, {}};
  paired.onloaded.assign(lower ? shared.begin() : shared.begin() + first_part, lower ? shared.begin() + first_part : shared.end());
  paired.offloaded.assign(lower ? shared.begin() + first_part : shared.begin(), lower ? shared.end() : shared.begin() + first_part);
  load_ += (paired.offloaded.empty() ? 0 : 1) - static_cast<int>(paired.offloaded.size());
  int ready = 0;  // the phase in which this process has all it hands over
  for (int neighbor : paired.offloaded) ready = std::max(ready, bundle(neighbor).phase);
  std::vector<int> handover = {bundles, ready};
  for (int neighbor : paired.offloaded) {
    const std::vector<int>& mine = bundle(neighbor).origins;
    handover.push_back(static_cast<int>(mine.size()));
    handover.insert(handover.end(), mine.begin(), mine.end());
    parcels.push_back({neighbor, {moved, *partner, ready}});
  }
  parcels.push_back({*partner, std::move(handover)});
  for (int neighbor : paired.offloaded) drop_out(neighbor);
  pattern_.steps.push_back(std::move(paired));
  return parcels;
}

// This process's bundle for an active out-neighbor: itself, then what friends handed over for it.
CombiningSetup::Bundle& CombiningSetup::bundle(int neighbor) {
  auto [at, created] = bundles_.try_emplace(neighbor);
  if (created) at->second.origins.push_back(rank_);
  return at->second;
}

void CombiningSetup::receive_notifications(int step, const std::vector<Parcel>& parcels) {
  for (const Parcel& parcel : parcels) {
    if (parcel.values.at(0) == bundles) receive_handover(step, parcel);
    else if (parcel.values.size() == 3 && parcel.values[0] == moved) receive_moved(parcel);
    else throw Error(Errc::intern, "an unexpected notification");
  }
}

// The friend's bundles for this process's part, [bundles, phase, size, origins..., size, origins...]
// in the part's order.
void CombiningSetup::receive_handover(int step, const Parcel& parcel) {
  if (pattern_.steps.empty() || pattern_.steps.back().step != step || pattern_.steps.back().partner != parcel.peer)
    throw Error(Errc::intern, "bundles from a process that is no friend in this step");
  CombiningStep& paired = pattern_.steps.back();
  const std::vector<int>& values = parcel.values;
  if (values.size() < 2 || values[1] < 0) throw Error(Errc::intern, "a malformed bundle handover");
  paired.receive_phase = values[1];
  std::size_t at = 2;
  for (int neighbor : paired.onloaded) {
    const std::size_t size = at < values.size() ? static_cast<std::size_t>(std::max(values[at], 0)) : 0;
    if (size == 0 || at + 1 + size > values.size()) throw Error(Errc::intern, "a malformed bundle handover");
    std::vector<int> origins(values.begin() + static_cast<std::ptrdiff_t>(at + 1),
                             values.begin() + static_cast<std::ptrdiff_t>(at + 1 + size));
    at += 1 + size;
    Bundle& mine = bundle(neighbor);
    mine.origins.insert(mine.origins.end(), origins.begin(), origins.end());
    mine.phase = std::max(mine.phase, paired.receive_phase + 1);
    if (!can_hand_on(mine)) drop_out(neighbor);
    paired.carried.push_back(std::move(origins));
  }
  if (at != values.size()) throw Error(Errc::intern, "a malformed bundle handover");
}

// An in-neighbor's bundle for this process goes with `carrier`'s from now on. The in-neighbor leaves
// the active in-set, and so does the carrier where its bundle can no longer be handed on.
void CombiningSetup::receive_moved(const Parcel& parcel) {
  const int from = parcel.peer, carrier = parcel.values[1], phase = parcel.values[2];
  if (!std::binary_search(active_in_.begin(), active_in_.end(), carrier) || phase < 0)
    throw Error(Errc::intern, "a bundle moved to a process that is no active in-neighbor");
  auto take = [&](int process) {
    const auto found = arrivals_.find(process);
    if (found == arrivals_.end()) return Bundle{{process}, 0};
    Bundle taken = std::move(found->second);
    arrivals_.erase(found);
    return taken;
  };
  const Bundle handed = take(from);
  Bundle carried = take(carrier);
  carried.origins.insert(carried.origins.end(), handed.origins.begin(), handed.origins.end());
  carried.phase = std::max(carried.phase, phase + 1);
  const bool carrier_stays = can_hand_on(carried);
  arrivals_[carrier] = std::move(carried);
  leave_in(from);
  if (!carrier_stays) leave_in(carrier);
}

void CombiningSetup::drop_out(int neighbor) {
  common_.drop(neighbor);
  active_out_.erase(std::lower_bound(active_out_.begin(), active_out_.end(), neighbor));
  bundles_.erase(neighbor);
}

void CombiningSetup::leave_in(int process) {
  const auto at = std::lower_bound(active_in_.begin(), active_in_.end(), process);
  if (at == active_in_.end() || *at != process) throw Error(Errc::intern, "a combined block from no active in-neighbor");
  active_in_.erase(at);
  left_in_.insert(std::lower_bound(left_in_.begin(), left_in_.end(), process), process);
}

CombiningPattern CombiningSetup::pattern() const {
  CombiningPattern result = pattern_;
  result.phases = parameters_.phases;
  for (const auto& [carrier, arrival] : arrivals_) result.arrivals.push_back({carrier, arrival.origins, arrival.phase});
  return result;
}

}  // namespace cartcoll::detail
