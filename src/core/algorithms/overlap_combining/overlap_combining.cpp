// SPDX-License-Identifier: BSD-3-Clause
// Overlap-aware message combining for alltoallw (the unified-interfaces paper by Träff, Hunold,
// Mercier and Holmes, section 3.5): where send blocks share bytes (a stencil halo's corner is in the
// corner block, the edges and the faces around it), the runtime cuts the send buffer into parts, each
// the bytes of one set of blocks (core/model/shared_sends.hpp), and this planner moves each part once
// along the allgather prefix tree of its blocks' offsets (Träff and Hunold's Cartesian Collective
// Communication, Algorithm 2), dimension by dimension as message combining does: d phases, one
// message per distinct non-zero coordinate of the phase's dimension, carrying every part's edges
// with that coordinate. A byte shared by several blocks thus crosses each tree edge once.
//
// Numbering: send block a is part a; receive block k is piece k (SharedSends::pieces), which receives
// part pieces[k].part of process R - offsets[pieces[k].block]. A part waits at a process where some
// block's target is reached there in that block's piece, and is forwarded from it; where none is, in
// a temp of the part's bytes. Repeated offsets share a leaf, whose piece is copied to the others; the
// zero offset's pieces are copies of the send block. On meshes only live parts travel (MeshReach, per
// part), and a piece whose source is missing stays untouched. No sizes travel, whatever
// CartesianView::sizes_travel says: every process plans from the same analysis, so both ends of a
// message know its parts.
#include <algorithm>
#include <numeric>
#include <optional>

#include "cartcoll/error.hpp"
#include "core/planning/allgather_tree.hpp"
#include "core/planning/forwarding.hpp"
#include "core/planning/mesh_reach.hpp"
#include "core/planning/plan.hpp"

