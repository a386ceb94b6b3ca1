// SPDX-License-Identifier: BSD-3-Clause
#include "block_buffers.hpp"

#include <algorithm>
#include <sstream>

namespace support {

const char* name(Op op) {
  static const char* names[] = {"allgather", "allgatherv", "allgatherw", "alltoall", "alltoallv", "alltoallw"};
  return names[static_cast<int>(op)];
}

const char* name(Form form) {
  static const char* names[] = {"blocking", "nonblocking", "persistent"};
  return names[static_cast<int>(form)];
}

const char* name(Variant variant) {
  static const char* names[] = {"plain", "mixed types", "zero counts"};
  return names[static_cast<int>(variant)];
}

bool gathers(Op op) { return op == Op::allgather || op == Op::allgatherv || op == Op::allgatherw; }
bool regular(Op op) { return op == Op::allgather || op == Op::alltoall; }
bool general(Op op) { return op == Op::alltoallw || op == Op::allgatherw; }
bool irregular_counts(Op op) { return op == Op::alltoallv || op == Op::alltoallw; }

TestTypes::TestTypes() {
  types_.push_back({MPI_INT, 1, 4, {0}});
  MPI_Datatype strided = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  types_.push_back({strided, 2, 12, {0, 8}});
  const int one = 1;
  const MPI_Aint minus_four = -4;
  MPI_Datatype at_minus_four = MPI_DATATYPE_NULL, shifted = MPI_DATATYPE_NULL;
  MPI_Type_create_hindexed(1, &one, &minus_four, MPI_INT, &at_minus_four);
  MPI_Type_create_resized(at_minus_four, -4, 8, &shifted);
  MPI_Type_free(&at_minus_four);
  MPI_Type_commit(&shifted);
  types_.push_back({shifted, 1, 8, {-4}});
}

TestTypes::~TestTypes() {
  for (std::size_t i = 1; i < types_.size(); ++i) MPI_Type_free(&types_[i].type);
}

std::vector<MPI_Aint> Placement::int_positions() const {
  std::vector<MPI_Aint> positions;
  for (int k = 0; k < count; ++k)
    for (MPI_Aint offset : type->int_offsets) positions.push_back(byte_displacement + k * type->extent + offset);
  return positions;
}

namespace {

std::vector<Placement> place(Op op, const std::vector<int>& ints, const std::vector<const ElementType*>& types,
                             bool is_send) {
  const auto blocks = static_cast<int>(ints.size());
  std::vector<Placement> placed(ints.size());
  for (std::size_t i = 0; i < ints.size(); ++i) placed[i] = {0, ints[i] / types[i]->ints_per_element, types[i]};
  if (regular(op) || (is_send && gathers(op))) {
    for (int b = 0; b < blocks; ++b)
      placed[static_cast<std::size_t>(b)].byte_displacement = b * placed[0].count * placed[0].type->extent;
    return placed;
  }
  MPI_Aint cursor = 0;
  for (int b = blocks - 1; b >= 0; --b) {
    Placement& block = placed[static_cast<std::size_t>(b)];
    if (general(op)) {
      block.byte_displacement = cursor + 8;
    } else {  // v: displacements count in extents of the one datatype
      block.byte_displacement = (cursor / block.type->extent + 1) * block.type->extent;
    }
    cursor = block.byte_displacement + block.count * block.type->extent;
  }
  return placed;
}

std::size_t buffer_size(const std::vector<Placement>& placed) {
  MPI_Aint end = 0;
  for (const Placement& block : placed) end = std::max(end, block.byte_displacement + block.count * block.type->extent);
  return static_cast<std::size_t>(Side::headroom + end + 16);
}

}  // namespace

Side::Side(Op op, const std::vector<int>& ints, const std::vector<const ElementType*>& types, bool is_send)
    : blocks_(place(op, ints, types, is_send)), bytes_(buffer_size(blocks_)) {
  for (const Placement& block : blocks_) {
    counts_.push_back(block.count);
    displs_.push_back(static_cast<int>(block.byte_displacement / block.type->extent));
    byte_displs_.push_back(block.byte_displacement);
    types_.push_back(block.type->type);
  }
}

void Side::write_int(std::vector<std::byte>& bytes, MPI_Aint position, std::int32_t value) {
  std::memcpy(bytes.data() + headroom + position, &value, sizeof value);
}

std::int32_t Side::read_int(const std::vector<std::byte>& bytes, MPI_Aint position) {
  std::int32_t value;
  std::memcpy(&value, bytes.data() + headroom + position, sizeof value);
  return value;
}

cartcoll::reference::Bytes Side::packed(std::size_t b) const {
  const auto positions = blocks_.at(b).int_positions();
  return packed_ints(static_cast<int>(positions.size()),
                     [&](int j) { return read_int(positions[static_cast<std::size_t>(j)]); });
}

void Side::unpack_into(std::vector<std::byte>& bytes, std::size_t b, const cartcoll::reference::Bytes& packed) const {
  const auto positions = blocks_.at(b).int_positions();
  for (std::size_t j = 0; j < positions.size(); ++j) {
    std::int32_t v;
    std::memcpy(&v, packed.data() + 4 * j, 4);
    write_int(bytes, positions[j], v);
  }
}

std::string Side::difference_from(const std::vector<std::byte>& expected) const {
  for (std::size_t k = 0; k < expected.size(); ++k) {
    if (expected[k] == bytes_[k]) continue;
    std::ostringstream out;
    out << "receive buffer byte " << static_cast<long>(k) - headroom << " is " << static_cast<int>(bytes_[k])
        << ", expected " << static_cast<int>(expected[k]);
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      const auto positions = blocks_[i].int_positions();
      for (std::size_t j = 0; j < positions.size(); ++j) {
        const auto at = static_cast<std::size_t>(headroom + positions[j]);
        if (k >= at && k < at + 4)
          out << " (block " << i << " int " << j << ": got " << read_int(positions[j]) << ", expected "
              << read_int(expected, positions[j]) << ")";
      }
    }
    return out.str();
  }
  return {};
}

