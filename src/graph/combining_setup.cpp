#include "combining_setup.hpp"

#include <algorithm>
#include <map>

#include "cartcoll/error.hpp"
#include "single_edges.hpp"

namespace cartcoll::detail {

CombiningSetup::CombiningSetup(const GraphView& view, const CombiningParameters& parameters)
    : rank_(view.rank),
      parameters_(parameters),
      active_out_(single_neighbors(view.destinations, view.rank)),
      active_in_(single_neighbors(view.sources, view.rank)),
      common_(view.rank) {
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
  receive_carried(parcels);
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
  matching_.begin(common_.friends(parameters_.threshold, parameters_.candidates));
}

// Splits the common out-neighbors with this step's friend, if any, and tells the kept ones.
std::vector<Parcel> CombiningSetup::pair_off(int step) {
  std::vector<Parcel> parcels;
  const auto partner = matching_.partner();
  if (!partner) return parcels;
  const std::vector<int> shared = common_.shared_with(*partner);
  const auto first_half = static_cast<std::ptrdiff_t>((shared.size() + 1) / 2);
  const bool lower = rank_ < *partner;
  CombiningStep paired{step, *partner, {}, {}};
  paired.onloaded.assign(lower ? shared.begin() : shared.begin() + first_half, lower ? shared.begin() + first_half : shared.end());
  paired.offloaded.assign(lower ? shared.begin() + first_half : shared.begin(), lower ? shared.end() : shared.begin() + first_half);
  for (int neighbor : shared) {
    common_.drop(neighbor);
    active_out_.erase(std::lower_bound(active_out_.begin(), active_out_.end(), neighbor));
  }
  for (int neighbor : paired.onloaded) parcels.push_back({neighbor, {carries, *partner}});
  pattern_.steps.push_back(std::move(paired));
  return parcels;
}

void CombiningSetup::receive_carried(const std::vector<Parcel>& parcels) {
  for (const Parcel& parcel : parcels) {
    if (parcel.values.size() != 2 || parcel.values[0] != carries) throw Error(Errc::intern, "an unexpected notification");
    const int carrier = parcel.peer, partner = parcel.values[1];
    for (int gone : {carrier, partner}) {
      const auto at = std::lower_bound(active_in_.begin(), active_in_.end(), gone);
      if (at == active_in_.end() || *at != gone) throw Error(Errc::intern, "a combined block from no active in-neighbor");
      active_in_.erase(at);
      left_in_.insert(std::lower_bound(left_in_.begin(), left_in_.end(), gone), gone);
    }
    pattern_.arrivals.push_back({carrier, partner});
  }
}

}  // namespace cartcoll::detail
