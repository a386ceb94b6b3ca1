// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The MPI collectives the library itself needs (agreement, measurement), as nonblocking MPI
// collectives waited for through the progress engine: a process waiting in one still advances its
// outstanding cartcoll operations, which its peers may need before they join (under SimGrid's SMPI,
// whose nonblocking collectives are linear, the blocking ones: collective.cpp).
#include <mpi.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cartcoll/error.hpp"
#include "cartcoll/layout.hpp"
#include "simulated_mpi.hpp"

namespace cartcoll::detail {

void allreduce_max(MPI_Comm comm, std::span<int> values);
void allreduce_max(MPI_Comm comm, std::span<double> values);
void broadcast(MPI_Comm comm, std::span<int> values, int root);
void broadcast(MPI_Comm comm, std::span<double> values, int root);
// `tag` is free on comm for the barrier's messages where it sends any (SimGrid's SMPI, below);
// MPI_Ibarrier sends none.
void barrier(MPI_Comm comm, int tag);

// A barrier that does not block: started by the constructor, test() progresses it and says whether
// every process has entered. MPI_Ibarrier, or a dissemination barrier (ceil(log2 p) rounds of one
// empty message each way on `tag`), which is the one usable under SimGrid's SMPI: its MPI_Ibarrier
// (3.32) is linear and does not synchronise (rank 0 sends every release as it enters, so a process
// leaves once it and rank 0 have entered: docs/simulation.md).
class NonblockingBarrier {
 public:
  enum class Kind { mpi, dissemination };
  static constexpr Kind usable = mpi_is_simulated ? Kind::dissemination : Kind::mpi;
  NonblockingBarrier(MPI_Comm comm, int tag, Kind kind = usable);
  NonblockingBarrier(const NonblockingBarrier&) = delete;
  NonblockingBarrier& operator=(const NonblockingBarrier&) = delete;
  bool test();
  void wait();

 private:
  void post_round();

  MPI_Comm comm_;
  int tag_, rank_ = 0, size_ = 1, distance_ = 1;
  Kind kind_;
  std::array<MPI_Request, 2> requests_{MPI_REQUEST_NULL, MPI_REQUEST_NULL};
};

// The receive blocks' sizes as two non-negative ints (FNV-1a over the byte counts), for agree():
// where a contract gives every process the same block sizes, processes compare them at their
// collective points (init, `auto`'s trial).
using SizeDigest = std::array<int, 2>;
SizeDigest block_size_digest(const Layout& layout);
// FNV-1a over `values`, as two non-negative ints (for agree()).
SizeDigest digest_of(std::span<const std::uint64_t> values);

// One allreduce in which the processes agree on an outcome: if any process failed locally
// (`local_error`), every process throws, the failing one its own error, the others an error of the
// same kind; if `must_match` differs between processes, every process throws `mismatch`. Returns
// `or_bits` or-ed over the processes.
std::uint64_t agree(MPI_Comm comm, const std::optional<Error>& local_error, std::span<const int> must_match,
                    const Error& mismatch, std::uint64_t or_bits = 0);
// The same with an error per value: where must_match[i] differs (the first such i), every process
// throws mismatches[i].
std::uint64_t agree(MPI_Comm comm, const std::optional<Error>& local_error, std::span<const int> must_match,
                    std::span<const Error> mismatches, std::uint64_t or_bits = 0);

// Values the processes agree on in one allreduce, whatever each step of a creation needs them for:
// sums, maxima, values that must be equal everywhere, rank 0's values (a broadcast) and whether any
// process failed (as agree()). Each put returns the value's slot, read back after run(). Every process
// puts the same kinds in the same order, so that the layout is one everywhere whatever it holds.
class Agreement {
 public:
  std::size_t sum(long long value);
  std::size_t max(long long value);
  // Two maxima, of value and -value: equal (-) exactly where value is the same everywhere.
  std::size_t must_match(long long value, const Error& mismatch);
  std::size_t from_root(double value, bool root);  // `value` matters on the root only
  // One allreduce; then, as agree(), throws a process's local error on every process (the largest
  // kind), else the mismatch of the first value that differs.
  void run(MPI_Comm comm, const std::optional<Error>& local_error);

  long long summed(std::size_t slot) const { return sums_.at(slot); }
  long long maximum(std::size_t slot) const { return maxima_.at(slot); }
  double root_value(std::size_t slot) const;

 private:
  std::vector<long long> sums_, maxima_{0};  // maxima_[0]: the largest error kind + 1, 0 for none
  std::vector<std::pair<std::size_t, Error>> matches_;
};

}  // namespace cartcoll::detail
