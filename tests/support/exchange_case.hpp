#pragma once
// One collective call as a test case: buffers whose contents depend on the sending rank, the block
// and the element; the expected receive buffer computed by the MPI-free reference model; and the
// call itself through the C API in any of the three forms.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../describe.hpp"
#include "cartcoll/cartcoll.h"
#include "cartcoll/topology.hpp"

namespace support {

enum class Op { allgather, allgatherv, allgatherw, alltoall, alltoallv, alltoallw };
enum class Form { blocking, nonblocking, persistent };

const char* name(Op op);
const char* name(Form form);
inline const Op all_ops[] = {Op::allgather, Op::allgatherv, Op::allgatherw,
                             Op::alltoall,  Op::alltoallv,  Op::alltoallw};
inline const Form all_forms[] = {Form::blocking, Form::nonblocking, Form::persistent};

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

class ExchangeCase {
 public:
  ExchangeCase(Op op, Variant variant, const TestTypes& types, const cartcoll::Grid& grid,
               const cartcoll::Offsets& offsets, int rank);

  // Fills the send buffer for `generation` and resets the receive buffer to its sentinel pattern.
  void prepare(int generation);
  // Calls the collective; for Form::persistent this is the init call (start with Cart_start).
  int call(Form form, MPI_Comm cartcomm, MPI_Info info, Cart_request* request);
  // Empty if the receive buffer is exactly as the reference model says, else what differs.
  std::string mismatch() const;
  std::string describe() const;

 private:
  std::vector<std::byte> expected_receive() const;
  std::int32_t value(int rank, int block, int element) const;

  Op op_;
  Variant variant_;
  const cartcoll::Grid& grid_;
  const cartcoll::Offsets& offsets_;
  int rank_;
  int generation_ = 0;
  std::vector<Placement> send_, recv_;
  std::vector<std::byte> send_bytes_, recv_bytes_, send_copy_, expected_;
  // MPI argument arrays, derived from the placements.
  std::vector<int> send_counts_, recv_counts_, send_displs_, recv_displs_;
  std::vector<MPI_Aint> send_bytes_displs_, recv_bytes_displs_;
  std::vector<MPI_Datatype> send_types_, recv_types_;
};

using cartcoll::test::describe;

}  // namespace support
