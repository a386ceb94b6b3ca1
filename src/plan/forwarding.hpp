#pragma once
// What the forwarding planners (combining, torus) share: where a block in transit waits, and how a
// round becomes a Round or, when it would go to the process itself, local copies.
#include "cartcoll/schedule.hpp"
#include "mesh_reach.hpp"

namespace cartcoll::detail {

// Where slot i's block waits with `moves` moves still to go at this process: an even number -> the
// receive slot (so the last move lands there), or temp slot t + i where this process's own source
// for slot i is missing, since that receive block must stay untouched; odd -> temp slot i. Sending
// from one and receiving into the other, no phase reads and writes the same slot.
inline BlockRef home(const MeshReach& reach, int t, int d, int i, int moves) {
  if (moves % 2 != 0) return {Buffer::temp, i};
  return reach.prefix_back(i, d) ? BlockRef{Buffer::recv, i} : BlockRef{Buffer::temp, t + i};
}

// Adds one round to `phase`, or, where the peer is the process itself (a periodic dimension the
// move wraps around), the equivalent local copies; a round with nothing live to carry is dropped.
inline void add_round(Phase& phase, int self, int to, int from, Transfer send, Transfer recv) {
  if (to == self) {
    for (std::size_t j = 0; j < send.blocks.size() && j < recv.blocks.size(); ++j)
      phase.copies.push_back({send.blocks[j], recv.blocks[j]});
    return;
  }
  if (send.blocks.empty() && recv.blocks.empty()) return;
  send.peer = send.blocks.empty() ? no_peer : to;
  recv.peer = recv.blocks.empty() ? no_peer : from;
  phase.rounds.push_back({std::move(send), std::move(recv)});
}

}  // namespace cartcoll::detail
