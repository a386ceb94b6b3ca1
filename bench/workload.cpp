// SPDX-License-Identifier: BSD-3-Clause
#include "workload.hpp"

#include <algorithm>
#include <cstdlib>
#include <span>
#include <utility>

namespace bench {
namespace {

long long power(long long base, int exponent) {
  long long value = 1;
  for (int k = 0; k < exponent; ++k) value *= base;
  return value;
}

// Elements of block i under the size rule (Träff and Hunold's Cartesian Collective Communication:
// m^(d - nonzero coordinates); the isomorphic-collectives paper by Träff, Carpen-Amarie, Hunold and
// Rougier: m^(d - ||C||_1), at least 1).
int block_elements(const Options& options, int i, int m) {
  if (options.graph || options.rule == SizeRule::uniform) return m;
  const int d = options.d;
  int nonzero = 0, norm1 = 0;
  for (int k = 0; k < d; ++k) {
    const int c = options.offsets[static_cast<std::size_t>(i * d + k)];
    nonzero += c != 0;
    norm1 += std::abs(c);
  }
  if (options.rule == SizeRule::nonzero_coordinates) return static_cast<int>(power(m, d - nonzero));
  return static_cast<int>(std::max(1LL, power(m, std::max(0, d - norm1))));
}

// A graph's per-edge counts (the cells an edge carries) times m elements a cell.
std::vector<int> scaled(std::vector<int> counts, int m) {
  for (int& count : counts) count *= m;
  return counts;
}

BlockSide side_of(std::vector<int> counts, MPI_Datatype type, int element_bytes, bool typed_blocks) {
  BlockSide side;
  side.counts = std::move(counts);
  long long total = 0;
  for (int count : side.counts) {
    side.displs.push_back(static_cast<int>(total));
    side.byte_displs.push_back(static_cast<MPI_Aint>(total * element_bytes));
    total += count;
  }
  side.ones.assign(side.counts.size(), 1);
  if (typed_blocks)
    for (int count : side.counts) {
      MPI_Datatype block;
      MPI_Type_contiguous(count, type, &block);
      MPI_Type_commit(&block);
      side.types.push_back(block);
    }
  side.bytes.assign(static_cast<std::size_t>(std::max(1LL, total * element_bytes)), 1);
  return side;
}

// The halo workload's sides: block i of either is offset i's subarray, one element of it.
void halo_sides(const Options& options, const HaloArray& h, BlockSide& send, BlockSide& recv) {
  const std::size_t d = static_cast<std::size_t>(options.d);
  for (std::size_t i = 0; i < options.offsets.size() / d; ++i) {
    const std::span<const int> offset(options.offsets.data() + i * d, d);
    for (auto [side, halo] : {std::pair{&send, false}, std::pair{&recv, true}}) {
      side->counts.push_back(static_cast<int>(h.block_elements(offset)));
      side->displs.push_back(0);
      MPI_Aint displacement = 0;
      side->types.push_back(h.block_type(offset, halo, displacement));
      side->byte_displs.push_back(displacement);
      side->ones.push_back(1);
    }
  }
  send.bytes.assign(1, 0);
  recv.bytes.assign(1, 0);
}

}  // namespace

long long BlockSide::elements() const {
  long long total = 0;
  for (int count : counts) total += count;
  return total;
}

Workload::Workload(const Options& options, int sources_, int destinations_, int m_)
    : op(options.op), sources(sources_), destinations(destinations_), m(m_), type(options.type) {
  MPI_Type_size(type, &element_bytes);
  if (options.halo_width > 0) {
    int p = 0, rank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    halo = halo_array(options.d, m, options.halo_width, p, rank);
    halo_sides(options, *halo, send, recv);
    halo_cells.resize(static_cast<std::size_t>(halo->cells()));
    halo->fill(halo_cells);
    return;
  }
  // alltoall and the gathers use m per block; the v and w alltoalls follow the size rule.
  const bool irregular = !gather() && op != "alltoall";
  const bool typed = op.ends_with('w');
  std::vector<int> recv_counts;
  for (int i = 0; i < sources; ++i) recv_counts.push_back(irregular ? block_elements(options, i, m) : m);
  std::vector<int> send_counts;
  for (int j = 0; j < (gather() ? 1 : destinations); ++j) send_counts.push_back(irregular ? block_elements(options, j, m) : m);
  if (!uniform_blocks(options)) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const cartcoll::graphs::ProcessCounts counts = cartcoll::graphs::counts_of(*options.graph, rank);
    send_counts = scaled(counts.out, m);
    recv_counts = scaled(counts.in, m);
  }
  send = side_of(std::move(send_counts), type, element_bytes, typed);
  recv = side_of(std::move(recv_counts), type, element_bytes, typed);
  std::fill(recv.bytes.begin(), recv.bytes.end(), 0);
  if (gather() && typed) {
    gather_ones.assign(static_cast<std::size_t>(destinations), 1);
    gather_displs.assign(static_cast<std::size_t>(destinations), 0);
    gather_types.assign(static_cast<std::size_t>(destinations), send.types.front());
  }
}

Workload::~Workload() {
  for (BlockSide* side : {&send, &recv})
    for (MPI_Datatype& block : side->types) MPI_Type_free(&block);
}

long long Workload::send_block_bytes(int i) const {
  return static_cast<long long>(send.counts[gather() ? 0 : static_cast<std::size_t>(i)]) * element_bytes;
}

long long Workload::recv_block_bytes(int i) const {
  return static_cast<long long>(recv.counts[static_cast<std::size_t>(i)]) * element_bytes;
}

long long Workload::direct_bytes() const {
  long long bytes = 0;
  for (int j = 0; j < destinations; ++j) bytes += send_block_bytes(j);
  return bytes;
}

}  // namespace bench
