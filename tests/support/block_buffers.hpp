// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The buffers of one collective call in the MPI tests: datatypes whose int positions the test knows
// independently of MPI, blocks placed so that a write into the wrong place shows, and the MPI
// argument arrays that describe them. Shared by the Cartesian (exchange_case) and graph (graph_case)
// cases.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/simulation/reference.hpp"

namespace support {

enum class Op { allgather, allgatherv, allgatherw, alltoall, alltoallv, alltoallw };
enum class Form { blocking, nonblocking, persistent };

const char* name(Op op);
const char* name(Form form);
inline const Op all_ops[] = {Op::allgather, Op::allgatherv, Op::allgatherw,
                             Op::alltoall,  Op::alltoallv,  Op::alltoallw};
inline const Form all_forms[] = {Form::blocking, Form::nonblocking, Form::persistent};

bool gathers(Op op);           // allgather(v,w): one send block
bool regular(Op op);           // allgather, alltoall: one count and datatype per side
bool general(Op op);           // allgatherw, alltoallw: byte displacements, a datatype per block
bool irregular_counts(Op op);  // alltoallv, alltoallw: a count per block on both sides

// A datatype whose int positions the test knows independently of MPI.
struct ElementType {
  MPI_Datatype type;
  int ints_per_element;
  MPI_Aint extent;
  std::vector<MPI_Aint> int_offsets;  // byte offsets of the ints inside one element
};

// contiguous: MPI_INT. strided: 2 ints with a gap (vector 2,1,2). shifted: one int at byte -4 with
// lower bound -4 and extent 8 (a negative lower bound).
class TestTypes {
 public:
  TestTypes();
  ~TestTypes();
  TestTypes(const TestTypes&) = delete;
  TestTypes& operator=(const TestTypes&) = delete;
  const ElementType& contiguous() const { return types_[0]; }
  const ElementType& strided() const { return types_[1]; }
  const ElementType& shifted() const { return types_[2]; }
  const ElementType& at(int index) const { return types_[static_cast<std::size_t>(index % 3)]; }

 private:
  std::vector<ElementType> types_;
};

struct Placement {
  MPI_Aint byte_displacement;
  int count;
  const ElementType* type;
  int ints() const { return count * type->ints_per_element; }
  std::vector<MPI_Aint> int_positions() const;
};

// Variants of block shapes: plain ints; different send and receive datatypes (strided, negative
// lower bound); all counts zero.
enum class Variant { plain, mixed_types, zero_counts };
inline const Variant all_variants[] = {Variant::plain, Variant::mixed_types, Variant::zero_counts};
const char* name(Variant variant);

// One side of a call. Regular blocks sit back to back; v and w blocks in reverse order with a gap
// after each, so that a write into the wrong place or past a block shows. The bytes have room below
// the base address for negative lower bounds.
class Side {
 public:
  // ints[b] ints in block b, of types[b] (which must divide them).
  Side(Op op, const std::vector<int>& ints, const std::vector<const ElementType*>& types, bool is_send);

  const std::vector<Placement>& blocks() const { return blocks_; }
  void* base() { return bytes_.data() + headroom; }
  std::vector<std::byte>& bytes() { return bytes_; }
  const std::vector<std::byte>& bytes() const { return bytes_; }

  // MPI's arguments: the first block's count and type (regular forms; `fallback` where there is no
  // block), and the arrays of the v and w forms.
  int count() const { return counts_.empty() ? 0 : counts_[0]; }
  MPI_Datatype type(MPI_Datatype fallback) const { return types_.empty() ? fallback : types_[0]; }
  const int* counts() const { return counts_.data(); }
  const int* displs() const { return displs_.data(); }  // in extents of the block's type (v)
  const MPI_Aint* byte_displs() const { return byte_displs_.data(); }  // w
  const MPI_Datatype* types() const { return types_.data(); }

  void write_int(MPI_Aint position, std::int32_t value) { write_int(bytes_, position, value); }
  std::int32_t read_int(MPI_Aint position) const { return read_int(bytes_, position); }
  static void write_int(std::vector<std::byte>& bytes, MPI_Aint position, std::int32_t value);
  static std::int32_t read_int(const std::vector<std::byte>& bytes, MPI_Aint position);

  // Block b's ints packed in order, as they travel.
  cartcoll::reference::Bytes packed(std::size_t b) const;
  // `bytes` (a copy of this side's) with block b's ints replaced by `packed`'s.
  void unpack_into(std::vector<std::byte>& bytes, std::size_t b, const cartcoll::reference::Bytes& packed) const;
  // Empty if the bytes equal `expected`, else the first difference, with the block and int it is in.
  std::string difference_from(const std::vector<std::byte>& expected) const;
  // The bytes as they are, with each block's ints replaced by packed[block]'s.
  std::vector<std::byte> with_blocks(const std::vector<cartcoll::reference::Bytes>& packed) const;

  static constexpr MPI_Aint headroom = 64;

 private:
  std::vector<Placement> blocks_;
  std::vector<std::byte> bytes_;
  std::vector<int> counts_, displs_;
  std::vector<MPI_Aint> byte_displs_;
  std::vector<MPI_Datatype> types_;
};

// The ints of a block as they travel: value(j) for j < ints.
template <typename Value>
cartcoll::reference::Bytes packed_ints(int ints, Value&& value) {
  cartcoll::reference::Bytes packed(static_cast<std::size_t>(ints) * 4);
  for (int j = 0; j < ints; ++j) {
    const std::int32_t v = value(j);
    std::memcpy(packed.data() + 4 * j, &v, 4);
  }
  return packed;
}

// The value of int `element` of send block `block` of `rank` in generation `generation`: a misrouted
// or stale block shows.
inline std::int32_t test_value(int generation, int rank, int block, int element) {
  return (generation % 10 + 1) * 100000000 + rank * 1000000 + block * 1000 + element;
}

// The MPI arguments of a call over a send and a receive side (regular, v and w forms alike).
struct CallArguments {
  const void* sbuf;
  void* rbuf;
  int scount, rcount;
  MPI_Datatype stype, rtype;
  const int *sc, *sd, *rc, *rd;
  const MPI_Aint *sbd, *rbd;
  const MPI_Datatype *st, *rt;
};

// What the Cartesian and the graph test cases share: the two sides of one call, filled per
// generation, and the check of the receive buffer against what the case expects.
class CaseBuffers {
 public:
  // Empty if the receive buffer is exactly as expected and the send buffer untouched, else what
  // differs; the ints of the receive blocks `undefined` lists may hold anything.
  std::string mismatch(std::span<const std::size_t> undefined = {}) const;

 protected:
  CaseBuffers(Op op, int rank) : op_(op), rank_(rank) {}
  // Send block b's int j becomes test_value(generation, rank, b, j) (the gaps a fixed pattern), the
  // receive buffer a sentinel pattern different per rank and generation; `expected` is then asked
  // for what the receive buffer must hold after the call.
  template <typename Expected>
  void fill(int generation, Expected&& expected) {
    generation_ = generation;
    fill_sides(generation);
    send_copy_ = send_->bytes();
    expected_ = expected();
  }
  CallArguments arguments();

  Op op_;
  int rank_;
  int generation_ = 0;
  std::optional<Side> send_, recv_;

 private:
  void fill_sides(int generation);
  std::vector<std::byte> send_copy_, expected_;
};

}  // namespace support
