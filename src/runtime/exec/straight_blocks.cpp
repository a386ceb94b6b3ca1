// SPDX-License-Identifier: BSD-3-Clause
#include "straight_blocks.hpp"

#include <algorithm>
#include <numeric>

#include "address.hpp"
#include "mpi_check.hpp"

namespace cartcoll::detail {

void StraightBlocks::add_send(const BlockSpec& block, int index, int peer) { sends_.push_back({block, index, peer}); }

int StraightBlocks::expect(const BlockSpec& block, int index, int peer, bool above_gate) {
  receives_.push_back({block, index, peer, above_gate});
  return static_cast<int>(receives_.size() - 1);
}

void StraightBlocks::seal() {
  const auto by_peer_and_block = [](const Block& a, const Block& b) {
    return a.peer != b.peer ? a.peer < b.peer : a.index < b.index;
  };
  std::stable_sort(sends_.begin(), sends_.end(), by_peer_and_block);
  std::vector<std::size_t> order(receives_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return by_peer_and_block(receives_[a], receives_[b]); });
  std::vector<Block> sorted;
  sorted.reserve(receives_.size());
  position_.assign(receives_.size(), 0);
  for (std::size_t place = 0; place < order.size(); ++place) {
    position_[order[place]] = place;
    sorted.push_back(receives_[order[place]]);
  }
  receives_ = std::move(sorted);
  runs_.clear();
  for (std::size_t at = 0; at < receives_.size(); ++at)
    if (runs_.empty() || receives_[at].peer != receives_[runs_.back().begin].peer) runs_.push_back({at, at + 1, at});
    else runs_.back().end = at + 1;
  for (const Run& run : runs_)  // early only where the block is the pair's one
    if (run.end - run.begin > 1)
      for (std::size_t at = run.begin; at < run.end; ++at) receives_[at].early = false;
  fates_.assign(receives_.size(), Fate::unknown);
  early_.assign(receives_.size(), MPI_REQUEST_NULL);
}

void StraightBlocks::restart() {
  std::fill(fates_.begin(), fates_.end(), Fate::unknown);
  for (Run& run : runs_) run.next = run.begin;
}

namespace {

MPI_Request posted(const BlockSpec& block, int peer, int tag, MPI_Comm comm, bool send) {
  MPI_Request request = MPI_REQUEST_NULL;
  if (send) check(MPI_Isend(pointer_of(block.address), block.count, block.type, peer, tag, comm, &request), "MPI_Isend");
  else check(MPI_Irecv(pointer_of(block.address), block.count, block.type, peer, tag, comm, &request), "MPI_Irecv");
  return request;
}

}  // namespace

void StraightBlocks::post_early_receives(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests) {
  for (std::size_t at = 0; at < receives_.size(); ++at)
    if (receives_[at].early) early_[at] = requests.emplace_back(posted(receives_[at].block, receives_[at].peer, tag, comm, false));
}

void StraightBlocks::post_sends(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests) {
  for (const Block& send : sends_) requests.push_back(posted(send.block, send.peer, tag, comm, true));
}

void StraightBlocks::learned(int handle, bool absent) {
  const std::size_t at = position_.at(static_cast<std::size_t>(handle));
  fates_.at(at) = absent ? Fate::absent : Fate::delivered;
  // Delivered after all (the sender's count is not above the gate): nothing will match the early
  // receive, which the engine then completes as cancelled.
  if (!absent && early_[at] != MPI_REQUEST_NULL) check(MPI_Cancel(&early_[at]), "MPI_Cancel");
  early_[at] = MPI_REQUEST_NULL;
}

void StraightBlocks::post_receives(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests) {
  for (Run& run : runs_)
    for (; run.next < run.end && fates_[run.next] != Fate::unknown; ++run.next)
      if (fates_[run.next] == Fate::absent && !receives_[run.next].early)
        requests.push_back(posted(receives_[run.next].block, receives_[run.next].peer, tag, comm, false));
}

}  // namespace cartcoll::detail
