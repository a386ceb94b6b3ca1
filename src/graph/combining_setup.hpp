#pragma once
// 003's set-up (Algorithm 1 with Algorithm 2 inside) as one process's round protocol. Each of
// `steps` steps has
//   1 list round: every process N tells its active in-neighbors who its active in-neighbors are (the
//     whole list in step 0, afterwards only who left, and nothing if nobody did);
//   `matching_rounds` rounds of friend matching (matching.hpp) among processes sharing >= Θ active
//     out-neighbors, each considering its `candidates` best friends;
//   1 notify round: a paired process splits the pair's common active out-neighbors (ascending; the
//     lower rank keeps the first half, rounded up) and tells each one it keeps that it carries the
//     friend's block too; these out-neighbors leave both processes' active sets, and carrier and
//     friend leave the receiver's active in-neighbors.
// Only single edges (single_edges.hpp) are active to begin with.
#include "cartcoll/graph.hpp"
#include "cartcoll/graph_combining.hpp"
#include "common_neighbors.hpp"
#include "matching.hpp"
#include "transport.hpp"

namespace cartcoll::detail {

class CombiningSetup final : public RoundProtocol {
 public:
  CombiningSetup(const GraphView& view, const CombiningParameters& parameters);

  int rounds() const override { return parameters_.steps * rounds_per_step(); }
  std::vector<Parcel> outgoing(int round) override;
  void incoming(int round, std::vector<Parcel> parcels) override;

  const CombiningPattern& pattern() const noexcept { return pattern_; }

  static constexpr int list = 1, left = 2, carries = 5;  // a parcel's first value (matching's are 3, 4)

 private:
  int rounds_per_step() const { return parameters_.matching_rounds + 2; }
  std::vector<Parcel> send_lists(int step);
  void receive_lists(int step, std::vector<Parcel> parcels);
  std::vector<Parcel> pair_off(int step);
  void receive_carried(const std::vector<Parcel>& parcels);

  int rank_;
  CombiningParameters parameters_;
  std::vector<int> active_out_, active_in_, left_in_;  // ascending; left_in_: since the last list round
  CommonNeighbors common_;
  FriendMatching matching_;
  CombiningPattern pattern_;
};

}  // namespace cartcoll::detail
