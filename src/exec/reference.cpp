#include "cartcoll/reference.hpp"

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

}  // namespace cartcoll::reference
