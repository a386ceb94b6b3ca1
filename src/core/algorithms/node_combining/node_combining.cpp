// SPDX-License-Identifier: BSD-3-Clause
// Node-aware message combining on Cartesian neighborhoods (the approach of locality-aware
// aggregation): the processes of a node (ranks r with equal r / node_size) pool what they send to
// another node, so that two nodes exchange one message per direction. A block from node A to node
// B, where A sends B at least two blocks, travels in three hops:
//   phase 0: from its origin to the pair's sender, a member of A (with the origin's other blocks for
//            the nodes that sender serves, in one message); every other block goes directly, as
//            trivial sends it (within a node, self blocks as copies, and where two nodes exchange
//            only one block);
//   phase 1: from the pair's sender to the pair's receiver, a member of B: all of the pair's blocks
//            in one message;
//   phase 2: from the pair's receiver to its target (with the target's other blocks from the nodes
//            that receiver serves, in one message).
// The sender of pair (A, B) is member B mod |A| of A, its receiver member A mod |B| of B, so the
// pairs of a node spread over its members. Both ends of every message enumerate the same blocks in
// the same order: the blocks of pair (A, B) are the same set seen from A (origin s, offset i with
// s + o_i in B) and from B (target t, offset i with t - o_i in A), ordered by (origin, offset).
// Within phase 0 a process posts its message to a pair's sender before its direct blocks, and the
// sender receives in that order. Every block keeps its signature: Träff and Hunold's (Cartesian
// Collective Communication) contract gives block i the same size on every process, so temps are
// shaped like this process's own block i. Where sizes travel (a v or w call under MPI's contract,
// CartesianView::sizes_travel), the messages into a sender's or a receiver's temps carry the sizes
// of their blocks, a receiver keeps an allgather block it also receives itself in its own receive
// block (no temp is copied out), and the messages of a phase between two processes are joined into
// one, so that the one that carries sizes is the last.
#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "core/planning/forwarding.hpp"
#include "core/planning/plan.hpp"
#include "core/algorithms/graph_combining/graph_combining.hpp"
#include "core/algorithms/graph_combining/planner.hpp"

namespace cartcoll::detail {

namespace {

// Which processes share a node: consecutive blocks of node_size ranks (the last may be smaller).
class Nodes {
 public:
  Nodes(int processes, int node_size) : processes_(processes), size_(node_size > 0 ? node_size : processes) {}
  int of(int rank) const { return rank / size_; }
  int first(int node) const { return node * size_; }
  int members(int node) const { return std::min(size_, processes_ - first(node)); }
  int sender(int from, int to) const { return first(from) + to % members(from); }
  int receiver(int from, int to) const { return first(to) + from % members(to); }

 private:
  int processes_, size_;
};

// One block on its way: origin's block `offset` (its only block for allgather) for `target`.
struct Edge {
  int origin, offset, target;
  bool operator<(const Edge& other) const {
    return origin != other.origin ? origin < other.origin : offset < other.offset;
  }
};

// The blocks this process's node sends to, and receives from, each other node, in (origin, offset)
// order: all of them, pooled or not.
struct NodeEdges {
  std::map<int, std::vector<Edge>> out, in;  // by the other node
};

NodeEdges node_edges(const CartesianView& view, const Nodes& nodes, int node) {
  NodeEdges edges;
  const int t = view.offsets.count();
  for (int member = nodes.first(node); member < nodes.first(node) + nodes.members(node); ++member) {
    const Peers peers = peers_of(view.grid, view.offsets, view.grid.coords_of(member));
    for (int i = 0; i < t; ++i) {
      const auto target = peers.targets[static_cast<std::size_t>(i)];
      const auto source = peers.sources[static_cast<std::size_t>(i)];
      if (target && nodes.of(*target) != node) edges.out[nodes.of(*target)].push_back({member, i, *target});
      if (source && nodes.of(*source) != node) edges.in[nodes.of(*source)].push_back({*source, i, member});
    }
  }
  for (auto& [other, list] : edges.in) std::sort(list.begin(), list.end());
  return edges;
}

// A node pair pools its blocks where there are at least two: one block gains nothing from three hops.
bool pooled(const std::vector<Edge>& pair) { return pair.size() >= 2; }

class NodePlanner {
 public:
  NodePlanner(const CartesianView& view, Collective collective)
      : view_(view),
        allgather_(collective == Collective::allgather),
        travel_(view.sizes_travel),
        self_(view.grid.rank_of(view.coords)),
        nodes_(view.grid.size(), view.node_size),
        node_(nodes_.of(self_)),
        edges_(node_edges(view, nodes_, node_)),
        schedule_{collective, allgather_ ? 1 : view.offsets.count(), view.offsets.count(), {}, {}} {
    schedule_.phases.resize(3);
  }

