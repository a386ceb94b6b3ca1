// SPDX-License-Identifier: BSD-3-Clause
#include "shared_sends.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

#include "cartcoll/error.hpp"

namespace cartcoll {

namespace {

// A non-empty run of a block, with the stream position of its first byte.
struct BlockRun {
  std::int64_t address;
  std::int64_t length;
  std::int64_t stream;
  int block;
};

// Where a run starts or ends. Ends sort before starts at one address, so a run that begins where
// another of its block ends does not count as holding a byte twice.
struct Boundary {
  std::int64_t address;
  bool starts;
  int run;
  bool operator<(const Boundary& other) const {
    return address != other.address ? address < other.address : starts < other.starts;
  }
};

// Appends `run` to `runs`, joining it to the last one where they are adjacent.
void append_run(std::vector<ByteRun>& runs, ByteRun run) {
  if (!runs.empty() && runs.back().offset + runs.back().length == run.offset)
    runs.back().length += run.length;
  else
    runs.push_back(run);
}

// The sweep over the send buffer's elementary intervals (between consecutive run boundaries): each
// interval joins the part of its set of blocks, and each of those blocks' pieces of that part.
class Sweep {
 public:
  explicit Sweep(std::size_t blocks) : active_(blocks, -1) {}

  // Starts or ends `run` at its boundary; false where its block already holds a byte here.
  bool cross(const Boundary& boundary, const BlockRun& run) {
    int& active = active_[static_cast<std::size_t>(run.block)];
    if (!boundary.starts) {
      active = -1;
      active_blocks_.erase(std::lower_bound(active_blocks_.begin(), active_blocks_.end(), run.block));
      return true;
    }
    if (active >= 0) return false;
    active = boundary.run;
    active_blocks_.insert(std::lower_bound(active_blocks_.begin(), active_blocks_.end(), run.block), run.block);
    return true;
  }

  // The bytes [from, to) belong to exactly the blocks whose runs are active.
  void interval(std::int64_t from, std::int64_t to, std::span<const BlockRun> runs) {
    if (active_blocks_.empty() || from >= to) return;
    auto [at, added] = part_of_.try_emplace(active_blocks_, static_cast<int>(parts_.size()));
    if (added) parts_.push_back({{}, active_blocks_, 0});
    const int part = at->second;
    SharedPart& shared = parts_[static_cast<std::size_t>(part)];
    append_run(shared.runs, {from, to - from});
    shared.bytes += to - from;
    for (int block : active_blocks_) {
      const BlockRun& run = runs[static_cast<std::size_t>(active_[static_cast<std::size_t>(block)])];
      const auto key = (static_cast<std::uint64_t>(block) << 32) | static_cast<std::uint32_t>(part);
      auto [piece, fresh] = piece_of_.try_emplace(key, pieces_.size());
      if (fresh) pieces_.push_back({block, part, {}});
      append_run(pieces_[piece->second].stream, {run.stream + (from - run.address), to - from});
    }
  }

  SharedSends result(std::vector<std::int64_t> block_bytes) && {
    std::sort(pieces_.begin(), pieces_.end(), [](const Piece& a, const Piece& b) {
      return a.block != b.block ? a.block < b.block : a.part < b.part;
    });
    return {std::move(parts_), std::move(pieces_), std::move(block_bytes)};
  }

