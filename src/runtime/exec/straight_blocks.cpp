// SPDX-License-Identifier: BSD-3-Clause
#include "straight_blocks.hpp"

#include <algorithm>
#include <numeric>

#include "address.hpp"
#include "mpi_check.hpp"

namespace cartcoll::detail {

void StraightBlocks::add_send(const BlockSpec& block, int index, int peer) { sends_.push_back({block, index, peer}); }

int StraightBlocks::expect(const BlockSpec& block, int index, int peer) {
  receives_.push_back({block, index, peer});
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
  fates_.assign(receives_.size(), Fate::unknown);
}

void StraightBlocks::restart() {
  std::fill(fates_.begin(), fates_.end(), Fate::unknown);
  for (Run& run : runs_) run.next = run.begin;
}

void StraightBlocks::post_sends(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests) const {
  for (const Block& send : sends_) {
    MPI_Request& request = requests.emplace_back(MPI_REQUEST_NULL);
    check(MPI_Isend(pointer_of(send.block.address), send.block.count, send.block.type, send.peer, tag, comm, &request),
          "MPI_Isend");
  }
}

void StraightBlocks::learned(int handle, bool absent) {
  fates_.at(position_.at(static_cast<std::size_t>(handle))) = absent ? Fate::absent : Fate::delivered;
}

void StraightBlocks::post_receives(MPI_Comm comm, int tag, std::vector<MPI_Request>& requests) {
  for (Run& run : runs_)
    for (; run.next < run.end && fates_[run.next] != Fate::unknown; ++run.next) {
      if (fates_[run.next] != Fate::absent) continue;
      const Block& receive = receives_[run.next];
      MPI_Request& request = requests.emplace_back(MPI_REQUEST_NULL);
      check(MPI_Irecv(pointer_of(receive.block.address), receive.block.count, receive.block.type, receive.peer, tag,
                      comm, &request),
            "MPI_Irecv");
    }
}

}  // namespace cartcoll::detail