  Schedule plan() && {
    to_senders();
    direct();
    between_nodes();
    to_targets();
    if (travel_) join_messages_per_peer(schedule_);
    auto empty = [](const Phase& phase) { return phase.sends.empty() && phase.recvs.empty() && phase.copies.empty(); };
    while (!schedule_.phases.empty() && empty(schedule_.phases.back())) schedule_.phases.pop_back();
    return std::move(schedule_);
  }

 private:
  using Key = std::pair<int, int>;  // origin, offset (allgather: 0)

  BlockRef own(int offset) const { return {Buffer::send, allgather_ ? 0 : offset}; }
  Key key(const Edge& edge) const { return {edge.origin, allgather_ ? 0 : edge.offset}; }
  bool pooled_with(int other_node, const std::map<int, std::vector<Edge>>& pairs) const {
    const auto pair = pairs.find(other_node);
    return pair != pairs.end() && pooled(pair->second);
  }
  BlockRef new_temp(BlockRef like) {
    schedule_.temps.push_back({like.buffer, like.block});
    return {Buffer::temp, static_cast<int>(schedule_.temps.size()) - 1};
  }
  // Appends `block` to `message`, for allgather only once (an origin's one block serves many).
  void append(Message& message, BlockRef block) const {
    if (!allgather_ || std::find(message.blocks.begin(), message.blocks.end(), block) == message.blocks.end())
      message.blocks.push_back(block);
  }
  // A pooled block always waits at its pair's sender: the messages to senders carry sizes where
  // they travel.
  Message& to_peer(std::map<int, Message>& messages, int peer) const {
    return messages.try_emplace(peer, Message{peer, {}, travel_}).first->second;
  }
  // Whether `receiver`, the receiver of `pair`, keeps some of its blocks to forward (in temps): an
  // alltoall block for another member; an allgather block of an origin it does not receive itself.
  bool forwarded_by(const std::vector<Edge>& pair, int receiver) const {
    if (!allgather_)
      return std::any_of(pair.begin(), pair.end(), [receiver](const Edge& edge) { return edge.target != receiver; });
    return std::any_of(pair.begin(), pair.end(),
                       [&](const Edge& edge) { return !own_landing(pair, edge.origin, receiver); });
  }
  // allgather: the receive block of `receiver` into which the first of its edges from `origin` in
  // `pair` lands, if any.
  static std::optional<BlockRef> own_landing(const std::vector<Edge>& pair, int origin, int receiver) {
    for (const Edge& edge : pair)
      if (edge.origin == origin && edge.target == receiver) return BlockRef{Buffer::recv, edge.offset};
    return std::nullopt;
  }

  // Phase 0, pooled blocks: this process's blocks for the nodes a sender serves, to that sender in
  // one message, in (node, offset) order; as a sender, each member's likewise, into temps.
  void to_senders() {
    std::map<int, Message> sends, recvs;  // by peer
    for (const auto& [to, pair] : edges_.out) {
      if (!pooled(pair)) continue;
      const int sender = nodes_.sender(node_, to);
      for (const Edge& edge : pair) {
        if (edge.origin == self_ && sender != self_) append(to_peer(sends, sender), own(edge.offset));
        if (sender != self_ || edge.origin == self_ || held_.count(key(edge)) != 0) continue;
        held_[key(edge)] = new_temp(own(edge.offset));
        to_peer(recvs, edge.origin).blocks.push_back(held_[key(edge)]);
      }
    }
    for (auto& [peer, message] : sends) schedule_.phases[0].sends.push_back(std::move(message));
    for (auto& [peer, message] : recvs) schedule_.phases[0].recvs.push_back(std::move(message));
  }

  // Phase 0, after the messages to senders: self blocks as copies; blocks within the node and
  // between nodes that do not pool, directly.
  void direct() {
    const Peers peers = peers_of(view_.grid, view_.offsets, view_.coords);
    Phase& phase = schedule_.phases[0];
    for (int i = 0; i < view_.offsets.count(); ++i) {
      const auto target = peers.targets[static_cast<std::size_t>(i)];
      const auto source = peers.sources[static_cast<std::size_t>(i)];
      if (target == self_) {
        phase.copies.push_back({own(i), {Buffer::recv, i}});
        continue;
      }
      if (target && !pooled_with(nodes_.of(*target), edges_.out)) phase.sends.push_back({*target, {own(i)}});
      if (source && !pooled_with(nodes_.of(*source), edges_.in)) phase.recvs.push_back({*source, {{Buffer::recv, i}}});
    }
  }

