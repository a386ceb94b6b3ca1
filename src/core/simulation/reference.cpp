// SPDX-License-Identifier: BSD-3-Clause
#include "reference.hpp"

#include <unordered_map>
#include <stdexcept>

namespace cartcoll::reference {

// Written from the sender's side (R sends block i to R + offset i) on purpose: the planners work
// from the receiver's side too, so a shared mistake in direction cannot hide.
Blocks exchange(const Grid& grid, const Offsets& offsets, Collective collective, const Blocks& send,
                Blocks recv) {
  if (offsets.ndims() != grid.ndims()) throw std::invalid_argument("offsets and grid differ in dimension");
  for (int rank = 0; rank < grid.size(); ++rank) {
    const std::vector<int> coords = grid.coords_of(rank);
    for (int i = 0; i < offsets.count(); ++i) {
      const auto target = grid.shift(coords, offsets[i], +1);
      if (!target) continue;
      const int slot = collective == Collective::allgather ? 0 : i;
      const Bytes& block = send.at(static_cast<std::size_t>(rank)).at(static_cast<std::size_t>(slot));
      Bytes& into = recv.at(static_cast<std::size_t>(*target)).at(static_cast<std::size_t>(i));
      if (block.size() != into.size()) throw std::invalid_argument("send and receive block sizes differ");
      into = block;
    }
  }
  return recv;
}

// Written from the sender's side too, by counting occurrences; the planners read the lists from the
// receiver's side as well.
Blocks exchange(const Graph& graph, Collective collective, const Blocks& send, Blocks recv) {
  // slots[q][r]: the receive blocks of q whose source is r, in order.
  std::vector<std::unordered_map<int, std::vector<std::size_t>>> slots(static_cast<std::size_t>(graph.size()));
  for (int q = 0; q < graph.size(); ++q)
    for (std::size_t i = 0; i < graph.sources(q).size(); ++i) slots[static_cast<std::size_t>(q)][graph.sources(q)[i]].push_back(i);
  for (int rank = 0; rank < graph.size(); ++rank) {
    std::unordered_map<int, std::size_t> sent_to;  // occurrences of each destination so far
    const std::vector<int>& destinations = graph.destinations(rank);
    for (std::size_t j = 0; j < destinations.size(); ++j) {
      const int to = destinations[j];
      if (to == no_process) continue;
      const std::size_t k = sent_to[to]++;
      const auto& into_slots = slots.at(static_cast<std::size_t>(to))[rank];
      if (k >= into_slots.size()) throw std::invalid_argument("the graph is not consistent");
      const Bytes& block = send.at(static_cast<std::size_t>(rank)).at(collective == Collective::allgather ? 0 : j);
      Bytes& into = recv.at(static_cast<std::size_t>(to)).at(into_slots[k]);
      if (block.size() != into.size()) throw std::invalid_argument("send and receive block sizes differ");
      into = block;
    }
  }
  return recv;
}

namespace {

const Bytes& block_of(const std::vector<Bytes>& blocks, int index) { return blocks.at(static_cast<std::size_t>(index)); }

void assign(Bytes& into, const Bytes& block) {
  if (block.size() != into.size()) throw std::invalid_argument("send and receive block sizes differ");
  into = block;
}

// s_0 op s_1 op ... op s_(n-1) from the left, with op applied as MPI_Reduce_local applies it
// (inout = in op inout); the planners fold from the right.
void fold_into(Bytes& result, const std::vector<int>& sources, const std::vector<Bytes>& send, const ReduceOp& op) {
  bool first = true;
  Bytes accumulated;
  for (const int from : sources) {
    if (from == no_process) continue;
    const Bytes& next = block_of(send, from);
    if (first) {
      accumulated = next;
      first = false;
      continue;
    }
    Bytes right = next;
    op(accumulated, right);  // right = accumulated op next
    accumulated = std::move(right);
  }
  if (!first) assign(result, accumulated);
}

}  // namespace

std::vector<Bytes> bcast(const Graph& graph, int root, std::vector<Bytes> buffers) {
  const Bytes data = block_of(buffers, root);
  for (const int to : graph.destinations(root))
    if (to != no_process) assign(buffers.at(static_cast<std::size_t>(to)), data);
  return buffers;
}

Blocks gather(const Graph& graph, int root, const std::vector<Bytes>& send, Blocks recv) {
  const std::vector<int>& sources = graph.sources(root);
  for (std::size_t i = 0; i < sources.size(); ++i)
    if (sources[i] != no_process) assign(recv.at(static_cast<std::size_t>(root)).at(i), block_of(send, sources[i]));
  return recv;
}

// From the root's side: the k-th edge to Q fills Q's k-th block.
Blocks scatter(const Graph& graph, int root, const Blocks& send, Blocks recv) {
  std::unordered_map<int, std::size_t> sent_to;
  const std::vector<int>& destinations = graph.destinations(root);
  for (std::size_t j = 0; j < destinations.size(); ++j) {
    const int to = destinations[j];
    if (to == no_process) continue;
    const std::size_t k = sent_to[to]++;
    std::vector<Bytes>& blocks = recv.at(static_cast<std::size_t>(to));
    if (k >= blocks.size()) throw std::invalid_argument("fewer receive blocks than edges from the root");
    assign(blocks[k], send.at(static_cast<std::size_t>(root)).at(j));
  }
  return recv;
}

std::vector<Bytes> reduce(const Graph& graph, int root, const std::vector<Bytes>& send, std::vector<Bytes> recv,
                          const ReduceOp& op) {
  fold_into(recv.at(static_cast<std::size_t>(root)), graph.sources(root), send, op);
  return recv;
}

std::vector<Bytes> allreduce(const Graph& graph, const std::vector<Bytes>& send, std::vector<Bytes> recv,
                             const ReduceOp& op) {
  for (int rank = 0; rank < graph.size(); ++rank) fold_into(recv.at(static_cast<std::size_t>(rank)), graph.sources(rank), send, op);
  return recv;
}

}  // namespace cartcoll::reference
