#pragma once
// The MPI collectives the library itself needs (agreement, measurement), as nonblocking MPI
// collectives waited for through the progress engine: a process waiting in one still advances its
// outstanding cartcoll operations, which its peers may need before they join.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <span>

#include "cartcoll/error.hpp"

namespace cartcoll::detail {

void allreduce_max(MPI_Comm comm, std::span<int> values);
void allreduce_max(MPI_Comm comm, std::span<double> values);
void allreduce_sum(MPI_Comm comm, std::span<long long> values);
void broadcast(MPI_Comm comm, std::span<int> values, int root);
void broadcast(MPI_Comm comm, std::span<double> values, int root);
// `tag` is free on comm for the barrier's messages where it sends any (an MPI whose nonblocking barrier
// is linear, SimGrid's SMPI: collective.cpp); MPI_Ibarrier sends none.
void barrier(MPI_Comm comm, int tag);

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

}  // namespace cartcoll::detail
