// SPDX-License-Identifier: BSD-3-Clause
// The analysis of send blocks that share bytes (core/model/shared_sends.hpp): hand cases with their
// parts and pieces spelled out, and random block structures checked byte by byte against a brute
// force oracle.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <set>

#include "cartcoll/error.hpp"
#include "core/model/halo_layout.hpp"
#include "core/model/shared_sends.hpp"
#include "random_runs.hpp"

namespace cartcoll {
namespace {

using test::Runs;

SharedSends analysed(const std::vector<Runs>& blocks) {
  const auto found = find_shared_sends(blocks);
  EXPECT_TRUE(found.has_value());
  return found.value_or(SharedSends{});
}

// The 9-point halo of a 3 x 3 block with one ghost layer, one byte a cell: a 5 x 5 array, address
// 5 row + column. Blocks in HaloLayout order: (-1,-1) (-1,0) (-1,1) (0,-1) (0,1) (1,-1) (1,0) (1,1).
TEST(SharedSends, NinePointHaloCornersAreSharedByThreeBlocks) {
  const HaloLayout layout{2, 1, 3, 1};
  const std::vector<Runs> blocks = layout.send_runs();
  ASSERT_EQ(blocks, (std::vector<Runs>{{{6, 1}},
                                       {{6, 3}},
                                       {{8, 1}},
                                       {{6, 1}, {11, 1}, {16, 1}},
                                       {{8, 1}, {13, 1}, {18, 1}},
                                       {{16, 1}},
                                       {{16, 3}},
                                       {{18, 1}}}));
  const SharedSends shared = analysed(blocks);
  const std::vector<SharedPart> parts{{{{6, 1}}, {0, 1, 3}, 1},  {{{7, 1}}, {1}, 1},  {{{8, 1}}, {1, 2, 4}, 1},
                                      {{{11, 1}}, {3}, 1},       {{{13, 1}}, {4}, 1}, {{{16, 1}}, {3, 5, 6}, 1},
                                      {{{17, 1}}, {6}, 1},       {{{18, 1}}, {4, 6, 7}, 1}};
  EXPECT_EQ(shared.parts, parts);
  const std::vector<Piece> pieces{{0, 0, {{0, 1}}}, {1, 0, {{0, 1}}}, {1, 1, {{1, 1}}}, {1, 2, {{2, 1}}},
                                  {2, 2, {{0, 1}}}, {3, 0, {{0, 1}}}, {3, 3, {{1, 1}}}, {3, 5, {{2, 1}}},
                                  {4, 2, {{0, 1}}}, {4, 4, {{1, 1}}}, {4, 7, {{2, 1}}}, {5, 5, {{0, 1}}},
                                  {6, 5, {{0, 1}}}, {6, 6, {{1, 1}}}, {6, 7, {{2, 1}}}, {7, 7, {{0, 1}}}};
  EXPECT_EQ(shared.pieces, pieces);
  EXPECT_EQ(shared.block_bytes, (std::vector<std::int64_t>{1, 3, 1, 3, 3, 1, 3, 1}));
  EXPECT_TRUE(shared.shares());
}

TEST(SharedSends, OverlappingRunsSplitIntoThreeParts) {
  const SharedSends shared = analysed({{{0, 10}}, {{5, 10}}});
  EXPECT_EQ(shared.parts, (std::vector<SharedPart>{{{{0, 5}}, {0}, 5}, {{{5, 5}}, {0, 1}, 5}, {{{10, 5}}, {1}, 5}}));
  EXPECT_EQ(shared.pieces,
            (std::vector<Piece>{{0, 0, {{0, 5}}}, {0, 1, {{5, 5}}}, {1, 1, {{0, 5}}}, {1, 2, {{5, 5}}}}));
}

TEST(SharedSends, NegativeAddresses) {
  const SharedSends shared = analysed({{{-8, 4}}, {{-6, 4}}});
  EXPECT_EQ(shared.parts,
            (std::vector<SharedPart>{{{{-8, 2}}, {0}, 2}, {{{-6, 2}}, {0, 1}, 2}, {{{-4, 2}}, {1}, 2}}));
  EXPECT_EQ(shared.pieces,
            (std::vector<Piece>{{0, 0, {{0, 2}}}, {0, 1, {{2, 2}}}, {1, 1, {{0, 2}}}, {1, 2, {{2, 2}}}}));
}

// Block 0 packs addresses 10..11 before 0..1: a part keeps address order, its piece says where in
// the stream those bytes are.
TEST(SharedSends, AStreamThatVisitsAddressesBackwards) {
  const SharedSends shared = analysed({{{10, 2}, {0, 2}}, {{0, 4}}});
  EXPECT_EQ(shared.parts,
            (std::vector<SharedPart>{{{{0, 2}}, {0, 1}, 2}, {{{2, 2}}, {1}, 2}, {{{10, 2}}, {0}, 2}}));
  EXPECT_EQ(shared.pieces,
            (std::vector<Piece>{{0, 0, {{2, 2}}}, {0, 2, {{0, 2}}}, {1, 0, {{0, 2}}}, {1, 1, {{2, 2}}}}));
  // Adjacent runs of one block join in the part; in the stream only where the positions follow on.
  const SharedSends swapped = analysed({{{2, 2}, {0, 2}}});
  EXPECT_EQ(swapped.parts, (std::vector<SharedPart>{{{{0, 4}}, {0}, 4}}));
  EXPECT_EQ(swapped.pieces, (std::vector<Piece>{{0, 0, {{2, 2}, {0, 2}}}}));
  const SharedSends joined = analysed({{{0, 2}, {2, 2}}});
  EXPECT_EQ(joined.pieces, (std::vector<Piece>{{0, 0, {{0, 4}}}}));
}

TEST(SharedSends, ABlockHoldingAByteTwiceIsNotAnalysed) {
  EXPECT_FALSE(find_shared_sends(std::vector<Runs>{{{0, 4}, {2, 4}}}).has_value());
  EXPECT_FALSE(find_shared_sends(std::vector<Runs>{{{0, 1}}, {{5, 3}, {0, 8}}}).has_value());
  EXPECT_TRUE(find_shared_sends(std::vector<Runs>{{{0, 4}, {4, 4}}}).has_value());
  EXPECT_FALSE(find_shared_sends(std::vector<Runs>{{{0, -1}}}).has_value());
}

TEST(SharedSends, EmptyRunsAndBlocks) {
  const SharedSends shared = analysed({{{5, 0}}, {}, {{3, 0}, {1, 2}, {9, 0}}});
  EXPECT_EQ(shared.parts, (std::vector<SharedPart>{{{{1, 2}}, {2}, 2}}));
  EXPECT_EQ(shared.pieces, (std::vector<Piece>{{2, 0, {{0, 2}}}}));
  EXPECT_EQ(shared.block_bytes, (std::vector<std::int64_t>{0, 0, 2}));
  EXPECT_FALSE(shared.shares());
  EXPECT_TRUE(analysed({}).parts.empty());
}

TEST(SharedSends, DisjointBlocksAreTheirOwnParts) {
  std::mt19937_64 rng(7);
  std::vector<Runs> blocks(5);
  std::int64_t address = -40;
  for (int r = 0; r < 60; ++r) {  // increasing addresses, so each block's stream is in address order
    address += static_cast<std::int64_t>(rng() % 4);
    const std::int64_t length = 1 + static_cast<std::int64_t>(rng() % 5);
    blocks[rng() % blocks.size()].push_back({address, length});
    address += length;
  }
  const SharedSends shared = analysed(blocks);
  EXPECT_FALSE(shared.shares());
  ASSERT_EQ(shared.parts.size(), shared.pieces.size());
  for (const Piece& piece : shared.pieces) {
    const SharedPart& part = shared.parts[static_cast<std::size_t>(piece.part)];
    EXPECT_EQ(part.blocks, std::vector<int>{piece.block});
    EXPECT_EQ(piece.stream, (Runs{{0, shared.block_bytes[static_cast<std::size_t>(piece.block)]}}));
    EXPECT_EQ(addresses_of(blocks[static_cast<std::size_t>(piece.block)], piece.stream), part.runs);
  }
}

TEST(SharedSends, AddressesOfStreamPositions) {
  const Runs block{{100, 4}, {0, 0}, {10, 2}, {-20, 6}};  // stream: 100..103, 10..11, -20..-15
  EXPECT_EQ(addresses_of(block, Runs{{0, 12}}), (Runs{{100, 4}, {10, 2}, {-20, 6}}));
  EXPECT_EQ(addresses_of(block, Runs{{3, 2}}), (Runs{{103, 1}, {10, 1}}));
  EXPECT_EQ(addresses_of(block, Runs{{4, 2}, {6, 1}}), (Runs{{10, 2}, {-20, 1}}));
  EXPECT_EQ(addresses_of(block, Runs{{7, 2}, {6, 1}}), (Runs{{-19, 2}, {-20, 1}}));
  EXPECT_EQ(addresses_of(block, Runs{{2, 0}}), Runs{});
  EXPECT_THROW(addresses_of(block, Runs{{10, 3}}), Error);
  // Adjacent addresses join.
  EXPECT_EQ(addresses_of(Runs{{0, 2}, {2, 2}}, Runs{{1, 2}}), (Runs{{1, 2}}));
}

// Per address: the blocks holding it and where in their streams.
std::map<std::int64_t, std::map<int, std::int64_t>> holders_of(const std::vector<Runs>& blocks) {
  std::map<std::int64_t, std::map<int, std::int64_t>> holders;
  for (std::size_t j = 0; j < blocks.size(); ++j) {
    std::int64_t position = 0;
    for (const ByteRun& run : blocks[j])
      for (std::int64_t b = 0; b < run.length; ++b) holders[run.offset + b][static_cast<int>(j)] = position++;
  }
  return holders;
}

std::vector<std::int64_t> bytes_of(const Runs& runs) {
  std::vector<std::int64_t> bytes;
  for (const ByteRun& run : runs)
    for (std::int64_t b = 0; b < run.length; ++b) bytes.push_back(run.offset + b);
  return bytes;
}

void expect_matches_oracle(const std::vector<Runs>& blocks, const SharedSends& shared) {
  const auto holders = holders_of(blocks);
  std::map<std::vector<int>, std::vector<std::int64_t>> by_key;  // key -> addresses, ascending
  for (const auto& [address, held] : holders) {
    std::vector<int> key;
    for (const auto& entry : held) key.push_back(entry.first);
    by_key[key].push_back(address);
  }
  ASSERT_EQ(shared.parts.size(), by_key.size());
  std::int64_t previous_first = INT64_MIN;
  std::size_t pieces = 0;
  for (std::size_t a = 0; a < shared.parts.size(); ++a) {
    const SharedPart& part = shared.parts[a];
    const std::vector<std::int64_t> bytes = bytes_of(part.runs);
    ASSERT_EQ(bytes, by_key[part.blocks]) << "part " << a;
    EXPECT_EQ(part.bytes, static_cast<std::int64_t>(bytes.size()));
    EXPECT_LT(previous_first, bytes.front());
    previous_first = bytes.front();
    for (std::size_t r = 1; r < part.runs.size(); ++r)
      EXPECT_LT(part.runs[r - 1].offset + part.runs[r - 1].length, part.runs[r].offset) << "runs not joined";
    pieces += part.blocks.size();
  }
  ASSERT_EQ(shared.pieces.size(), pieces);
  for (std::size_t k = 0; k < shared.pieces.size(); ++k) {
    const Piece& piece = shared.pieces[k];
    if (k > 0) {
      EXPECT_LT(std::pair(shared.pieces[k - 1].block, shared.pieces[k - 1].part), std::pair(piece.block, piece.part));
    }
    const SharedPart& part = shared.parts[static_cast<std::size_t>(piece.part)];
    const std::vector<std::int64_t> positions = bytes_of(piece.stream), addresses = bytes_of(part.runs);
    ASSERT_EQ(positions.size(), addresses.size());
    for (std::size_t b = 0; b < positions.size(); ++b)
      ASSERT_EQ(holders.at(addresses[b]).at(piece.block), positions[b]);
    EXPECT_EQ(addresses_of(blocks[static_cast<std::size_t>(piece.block)], piece.stream), part.runs);
  }
}

TEST(SharedSends, RandomBlocksMatchTheByteByByteOracle) {
  std::mt19937_64 rng(2024);
  for (int round = 0; round < 300; ++round) {
    const std::vector<Runs> blocks = test::random_runs(rng, 1 + static_cast<int>(rng() % 7), 40);
    const auto shared = find_shared_sends(blocks);
    ASSERT_TRUE(shared.has_value()) << "round " << round;
    expect_matches_oracle(blocks, *shared);
    EXPECT_EQ(shared->digest(), find_shared_sends(blocks)->digest());
  }
}

TEST(SharedSends, DigestTellsStructuresApart) {
  const std::vector<Runs> blocks = HaloLayout{2, 2, 6, 8}.send_runs();
  const SharedSends shared = analysed(blocks);
  std::vector<Runs> moved = blocks;
  moved[3][1].offset += 8;
  std::vector<Runs> swapped = blocks;
  std::swap(swapped[0], swapped[7]);
  EXPECT_EQ(shared.digest(), analysed(blocks).digest());
  EXPECT_NE(shared.digest(), analysed(moved).digest());
  EXPECT_NE(shared.digest(), analysed(swapped).digest());
  EXPECT_NE(shared.digest(), analysed(HaloLayout{2, 2, 6, 4}.send_runs()).digest());
}

// An indexed type of 100k one-element runs interleaved with a second one, and a halo of millions
// of bytes: the sweep is O(R log R) in the runs, not in the bytes.
TEST(SharedSends, ManyRunsAndManyBytesAreFast) {
  std::vector<Runs> indexed(3);
  for (std::int64_t r = 0; r < 100000; ++r) {
    indexed[0].push_back({16 * r, 8});
    indexed[1].push_back({16 * r + 4, 8});
    if (r % 3 == 0) indexed[2].push_back({16 * r + 2, 4});
  }
  const auto start = std::chrono::steady_clock::now();
  const auto shared = find_shared_sends(indexed);
  ASSERT_TRUE(shared.has_value());
  EXPECT_EQ(shared->parts.size(), 5u);  // the blocks {0}, {0, 2}, {0, 1, 2}, {0, 1} and {1}
  const auto large = find_shared_sends(HaloLayout{3, 2, 128, 8}.send_runs());
  ASSERT_TRUE(large.has_value());
  EXPECT_EQ(large->parts.size(), 26u);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace
}  // namespace cartcoll
