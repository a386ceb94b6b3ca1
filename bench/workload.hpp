#pragma once
// The buffers and argument arrays of one operation at one block size, shared by all implementations.
#include <mpi.h>

#include <string>
#include <vector>

#include "options.hpp"

namespace bench {

class Workload {
 public:
  Workload(const Options& options, int t, int m);
  ~Workload();
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  bool gather() const { return op.starts_with("allgather"); }
  // Bytes of send block i (alltoall*) or of the one send block (allgather*).
  long long send_block_bytes(int i) const;
  long long recv_block_bytes(int i) const;
  // The direct pattern's send volume: one message per neighbor.
  long long direct_bytes() const;

  std::string op;
  int t = 0, m = 0;
  MPI_Datatype type;
  int element_bytes = 0;
  int send_count = 0;                            // allgather*: elements of the one send block
  std::vector<int> counts, displs;               // per block, in elements (v variants; also sends of alltoallv)
  std::vector<int> ones;                         // w variants: one element of the block's type
  std::vector<MPI_Aint> byte_displs, zero_displs;
  std::vector<MPI_Datatype> block_types;         // w variants: contiguous counts[i] elements
  std::vector<char> send, recv;
};

}  // namespace bench
