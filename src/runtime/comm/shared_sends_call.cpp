// SPDX-License-Identifier: BSD-3-Clause
#include "shared_sends_call.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "collective.hpp"
#include "runtime/exec/block_arena.hpp"
#include "runtime/exec/byte_runs.hpp"
#include "runtime/selection/policy.hpp"
#include "runtime/selection/trial.hpp"

namespace cartcoll::detail {

namespace {

// The blocks of `blocks` in the neighborhood's slot order (`order` empty: the user's order); nullopt
// where a slot has no block (a detected graph off a mesh).
std::optional<std::vector<BlockSpec>> in_slot_order(std::span<const BlockSpec> blocks, std::span<const int> order) {
  if (order.empty()) return std::vector<BlockSpec>(blocks.begin(), blocks.end());
  std::vector<BlockSpec> slots;
  for (const int block : order) {
    if (block < 0 || static_cast<std::size_t>(block) >= blocks.size()) return std::nullopt;
    slots.push_back(blocks[static_cast<std::size_t>(block)]);
  }
  return slots;
}

// Whether the memory of some two blocks (their true extents) intersects: else no byte is shared,
// and nothing needs flattening.
bool extents_meet(std::span<const BlockSpec> blocks) {
  std::vector<std::pair<MPI_Aint, MPI_Aint>> spans;
  for (const BlockSpec& block : blocks) {
    if (bytes_of(block) == 0) continue;
    const auto [first, last] = footprint(block);
    spans.emplace_back(block.address + first, block.address + last);
  }
  std::sort(spans.begin(), spans.end());
  for (std::size_t i = 1; i < spans.size(); ++i)
    if (spans[i].first < spans[i - 1].second) return true;
  return false;
}

std::int64_t bytes_in(std::span<const ByteRun> runs) {
  std::int64_t bytes = 0;
  for (const ByteRun& run : runs) bytes += run.length;
  return bytes;
}

// Blocks cut into more parts than this (datatypes of many small runs over a common region) would make
// messages of as many blocks and a plan that searches dimension orders per part: those run plain.
constexpr std::size_t most_parts = 4096;

// What this process found: its send blocks' parts, with its own send and receive blocks flattened.
struct Analysis {
  SharedSends sends;
  FlatBlocks send, recv;
};

// nullopt where this process cannot take part: no blocks in some slot, blocks whose memory does not
// meet (the common case, decided without flattening), blocks MPI packs otherwise or
// too far apart, no bytes shared or too many parts, or receive blocks that do not match the send blocks' sizes (the
// plain exchange then reports that as MPI does) or overlap (erroneous in MPI: left to the plain one).
std::optional<Analysis> analyse(const Layout& layout, const CartesianNeighborhood& c) {
  const auto send = in_slot_order(layout.send, c.send_order), recv = in_slot_order(layout.recv, c.receive_order);
  if (!send || !recv || send->size() != recv->size() || !extents_meet(*send)) return std::nullopt;
  auto send_flat = flatten(*send), recv_flat = flatten(*recv);
  if (!send_flat || !recv_flat) return std::nullopt;
  auto sends = find_shared_sends(send_flat->runs);
  if (!sends || !sends->shares() || sends->parts.size() > most_parts) return std::nullopt;
  for (std::size_t j = 0; j < recv_flat->runs.size(); ++j)
    if (bytes_in(recv_flat->runs[j]) != sends->block_bytes[j]) return std::nullopt;
  const auto receives = find_shared_sends(recv_flat->runs);
  if (!receives || receives->shares()) return std::nullopt;
  return Analysis{std::move(*sends), std::move(*send_flat), std::move(*recv_flat)};
}

// Send block a is part a, receive block k piece k, each one datatype of bytes.
SharedSendsCall lower(const Analysis& analysis, Schedule schedule, Choice choice) {
  SharedSendsCall call{std::move(schedule), Layout{}, {}, choice,  // an alltoall
                       {analysis.send.base, analysis.send.span, analysis.recv.base, analysis.recv.span}};
  for (const SharedPart& part : analysis.sends.parts) {
    call.types.push_back(bytes_type(part.runs));
    call.layout.send.push_back({analysis.send.base, 1, call.types.back().get()});
  }
  for (const Piece& piece : analysis.sends.pieces) {
    call.types.push_back(bytes_type(addresses_of(analysis.recv.runs[static_cast<std::size_t>(piece.block)], piece.stream)));
    call.layout.recv.push_back({analysis.recv.base, 1, call.types.back().get()});
  }
  return call;
}

// The digest in three pieces of 21 bits, each exact in a double.
std::array<double, 3> digest_parts(std::uint64_t digest) {
  return {static_cast<double>(digest & 0x1fffff), static_cast<double>((digest >> 21) & 0x1fffff),
          static_cast<double>(digest >> 42)};
}

}  // namespace

std::optional<SharedSendsCall> shared_sends_call(CommState& state, Algorithm requested, const Layout& layout,
                                                 const Schedule& plain) {
  const std::optional<Algorithm> planner = shared_sends_planner(state, requested, layout);
  if (!planner) return std::nullopt;
  std::optional<SharedSendsCall> call;
  // [no analysis here, digest, -digest, plain's price, the parts' price], maxima over processes.
  std::array<double, 9> values{1};
  try {  // whatever fails here only keeps this process, and so every process, from the parts
    if (const std::optional<Analysis> analysis = analyse(layout, *state.neighborhood.cartesian())) {
      const Schedule shared = state.neighborhood.plan_shared_sends(*planner, analysis->sends);
      call = lower(*analysis, shared, Choice{*planner});
      const auto digest = digest_parts(analysis->sends.digest());
      values = {0, digest[0], digest[1], digest[2], -digest[0], -digest[1], -digest[2],
                modelled_seconds(state, plain, layout), modelled_seconds(state, shared, call->layout)};
    }
  } catch (...) {
    call.reset();
    values = {1};
  }
  allreduce_max(state.library()->ready(), values);
  const bool alike = values[0] == 0 && values[1] == -values[4] && values[2] == -values[5] && values[3] == -values[6];
  if (!alike) return std::nullopt;
  std::optional<bool> measured_faster;
  if (measures_shared_sends(state, requested))
    measured_faster = second_faster_by_trial(state, plain, layout, call->schedule, call->layout, call->regions);
  const std::optional<Choice> choice =
      shared_sends_choice(state, *planner, requested, values[7], values[8], measured_faster);
  if (!choice) return std::nullopt;
  call->choice = *choice;
  return call;
}

}  // namespace cartcoll::detail
