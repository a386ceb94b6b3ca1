#include "workload.hpp"

#include <algorithm>
#include <cstdlib>

namespace bench {
namespace {

long long power(long long base, int exponent) {
  long long value = 1;
  for (int k = 0; k < exponent; ++k) value *= base;
  return value;
}

// Elements of block i under the size rule (000: m^(d - nonzero coordinates); 002: m^(d - ||C||_1), at least 1).
int block_elements(const Options& options, int i, int m) {
  const int d = options.d;
  int nonzero = 0, norm1 = 0;
  for (int k = 0; k < d; ++k) {
    const int c = options.offsets[static_cast<std::size_t>(i * d + k)];
    nonzero += c != 0;
    norm1 += std::abs(c);
  }
  switch (options.rule) {
    case SizeRule::rule000: return static_cast<int>(power(m, d - nonzero));
    case SizeRule::rule002: return static_cast<int>(std::max(1LL, power(m, std::max(0, d - norm1))));
    default: return m;
  }
}

}  // namespace

Workload::Workload(const Options& options, int t_, int m_) : op(options.op), t(t_), m(m_), type(options.type) {
  MPI_Type_size(type, &element_bytes);
  const auto size = static_cast<std::size_t>(t);
  const bool irregular = !gather() && op != "alltoall";
  counts.resize(size);
  for (int i = 0; i < t; ++i) counts[static_cast<std::size_t>(i)] = irregular ? block_elements(options, i, m) : m;
  displs.resize(size);
  byte_displs.resize(size);
  long long total = 0;
  for (std::size_t i = 0; i < size; ++i) {
    displs[i] = static_cast<int>(total);
    byte_displs[i] = static_cast<MPI_Aint>(total * element_bytes);
    total += counts[i];
  }
  zero_displs.assign(size, 0);
  ones.assign(size, 1);
  send_count = m;
  if (op.ends_with('w'))
    for (std::size_t i = 0; i < size; ++i) {
      MPI_Datatype block;
      MPI_Type_contiguous(counts[i], type, &block);
      MPI_Type_commit(&block);
      block_types.push_back(block);
    }
  const long long send_elements = gather() ? m : total;
  send.assign(static_cast<std::size_t>(std::max(1LL, send_elements * element_bytes)), 1);
  recv.assign(static_cast<std::size_t>(std::max(1LL, total * element_bytes)), 0);
}

Workload::~Workload() {
  for (MPI_Datatype& block : block_types) MPI_Type_free(&block);
}

long long Workload::send_block_bytes(int i) const {
  return static_cast<long long>(gather() ? send_count : counts[static_cast<std::size_t>(i)]) * element_bytes;
}

long long Workload::recv_block_bytes(int i) const {
  return static_cast<long long>(counts[static_cast<std::size_t>(i)]) * element_bytes;
}

long long Workload::direct_bytes() const {
  long long bytes = 0;
  for (int i = 0; i < t; ++i) bytes += send_block_bytes(i);
  return bytes;
}

}  // namespace bench
