// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Mirsadeghi et al.'s (Exploiting Common Neighborhoods) set-up (Algorithm 1 with Algorithm 2
// inside) as one process's round protocol. Each of `steps` steps has
//   1 list round: every process N tells its active in-neighbors who its active in-neighbors are (the
//     whole list in step 0, afterwards only who left, and nothing if nobody did);
//   `matching_rounds` rounds of friend matching (matching.hpp) among processes sharing >= Θ active
//     out-neighbors, each considering its `candidates` best friends;
//   1 notify round: a paired process splits the pair's common active out-neighbors (ascending; the
//     lower rank keeps the first part, so many that both will send equally many messages, half
//     rounded up where they send equally many now), hands its friend its bundles for the friend's
//     part (with the phase in which they will all be there), and tells each out-neighbor of that
//     part that the friend carries its bundle now, from which phase on. The friend's part leaves a
//     process's active set, and so does its own part where the bundle it now carries there could
//     not be handed on within the agreed number of phases (always with 2, Mirsadeghi et al.'s
//     combining; cumulative combining with more). At the receiver the friend that handed over
//     leaves the active in-set, and the carrier too in that case.
// Only single edges (single_edges.hpp) are active to begin with.
#include <map>

#include "core/model/graph.hpp"
#include "graph_combining.hpp"
#include "common_neighbors.hpp"
#include "matching.hpp"
#include "core/setup/transport.hpp"

namespace cartcoll::detail {

class CombiningSetup final : public RoundProtocol {
 public:
  CombiningSetup(const GraphView& view, const CombiningParameters& parameters);

  int rounds() const override { return parameters_.steps * rounds_per_step(); }
  std::vector<Parcel> outgoing(int round) override;
  void incoming(int round, std::vector<Parcel> parcels) override;

  CombiningPattern pattern() const;

  // A parcel's first value (matching's are 3 and 4).
  static constexpr int list = 1, left = 2, moved = 5, bundles = 6;

 private:
  // Origins whose blocks go together, and the first phase in which they are all there (0: only
  // the own block); by out-neighbor for the bundles this process carries, by carrier for arrivals.
  struct Bundle {
    std::vector<int> origins;
    int phase = 0;
  };

  int rounds_per_step() const { return parameters_.matching_rounds + 2; }
  std::vector<Parcel> send_lists(int step);
  void receive_lists(int step, std::vector<Parcel> parcels);
  std::vector<Parcel> pair_off(int step);
  void receive_notifications(int step, const std::vector<Parcel>& parcels);
  void receive_handover(int step, const Parcel& parcel);
  void receive_moved(const Parcel& parcel);
  void leave_in(int process);
  void drop_out(int neighbor);
  // A bundle complete in phase b can go to a friend in phase b and on to its receiver in phase b + 1.
  bool can_hand_on(const Bundle& bundle) const { return bundle.phase + 1 < parameters_.phases; }
  Bundle& bundle(int neighbor);

  int rank_;
  CombiningParameters parameters_;
  std::vector<int> active_out_, active_in_, left_in_;  // ascending; left_in_: since the last list round
  CommonNeighbors common_;
  FriendMatching matching_;
  std::map<int, Bundle> bundles_;   // by active out-neighbor, where more than this process
  std::map<int, Bundle> arrivals_;  // by in-neighbor, where more than the carrier itself
  CombiningPattern pattern_;        // its steps (the arrivals are arrivals_)
  int load_;                        // the messages this process's schedule sends so far
};

}  // namespace cartcoll::detail