namespace cartcoll::detail {

namespace {

// The offsets of the blocks that contain a part, in ascending block order.
Offsets offsets_of_part(const Offsets& offsets, const SharedPart& part) {
  std::vector<int> flat;
  for (int block : part.blocks) flat.insert(flat.end(), offsets[block].begin(), offsets[block].end());
  return Offsets(offsets.ndims(), std::move(flat));
}

// The dimension order for all parts (one order, so that phase k moves along one dimension
// everywhere): the one whose trees carry the fewest bytes, searched for d <= 4 and up to 4096 parts;
// Träff and Hunold's order of all offsets otherwise and on ties.
std::vector<int> choose_order(const Offsets& offsets, const SharedSends& shared) {
  std::vector<Offsets> part_offsets;
  for (const SharedPart& part : shared.parts) part_offsets.push_back(offsets_of_part(offsets, part));
  auto bytes_moved = [&](std::span<const int> order) {
    long double bytes = 0;
    for (std::size_t a = 0; a < part_offsets.size(); ++a)
      bytes += static_cast<long double>(shared.parts[a].bytes) * build_allgather_tree(part_offsets[a], order).volume();
    return bytes;
  };
  std::vector<int> best = order_by_distinct_coordinates(offsets);
  if (offsets.ndims() > 4 || shared.parts.size() > 4096) return best;
  long double least = bytes_moved(best);
  std::vector<int> order(best.size());
  std::iota(order.begin(), order.end(), 0);
  do {
    const long double bytes = bytes_moved(order);
    if (bytes < least) {
      least = bytes;
      best = order;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

// One part's route: the prefix tree of its blocks' offsets and which of its moves are live here.
struct PartRoute {
  PartRoute(const CartesianView& view, const SharedPart& part, std::span<const int> order)
      : offsets(offsets_of_part(view.offsets, part)),
        tree(build_allgather_tree(offsets, order)),
        reach(view.grid, offsets, view.coords, order) {}
  Offsets offsets;  // local offset i is block part.blocks[i]
  AllgatherTree tree;
  MeshReach reach;
};

class OverlapPlanner {
 public:
  explicit OverlapPlanner(const CartesianView& view)
      : view_(view), shared_(checked(view)), d_(view.grid.ndims()), self_(view.grid.rank_of(view.coords)) {
    const std::vector<int> order = choose_order(view.offsets, shared_);
    routes_.reserve(shared_.parts.size());
    for (const SharedPart& part : shared_.parts) routes_.emplace_back(view, part, order);
    index_pieces();
  }

  Schedule plan() {
    Schedule schedule;
    schedule.send_blocks = static_cast<int>(shared_.parts.size());
    schedule.recv_blocks = static_cast<int>(shared_.pieces.size());
    schedule.phases.resize(static_cast<std::size_t>(d_));
    for (std::size_t a = 0; a < routes_.size(); ++a) {
      storage_.emplace_back(static_cast<std::size_t>(d_) + 1);
      for (int level = 0; level <= d_; ++level)
        storage_[a][static_cast<std::size_t>(level)].resize(routes_[a].tree.levels[static_cast<std::size_t>(level)].size());
      storage_[a][0][0] = BlockRef{Buffer::send, static_cast<int>(a)};
    }
    for (int level = 0; level < d_; ++level) plan_level(level, schedule.phases[static_cast<std::size_t>(level)]);
    add_leaf_copies(schedule.phases.back());
    schedule.temps = std::move(temps_);
    return schedule;
  }

 private:
  static const SharedSends& checked(const CartesianView& view) {
    if (view.shared_sends == nullptr) throw Error(Errc::intern, "overlap-combining plans only calls whose send blocks share bytes");
    const SharedSends& shared = *view.shared_sends;
    const int t = view.offsets.count();
    auto valid = [t](int block) { return block >= 0 && block < t; };
    bool ok = static_cast<int>(shared.block_bytes.size()) == t;
    for (const SharedPart& part : shared.parts)
      ok = ok && !part.blocks.empty() && std::all_of(part.blocks.begin(), part.blocks.end(), valid);
    for (const Piece& piece : shared.pieces)
      ok = ok && valid(piece.block) && piece.part >= 0 && static_cast<std::size_t>(piece.part) < shared.parts.size();
    if (!ok) throw Error(Errc::intern, "the analysis of the send blocks does not fit the neighborhood");
    return shared;
  }

  // piece_of_[a][i]: the piece of part a in its i-th block.
  void index_pieces() {
    piece_of_.resize(shared_.parts.size());
    for (std::size_t a = 0; a < shared_.parts.size(); ++a) piece_of_[a].assign(shared_.parts[a].blocks.size(), -1);
    for (std::size_t k = 0; k < shared_.pieces.size(); ++k) {
      const Piece& piece = shared_.pieces[k];
      const auto& blocks = shared_.parts[static_cast<std::size_t>(piece.part)].blocks;
      const auto at = std::lower_bound(blocks.begin(), blocks.end(), piece.block);
      if (at == blocks.end() || *at != piece.block) throw Error(Errc::intern, "a piece of a part in a block without it");
      piece_of_[static_cast<std::size_t>(piece.part)][static_cast<std::size_t>(at - blocks.begin())] = static_cast<int>(k);
    }
    for (const auto& pieces : piece_of_)
      if (std::count(pieces.begin(), pieces.end(), -1) != 0) throw Error(Errc::intern, "a part lacks a piece");
  }

  int piece(std::size_t a, int member) const { return piece_of_[a][static_cast<std::size_t>(member)]; }

  // Where part a waits once it has arrived at node `node` of level `level` (over a non-zero edge):
  // in the piece of the block whose target this process is, if one is (the node's chain of zero
  // coordinates reaches a leaf), else in a new temp.
  BlockRef arrival(std::size_t a, int level, int node) {
    const AllgatherTree& tree = routes_[a].tree;
    for (; level < d_; ++level) {
      const auto& children = tree.levels[static_cast<std::size_t>(level)][static_cast<std::size_t>(node)].children;
      const auto& below = tree.levels[static_cast<std::size_t>(level) + 1];
      const auto zero = std::find_if(children.begin(), children.end(),
                                     [&](int child) { return below[static_cast<std::size_t>(child)].value == 0; });
      if (zero == children.end()) {
        temps_.push_back({Buffer::send, static_cast<int>(a), shared_.parts[a].bytes});
        return {Buffer::temp, static_cast<int>(temps_.size()) - 1};
      }
      node = *zero;
    }
    return {Buffer::recv, piece(a, tree.levels.back()[static_cast<std::size_t>(node)].members.front())};
  }

  BlockRef stored(std::size_t a, int level, int node) const {
    const auto& at = storage_[a][static_cast<std::size_t>(level)][static_cast<std::size_t>(node)];
    if (!at) throw Error(Errc::intern, "overlap-combining forwards a part it never received");
    return *at;
  }

  // An edge of part a's tree with a non-zero coordinate: node -> child, from `level` to level + 1.
  struct Edge {
    std::size_t part;
    int node, child, value;
  };

  void plan_level(int level, Phase& phase) {
    const auto next = static_cast<std::size_t>(level) + 1;
    const int dim = routes_.empty() ? 0 : routes_.front().tree.order[static_cast<std::size_t>(level)];
    std::vector<Edge> edges;
    for (std::size_t a = 0; a < routes_.size(); ++a) {
      const auto& nodes = routes_[a].tree.levels[static_cast<std::size_t>(level)];
      const auto& below = routes_[a].tree.levels[next];
      for (int n = 0; n < static_cast<int>(nodes.size()); ++n)
        for (int child : nodes[static_cast<std::size_t>(n)].children) {
          const int value = below[static_cast<std::size_t>(child)].value;
          if (value == 0) storage_[a][next][static_cast<std::size_t>(child)] = storage_[a][static_cast<std::size_t>(level)][static_cast<std::size_t>(n)];
          else edges.push_back({a, n, child, value});
        }
    }
    std::vector<int> ids(edges.size());
    std::iota(ids.begin(), ids.end(), 0);
    for (const auto& [c, group] : group_by(ids, [&](int e) { return edges[static_cast<std::size_t>(e)].value; })) {
      std::vector<BlockRef> send, receive;
      for (int e : group) {
        const Edge& edge = edges[static_cast<std::size_t>(e)];
        const PartRoute& route = routes_[edge.part];
        const TreeNode& node = route.tree.levels[static_cast<std::size_t>(level)][static_cast<std::size_t>(edge.node)];
        const TreeNode& child = route.tree.levels[next][static_cast<std::size_t>(edge.child)];
        const bool origin = node.zero_chain || route.reach.prefix_back(node.representative, level);
        if (origin && any_target(route.reach, child, level)) send.push_back(stored(edge.part, level, edge.node));
        if (origin && route.reach.in_range(dim, -static_cast<long long>(c)) && any_target(route.reach, child, level + 1)) {
          const BlockRef into = arrival(edge.part, level + 1, edge.child);
          storage_[edge.part][next][static_cast<std::size_t>(edge.child)] = into;
          receive.push_back(into);
        }
      }
      add_move(phase, self_, neighbor_along(view_.grid, view_.coords, dim, c),
               neighbor_along(view_.grid, view_.coords, dim, -c), std::move(send), std::move(receive));
    }
  }

  // The leaves: a part that reached this process for several blocks with one offset, or for the zero
  // offset, waits in one piece (or the send block); the others are copies of it.
  void add_leaf_copies(Phase& last) const {
    for (std::size_t a = 0; a < routes_.size(); ++a) {
      const auto& leaves = routes_[a].tree.levels.back();
      for (std::size_t l = 0; l < leaves.size(); ++l) {
        const auto& from = storage_[a][static_cast<std::size_t>(d_)][l];
        if (!from) continue;  // its source is missing (a mesh)
        for (int member : leaves[l].members) {
          const BlockRef to{Buffer::recv, piece(a, member)};
          if (*from != to) last.copies.push_back({*from, to});
        }
      }
    }
  }

  const CartesianView& view_;
  const SharedSends& shared_;
  int d_, self_;
  std::vector<PartRoute> routes_;
  std::vector<std::vector<int>> piece_of_;
  // storage_[a][level][node]: where part a waits at that node of its tree, once it has arrived.
  std::vector<std::vector<std::vector<std::optional<BlockRef>>>> storage_;
  std::vector<TempBlock> temps_;
};

Schedule plan_overlap_combining(const CartesianView& view, Collective collective) {
  if (collective != Collective::alltoall) throw Error(Errc::arg, "overlap-combining plans alltoall only");
  return OverlapPlanner(view).plan();
}

}  // namespace

extern const PlannerEntry overlap_combining_planner{
    "overlap-combining",
    "alltoallw whose send blocks share bytes (Träff, Hunold, Mercier and Holmes, section 3.5): each part of "
    "the send buffer once along its blocks' allgather tree, d phases as combining",
    true, false, false, plan_overlap_combining, nullptr, nullptr, false, false, false, false, true};

}  // namespace cartcoll::detail
