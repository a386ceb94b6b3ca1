#pragma once
// What the forwarding planners (combining, torus) share: where a block in transit waits, and how a
// round becomes a Round or, when it would go to the process itself, local copies.
#include "allgather_tree.hpp"
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

// Some target in the subtree of `node` exists, seen `level` visited dimensions ahead of this
// process: only then does the node's block need to travel on.
inline bool any_target(const MeshReach& reach, const TreeNode& node, int level) {
  if (reach.all_periodic()) return true;
  for (int m : node.members)
    if (reach.suffix_ahead(m, level)) return true;
  return false;
}

// Allgather's last step: repeated offsets share a leaf, whose block is copied to the other slots;
// the zero offset's leaf is the send block itself. Only where this process's source exists.
inline void add_leaf_copies(Phase& last, const AllgatherTree& tree, const MeshReach& reach, int d) {
  for (const TreeNode& leaf : tree.levels.back()) {
    if (!leaf.zero_chain && !reach.prefix_back(leaf.representative, d)) continue;
    const BlockRef from = leaf.zero_chain ? BlockRef{Buffer::send, 0} : BlockRef{Buffer::recv, leaf.representative};
    for (int m : leaf.members)
      if (leaf.zero_chain || m != leaf.representative) last.copies.push_back({from, {Buffer::recv, m}});
  }
}

}  // namespace cartcoll::detail
