// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the forwarding planners (combining, torus) share: where a block in transit waits, the temp
// blocks that implies, and how a move becomes a send and a receive or, when it would go to the
// process itself, local copies.
#include "allgather_tree.hpp"
#include "core/model/schedule.hpp"
#include "mesh_reach.hpp"

namespace cartcoll::detail {

// Where slot i's block waits with `moves` moves still to go at this process: an even number -> the
// receive slot (so the last move lands there), or temp block t + i where this process's own source
// for slot i is missing, since that receive block must stay untouched; odd -> temp block i. Sending
// from one and receiving into the other, no phase reads and writes the same block.
// Where sizes travel (CartesianView::sizes_travel) a receive block holds nothing but the block its own
// source sends it, which may differ in size from a block in transit: those wait in temps only, odd
// -> temp block i, even -> temp block t + i, and only the last move lands in the receive slot.
inline BlockRef home(const MeshReach& reach, int t, int d, int i, int moves, bool sizes_travel = false) {
  if (moves % 2 != 0) return {Buffer::temp, i};
  if (sizes_travel) return moves == 0 ? BlockRef{Buffer::recv, i} : BlockRef{Buffer::temp, t + i};
  return reach.prefix_back(i, d) ? BlockRef{Buffer::recv, i} : BlockRef{Buffer::temp, t + i};
}

// Declares the temp blocks home() hands out: temp block s holds slot s % t's block in transit, so it
// is shaped like receive block s % t. Only as many as the schedule uses (t, or 2t on a mesh).
void declare_home_temps(Schedule& schedule);

// One move along a dimension: `send` goes to `to`, `receive` comes from `from`. Adds a send and a
// receive to `phase`, each only where it carries a block, or, where the move wraps around onto the
// process itself (a periodic dimension), the equivalent local copies.
// Where sizes travel, `forwarded_on` says whether the blocks of the send (`send`) and of the receive
// (`receive`) have moves left after this one, so that their receiver keeps them in temps: such a
// message carries sizes (Message::carries_sizes), and a move onto the process itself is a message
// to itself, since only a message that carries sizes may fill a temp.
struct Forwarded {
  bool sizes_travel = false;
  bool send = false;
  bool receive = false;
};
void add_move(Phase& phase, int self, int to, int from, std::vector<BlockRef> send, std::vector<BlockRef> receive,
              Forwarded forwarded_on = {});

// Joins the messages of each phase between the same two processes into one, their blocks in the
// order of the messages, carrying sizes where any of them did: a message that carries sizes must be
// the last between its two processes in its phase. Both ends join alike, so they still match.
void join_messages_per_peer(Schedule& schedule);

// What both allgather planners (combining, torus) build on: this process's place, the prefix tree of
// the offsets in the chosen dimension order, and which blocks are live along that order.
class TreeWalk {
 protected:
  TreeWalk(const Grid& grid, const Offsets& offsets, std::span<const int> coords, std::span<const int> order)
      : grid_(grid),
        offsets_(offsets),
        coords_(coords),
        tree_(build_allgather_tree(offsets, order)),
        reach_(grid, offsets, coords, tree_.order),
        t_(offsets.count()),
        d_(grid.ndims()) {}

  const Grid& grid_;
  const Offsets& offsets_;
  std::span<const int> coords_;
  AllgatherTree tree_;
  MeshReach reach_;
  int t_, d_;
};

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
