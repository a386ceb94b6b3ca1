// SPDX-License-Identifier: BSD-3-Clause
// Which byte each packed position comes from, learned from MPI itself: the blocks are packed out of a
// scratch copy of their memory whose bytes spell their own offsets, one byte of the offset a pass.
// This needs no walk over datatype constructors (MPI_Type_get_contents), so every datatype MPI
// accepts, with any lower bound and any order of its typemap, flattens alike.
#include "byte_runs.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "block_arena.hpp"
#include "mpi_check.hpp"

namespace cartcoll::detail {

namespace {

// The library mirrors at most this much memory, and at most this many times the blocks' own bytes.
constexpr MPI_Aint mirror_limit = MPI_Aint{1} << 30;
constexpr MPI_Aint mirror_ratio = 64;

std::vector<std::byte> pack(std::span<const std::byte> memory, MPI_Aint from, const BlockSpec& block, int bytes) {
  std::vector<std::byte> packed(static_cast<std::size_t>(bytes));
  int position = 0;
  const std::byte* origin = memory.data() + (block.address - from);
  check(MPI_Pack(origin, block.count, block.type, packed.data(), bytes, &position, MPI_COMM_SELF), "MPI_Pack");
  if (position != bytes) throw Error(Errc::intern, "MPI_Pack packed an unexpected size");
  return packed;
}

std::vector<ByteRun> runs_of(std::span<const std::int64_t> offsets) {
  std::vector<ByteRun> runs;
  for (const std::int64_t offset : offsets) {
    if (!runs.empty() && runs.back().offset + runs.back().length == offset)
      ++runs.back().length;
    else
      runs.push_back({offset, 1});
  }
  return runs;
}

// Whether packing `block` out of `memory` gives the bytes its runs name: the check that MPI's packed
// format is the bytes themselves, in typemap order.
bool packs_as_runs(std::span<const std::byte> memory, MPI_Aint from, const BlockSpec& block, int bytes,
                   std::span<const ByteRun> runs) {
  const std::vector<std::byte> packed = pack(memory, from, block, bytes);
  std::size_t at = 0;
  for (const ByteRun& run : runs)
    for (std::int64_t i = 0; i < run.length; ++i)
      if (packed[at++] != memory[static_cast<std::size_t>(run.offset + i)]) return false;
  return at == packed.size();
}

}  // namespace

std::optional<FlatBlocks> flatten(std::span<const BlockSpec> blocks) {
  MPI_Aint low = std::numeric_limits<MPI_Aint>::max(), high = std::numeric_limits<MPI_Aint>::min(), total = 0;
  std::vector<int> sizes;
  for (const BlockSpec& block : blocks) {
    int size = 0;
    check(MPI_Type_size(block.type, &size), "MPI_Type_size");
    const long long bytes = static_cast<long long>(size) * block.count;
    if (bytes > std::numeric_limits<int>::max()) return std::nullopt;
    sizes.push_back(static_cast<int>(bytes));
    total += bytes;
    if (bytes == 0) continue;
    const auto [first, last] = footprint(block);
    low = std::min(low, block.address + first);
    high = std::max(high, block.address + last);
  }
  FlatBlocks flat{low, std::vector<std::vector<ByteRun>>(blocks.size())};
  if (total == 0) return flat;
  const MPI_Aint span = high - low;
  if (span > mirror_limit || span > mirror_ratio * total + (MPI_Aint{1} << 20)) return std::nullopt;
  std::vector<std::byte> memory(static_cast<std::size_t>(span));
  std::vector<std::vector<std::int64_t>> offsets(blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) offsets[i].assign(static_cast<std::size_t>(sizes[i]), 0);
  for (int shift = 0; shift < 64 && (span - 1) >> shift != 0; shift += 8) {
    for (std::size_t at = 0; at < memory.size(); ++at) memory[at] = static_cast<std::byte>((at >> shift) & 0xff);
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (sizes[i] == 0) continue;
      const std::vector<std::byte> packed = pack(memory, low, blocks[i], sizes[i]);
      for (std::size_t k = 0; k < packed.size(); ++k)
        offsets[i][k] |= static_cast<std::int64_t>(std::to_integer<unsigned>(packed[k])) << shift;
    }
  }
  std::uint32_t state = 2463534242u;
  for (std::byte& byte : memory) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    byte = static_cast<std::byte>(state >> 24);
  }
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    flat.runs[i] = runs_of(offsets[i]);
    if (sizes[i] != 0 && !packs_as_runs(memory, low, blocks[i], sizes[i], flat.runs[i])) return std::nullopt;
  }
  return flat;
}

Datatype bytes_type(std::span<const ByteRun> runs) {
  std::vector<int> lengths;
  std::vector<MPI_Aint> displacements;
  for (const ByteRun& run : runs) {
    if (run.length > std::numeric_limits<int>::max()) throw Error(Errc::intern, "a run of bytes too long for an int");
    lengths.push_back(static_cast<int>(run.length));
    displacements.push_back(static_cast<MPI_Aint>(run.offset));
  }
  Datatype type;
  check(MPI_Type_create_hindexed(static_cast<int>(runs.size()), lengths.data(), displacements.data(), MPI_BYTE,
                                 type.out()),
        "MPI_Type_create_hindexed");
  check(MPI_Type_commit(type.out()), "MPI_Type_commit");
  return type;
}

}  // namespace cartcoll::detail
