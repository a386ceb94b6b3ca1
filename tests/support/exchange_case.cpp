#include "exchange_case.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "cartcoll/reference.hpp"

namespace support {

const char* name(Op op) {
  static const char* names[] = {"allgather", "allgatherv", "allgatherw", "alltoall", "alltoallv", "alltoallw"};
  return names[static_cast<int>(op)];
}

const char* name(Form form) {
  static const char* names[] = {"blocking", "nonblocking", "persistent"};
  return names[static_cast<int>(form)];
}

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

constexpr MPI_Aint headroom = 64;  // room below the base pointer for negative lower bounds

bool regular(Op op) { return op == Op::allgather || op == Op::alltoall; }
bool irregular_counts(Op op) { return op == Op::alltoallv || op == Op::alltoallw; }
bool general(Op op) { return op == Op::alltoallw || op == Op::allgatherw; }
bool gathers(Op op) { return op == Op::allgather || op == Op::allgatherv || op == Op::allgatherw; }

int block_ints(Op op, Variant variant, int block) {
  if (variant == Variant::zero_counts) return 0;
  return irregular_counts(op) ? 2 * ((block * 7 + 3) % 3) : 4;
}

// Regular blocks sit back to back; v and w blocks in reverse order with a gap after each, so that a
// write into the wrong place or past a block shows.
std::vector<Placement> place(Op op, int blocks, const std::vector<int>& ints, const std::vector<const ElementType*>& types,
                             bool is_send) {
  std::vector<Placement> placed(static_cast<std::size_t>(blocks));
  MPI_Aint cursor = 0;
  for (int b = 0; b < blocks; ++b) {
    const auto i = static_cast<std::size_t>(b);
    placed[i] = {0, ints[i] / types[i]->ints_per_element, types[i]};
  }
  if (regular(op) || (is_send && gathers(op))) {
    for (int b = 0; b < blocks; ++b) placed[static_cast<std::size_t>(b)].byte_displacement = b * placed[0].count * placed[0].type->extent;
    return placed;
  }
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
  return static_cast<std::size_t>(headroom + end + 16);
}

void write_int(std::vector<std::byte>& bytes, MPI_Aint position, std::int32_t value) {
  std::memcpy(bytes.data() + headroom + position, &value, sizeof value);
}

std::int32_t read_int(const std::vector<std::byte>& bytes, MPI_Aint position) {
  std::int32_t value;
  std::memcpy(&value, bytes.data() + headroom + position, sizeof value);
  return value;
}

}  // namespace

ExchangeCase::ExchangeCase(Op op, Variant variant, const TestTypes& types, const cartcoll::Grid& grid,
                           const cartcoll::Offsets& offsets, int rank)
    : op_(op), variant_(variant), grid_(grid), offsets_(offsets), rank_(rank) {
  const int t = offsets.count();
  const int send_blocks = gathers(op) ? 1 : t;
  const bool mixed = variant == Variant::mixed_types;
  std::vector<int> send_ints, recv_ints;
  std::vector<const ElementType*> send_types, recv_types;
  for (int i = 0; i < t; ++i) {
    recv_ints.push_back(block_ints(op, variant, i));
    recv_types.push_back(!mixed ? &types.contiguous() : general(op) ? &types.at(i + 1) : &types.strided());
  }
  for (int i = 0; i < send_blocks; ++i) {
    send_ints.push_back(block_ints(op, variant, i));
    send_types.push_back(!mixed ? &types.contiguous() : op == Op::alltoallw ? &types.at(i) : &types.shifted());
  }
  send_ = place(op, send_blocks, send_ints, send_types, true);
  recv_ = place(op, t, recv_ints, recv_types, false);
  for (const Placement& block : send_) {
    send_counts_.push_back(block.count);
    send_displs_.push_back(static_cast<int>(block.byte_displacement / block.type->extent));
    send_bytes_displs_.push_back(block.byte_displacement);
    send_types_.push_back(block.type->type);
  }
  for (const Placement& block : recv_) {
    recv_counts_.push_back(block.count);
    recv_displs_.push_back(static_cast<int>(block.byte_displacement / block.type->extent));
    recv_bytes_displs_.push_back(block.byte_displacement);
    recv_types_.push_back(block.type->type);
  }
  send_bytes_.resize(buffer_size(send_));
  recv_bytes_.resize(t == 0 ? static_cast<std::size_t>(headroom) : buffer_size(recv_));
}