std::vector<std::byte> Side::with_blocks(const std::vector<cartcoll::reference::Bytes>& packed) const {
  std::vector<std::byte> bytes = bytes_;
  for (std::size_t b = 0; b < blocks_.size(); ++b) unpack_into(bytes, b, packed.at(b));
  return bytes;
}

void CaseBuffers::fill_sides(int generation) {
  std::fill(send_->bytes().begin(), send_->bytes().end(), std::byte{0x5a});
  std::vector<std::byte>& sentinel = recv_->bytes();
  for (std::size_t k = 0; k < sentinel.size(); ++k)
    sentinel[k] = static_cast<std::byte>((0xa5 ^ (rank_ * 17 + static_cast<int>(k) * 31 + generation)) & 0xff);
  for (std::size_t b = 0; b < send_->blocks().size(); ++b) {
    const auto positions = send_->blocks()[b].int_positions();
    for (std::size_t j = 0; j < positions.size(); ++j)
      send_->write_int(positions[j], test_value(generation, rank_, static_cast<int>(b), static_cast<int>(j)));
  }
}

std::string CaseBuffers::mismatch(std::span<const std::size_t> undefined) const {
  std::vector<std::byte> expected = expected_;
  for (const std::size_t block : undefined) recv_->unpack_into(expected, block, recv_->packed(block));
  if (std::string difference = recv_->difference_from(expected); !difference.empty()) return difference;
  if (send_->bytes() != send_copy_) return "the send buffer was modified";
  return {};
}

CallArguments CaseBuffers::arguments() {
  const MPI_Datatype stype = send_->type(MPI_INT);
  return {send_->base(),          recv_->base(),          send_->count(),        recv_->count(),
          stype,                  recv_->type(gathers(op_) ? stype : MPI_INT), send_->counts(), send_->displs(),
          recv_->counts(),        recv_->displs(),        send_->byte_displs(),  recv_->byte_displs(),
          send_->types(),         recv_->types()};
}

}  // namespace support