 private:
  std::vector<int> active_;         // per block: its run holding the current address, or -1
  std::vector<int> active_blocks_;  // ascending
  std::map<std::vector<int>, int> part_of_;
  std::unordered_map<std::uint64_t, std::size_t> piece_of_;  // (block, part) -> index in pieces_
  std::vector<SharedPart> parts_;   // in order of first address: the sweep meets them so
  std::vector<Piece> pieces_;
};

// FNV-1a over 64-bit words.
class Digest {
 public:
  void add(std::int64_t value) {
    auto bits = static_cast<std::uint64_t>(value);
    for (int byte = 0; byte < 8; ++byte, bits >>= 8) {
      hash_ ^= bits & 0xFFu;
      hash_ *= 0x100000001B3ULL;
    }
  }
  void add(std::span<const ByteRun> runs) {
    add(static_cast<std::int64_t>(runs.size()));
    for (const ByteRun& run : runs) {
      add(run.offset);
      add(run.length);
    }
  }
  std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xCBF29CE484222325ULL;
};

}  // namespace

bool SharedSends::shares() const {
  return std::any_of(parts.begin(), parts.end(), [](const SharedPart& part) { return part.blocks.size() > 1; });
}

std::uint64_t SharedSends::digest() const {
  Digest digest;
  digest.add(static_cast<std::int64_t>(parts.size()));
  for (const SharedPart& part : parts) {
    digest.add(part.runs);
    digest.add(static_cast<std::int64_t>(part.blocks.size()));
    for (int block : part.blocks) digest.add(block);
    digest.add(part.bytes);
  }
  digest.add(static_cast<std::int64_t>(pieces.size()));
  for (const Piece& piece : pieces) {
    digest.add(piece.block);
    digest.add(piece.part);
    digest.add(piece.stream);
  }
  digest.add(static_cast<std::int64_t>(block_bytes.size()));
  for (std::int64_t bytes : block_bytes) digest.add(bytes);
  return digest.value();
}

std::optional<SharedSends> find_shared_sends(std::span<const std::vector<ByteRun>> blocks) {
  std::vector<BlockRun> runs;
  std::vector<std::int64_t> block_bytes(blocks.size(), 0);
  for (std::size_t j = 0; j < blocks.size(); ++j)
    for (const ByteRun& run : blocks[j]) {
      if (run.length < 0) return std::nullopt;
      if (run.length > 0) runs.push_back({run.offset, run.length, block_bytes[j], static_cast<int>(j)});
      block_bytes[j] += run.length;
    }
  std::vector<Boundary> boundaries;
  boundaries.reserve(2 * runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) {
    boundaries.push_back({runs[r].address, true, static_cast<int>(r)});
    boundaries.push_back({runs[r].address + runs[r].length, false, static_cast<int>(r)});
  }
  std::sort(boundaries.begin(), boundaries.end());
  Sweep sweep(blocks.size());
  for (std::size_t b = 0; b < boundaries.size(); ++b) {
    if (b > 0) sweep.interval(boundaries[b - 1].address, boundaries[b].address, runs);
    if (!sweep.cross(boundaries[b], runs[static_cast<std::size_t>(boundaries[b].run)])) return std::nullopt;
  }
  return std::move(sweep).result(std::move(block_bytes));
}

std::vector<ByteRun> addresses_of(std::span<const ByteRun> block_runs, std::span<const ByteRun> stream) {
  std::vector<std::int64_t> starts;  // stream position of each of block_runs
  starts.reserve(block_runs.size());
  std::int64_t position = 0;
  for (const ByteRun& run : block_runs) {
    starts.push_back(position);
    position += run.length;
  }
  std::vector<ByteRun> addresses;
  for (ByteRun wanted : stream) {
    if (wanted.offset < 0 || wanted.length < 0 || wanted.offset + wanted.length > position)
      throw Error(Errc::intern, "stream positions " + std::to_string(wanted.offset) + " + " +
                                    std::to_string(wanted.length) + " lie outside a block of " +
                                    std::to_string(position) + " bytes");
    // The last run starting at or before the wanted position; it holds it, empty runs never do.
    auto r = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), wanted.offset) - starts.begin());
    while (wanted.length > 0) {
      while (starts[r - 1] + block_runs[r - 1].length <= wanted.offset) ++r;  // offset < position: some run holds it
      const ByteRun& run = block_runs[r - 1];
      const std::int64_t skip = wanted.offset - starts[r - 1];
      const std::int64_t take = std::min(wanted.length, run.length - skip);
      append_run(addresses, {run.offset + skip, take});
      wanted.offset += take;
      wanted.length -= take;
    }
  }
  return addresses;
}

}  // namespace cartcoll