std::int32_t ExchangeCase::value(int rank, int block, int element) const {
  return (generation_ % 10 + 1) * 100000000 + rank * 1000000 + block * 1000 + element;
}

void ExchangeCase::prepare(int generation) {
  generation_ = generation;
  std::fill(send_bytes_.begin(), send_bytes_.end(), std::byte{0x5a});
  for (std::size_t k = 0; k < recv_bytes_.size(); ++k)
    recv_bytes_[k] = static_cast<std::byte>((0xa5 ^ (rank_ * 17 + static_cast<int>(k) * 31 + generation)) & 0xff);
  for (std::size_t b = 0; b < send_.size(); ++b) {
    const auto positions = send_[b].int_positions();
    for (std::size_t j = 0; j < positions.size(); ++j)
      write_int(send_bytes_, positions[j], value(rank_, static_cast<int>(b), static_cast<int>(j)));
  }
  send_copy_ = send_bytes_;
  expected_ = expected_receive();
}

// Packs every rank's send blocks, runs the reference model, and lays this rank's result into a copy
// of the untouched receive buffer.
std::vector<std::byte> ExchangeCase::expected_receive() const {
  using cartcoll::reference::Bytes;
  cartcoll::reference::Blocks send(static_cast<std::size_t>(grid_.size())), recv(send.size());
  for (int rank = 0; rank < grid_.size(); ++rank) {
    for (std::size_t b = 0; b < send_.size(); ++b) {
      Bytes packed(static_cast<std::size_t>(send_[b].ints()) * 4);
      for (int j = 0; j < send_[b].ints(); ++j) {
        const std::int32_t v = value(rank, static_cast<int>(b), j);
        std::memcpy(packed.data() + 4 * j, &v, 4);
      }
      send[static_cast<std::size_t>(rank)].push_back(std::move(packed));
    }
    for (const Placement& block : recv_) {
      Bytes packed(static_cast<std::size_t>(block.ints()) * 4);
      if (rank == rank_) {
        const auto positions = block.int_positions();
        for (std::size_t j = 0; j < positions.size(); ++j) {
          const std::int32_t v = read_int(recv_bytes_, positions[j]);
          std::memcpy(packed.data() + 4 * j, &v, 4);
        }
      }
      recv[static_cast<std::size_t>(rank)].push_back(std::move(packed));
    }
  }
  const auto collective = gathers(op_) ? cartcoll::Collective::allgather : cartcoll::Collective::alltoall;
  const auto result = cartcoll::reference::exchange(grid_, offsets_, collective, send, std::move(recv));
  std::vector<std::byte> expected = recv_bytes_;
  for (std::size_t i = 0; i < recv_.size(); ++i) {
    const auto positions = recv_[i].int_positions();
    const Bytes& packed = result[static_cast<std::size_t>(rank_)][i];
    for (std::size_t j = 0; j < positions.size(); ++j) {
      std::int32_t v;
      std::memcpy(&v, packed.data() + 4 * j, 4);
      write_int(expected, positions[j], v);
    }
  }
  return expected;
}