  // Phase 1: a pair's sender to its receiver, the pair's blocks in (origin, offset) order
  // (allgather: each origin once). The receiver takes its own blocks into its receive buffer and
  // the others into temps (allgather: one temp per origin, copied to its own receive blocks).
  void between_nodes() {
    Phase& phase = schedule_.phases[1];
    for (const auto& [to, pair] : edges_.out) {
      if (!pooled(pair) || nodes_.sender(node_, to) != self_) continue;
      const int receiver = nodes_.receiver(node_, to);
      Message message{receiver, {}, travel_ && forwarded_by(pair, receiver)};
      for (const Edge& edge : pair) append(message, edge.origin == self_ ? own(edge.offset) : held_.at(key(edge)));
      phase.sends.push_back(std::move(message));
    }
    for (const auto& [from, pair] : edges_.in) {
      if (!pooled(pair) || nodes_.receiver(from, node_) != self_) continue;
      Message message{nodes_.sender(from, node_), {}, travel_ && forwarded_by(pair, self_)};
      for (const Edge& edge : pair) arrived_[{edge.origin, edge.offset}] = arrive(message, edge, pair);
      phase.recvs.push_back(std::move(message));
    }
  }

  BlockRef arrive(Message& message, const Edge& edge, const std::vector<Edge>& pair) {
    const BlockRef mine{Buffer::recv, edge.offset};
    if (!allgather_) {
      const BlockRef block = edge.target == self_ ? mine : new_temp(mine);
      message.blocks.push_back(block);
      return block;
    }
    auto [at, added] = origin_temps_.try_emplace(edge.origin, BlockRef{});
    if (added) {
      const std::optional<BlockRef> landing = travel_ ? own_landing(pair, edge.origin, self_) : std::nullopt;
      at->second = landing ? *landing : new_temp(mine);
      message.blocks.push_back(at->second);
    }
    if (edge.target == self_ && at->second != mine) schedule_.phases[1].copies.push_back({at->second, mine});
    return at->second;
  }

  // Phase 2: a pair's receiver to each other member of its node, that member's blocks from the
  // nodes the receiver serves, in the member's receive-block order; the member receives likewise.
  void to_targets() {
    std::map<int, std::vector<std::pair<int, BlockRef>>> sends, recvs;  // by peer: (receive block, block)
    for (const auto& [from, pair] : edges_.in) {
      if (!pooled(pair)) continue;
      const int receiver = nodes_.receiver(from, node_);
      for (const Edge& edge : pair) {
        if (receiver == self_ && edge.target != self_)
          sends[edge.target].emplace_back(edge.offset, arrived_.at({edge.origin, edge.offset}));
        if (receiver != self_ && edge.target == self_)
          recvs[receiver].emplace_back(edge.offset, BlockRef{Buffer::recv, edge.offset});
      }
    }
    auto messages = [](std::map<int, std::vector<std::pair<int, BlockRef>>>& by_peer, std::vector<Message>& into) {
      for (auto& [peer, blocks] : by_peer) {
        std::sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        Message message{peer, {}};
        for (const auto& [offset, block] : blocks) message.blocks.push_back(block);
        into.push_back(std::move(message));
      }
    };
    messages(sends, schedule_.phases[2].sends);
    messages(recvs, schedule_.phases[2].recvs);
  }

  const CartesianView& view_;
  bool allgather_;
  bool travel_;  // CartesianView::sizes_travel
  int self_;
  Nodes nodes_;
  int node_;
  NodeEdges edges_;
  Schedule schedule_;
  std::map<Key, BlockRef> held_;                  // at a sender: the members' pooled blocks
  std::map<std::pair<int, int>, BlockRef> arrived_;  // at a receiver: where each pooled block landed
  std::map<int, BlockRef> origin_temps_;          // at a receiver, allgather: each origin's block
};

Schedule plan_node_combining(const CartesianView& view, Collective collective) {
  return NodePlanner(view, collective).plan();
}

}  // namespace

// On a graph, node-combining is graph-combining with friends on the same node only: see
// docs/graph-combining.md for why a graph's blocks cannot be pooled per node pair as above.
extern const PlannerEntry node_combining_planner{
    "node-combining",
    "node-aware: the processes of a node pool their blocks for another node, which gets one message from it "
    "(3 phases; on graphs: graph-combining's friends within a node; CARTCOLL_NODE_SIZE, else MPI_COMM_TYPE_SHARED)",
    true, true, true, plan_node_combining, plan_graph_combining, &combining_setup, true, false, true, true};

}  // namespace cartcoll::detail