int ExchangeCase::call(Form form, MPI_Comm cart, MPI_Info info, Cart_request* request) {
  const void* sbuf = send_bytes_.data() + headroom;
  void* rbuf = recv_bytes_.data() + headroom;
  const int scount = send_counts_.empty() ? 0 : send_counts_[0];
  const MPI_Datatype stype = send_types_.empty() ? MPI_INT : send_types_[0];
  const int rcount = recv_counts_.empty() ? 0 : recv_counts_[0];
  const MPI_Datatype rtype = recv_types_.empty() ? (gathers(op_) ? stype : MPI_INT) : recv_types_[0];
  const int *sc = send_counts_.data(), *sd = send_displs_.data(), *rc = recv_counts_.data(), *rd = recv_displs_.data();
  const MPI_Aint *sbd = send_bytes_displs_.data(), *rbd = recv_bytes_displs_.data();
  const MPI_Datatype *st = send_types_.data(), *rt = recv_types_.data();
  switch (form) {
    case Form::blocking:
      switch (op_) {
        case Op::allgather: return Cart_allgather(sbuf, scount, stype, rbuf, rcount, rtype, cart);
        case Op::allgatherv: return Cart_allgatherv(sbuf, scount, stype, rbuf, rc, rd, rtype, cart);
        case Op::allgatherw: return Cart_allgatherw(sbuf, scount, stype, rbuf, rc, rbd, rt, cart);
        case Op::alltoall: return Cart_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, cart);
        case Op::alltoallv: return Cart_alltoallv(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, cart);
        case Op::alltoallw: return Cart_alltoallw(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, cart);
      }
      break;
    case Form::nonblocking:
      switch (op_) {
        case Op::allgather: return Cart_iallgather(sbuf, scount, stype, rbuf, rcount, rtype, cart, request);
        case Op::allgatherv: return Cart_iallgatherv(sbuf, scount, stype, rbuf, rc, rd, rtype, cart, request);
        case Op::allgatherw: return Cart_iallgatherw(sbuf, scount, stype, rbuf, rc, rbd, rt, cart, request);
        case Op::alltoall: return Cart_ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, cart, request);
        case Op::alltoallv: return Cart_ialltoallv(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, cart, request);
        case Op::alltoallw: return Cart_ialltoallw(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, cart, request);
      }
      break;
    case Form::persistent:
      switch (op_) {
        case Op::allgather: return Cart_allgather_init(sbuf, scount, stype, rbuf, rcount, rtype, cart, info, request);
        case Op::allgatherv: return Cart_allgatherv_init(sbuf, scount, stype, rbuf, rc, rd, rtype, cart, info, request);
        case Op::allgatherw: return Cart_allgatherw_init(sbuf, scount, stype, rbuf, rc, rbd, rt, cart, info, request);
        case Op::alltoall: return Cart_alltoall_init(sbuf, scount, stype, rbuf, rcount, rtype, cart, info, request);
        case Op::alltoallv: return Cart_alltoallv_init(sbuf, sc, sd, stype, rbuf, rc, rd, rtype, cart, info, request);
        case Op::alltoallw: return Cart_alltoallw_init(sbuf, sc, sbd, st, rbuf, rc, rbd, rt, cart, info, request);
      }
      break;
  }
  return MPI_ERR_OTHER;
}

std::string ExchangeCase::mismatch() const {
  const auto& expected = expected_;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    if (expected[k] == recv_bytes_[k]) continue;
    std::ostringstream out;
    out << "receive buffer byte " << static_cast<long>(k) - headroom << " is " << static_cast<int>(recv_bytes_[k])
        << ", expected " << static_cast<int>(expected[k]);
    for (std::size_t i = 0; i < recv_.size(); ++i) {
      const auto positions = recv_[i].int_positions();
      for (std::size_t j = 0; j < positions.size(); ++j) {
        const auto at = static_cast<std::size_t>(headroom + positions[j]);
        if (k >= at && k < at + 4)
          out << " (block " << i << " int " << j << ": got " << read_int(recv_bytes_, positions[j]) << ", expected "
              << read_int(expected, positions[j]) << ")";
      }
    }
    return out.str();
  }
  if (send_bytes_ != send_copy_) return "the send buffer was modified";
  return {};
}

std::string ExchangeCase::describe() const {
  static const char* variants[] = {"plain", "mixed types", "zero counts"};
  return std::string(name(op_)) + ", " + variants[static_cast<int>(variant_)] + ", rank " + std::to_string(rank_) +
         ", " + support::describe(grid_, offsets_);
}

}  // namespace support
