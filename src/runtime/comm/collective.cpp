// SPDX-License-Identifier: BSD-3-Clause
#include "collective.hpp"

#include <utility>
#include <vector>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/progress/progress.hpp"

namespace cartcoll::detail {

SizeDigest digest_of(std::span<const std::uint64_t> values) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const std::uint64_t value : values) {
    hash ^= value;
    hash *= 1099511628211ull;
  }
  return {static_cast<int>(hash & 0x7fffffffu), static_cast<int>((hash >> 32) & 0x7fffffffu)};
}

SizeDigest block_size_digest(const Layout& layout) {
  std::vector<std::uint64_t> bytes;
  bytes.reserve(layout.recv.size());
  for (const BlockSpec& block : layout.recv) bytes.push_back(static_cast<std::uint64_t>(bytes_of(block)));
  return digest_of(bytes);
}

namespace {

void complete(MPI_Request request) { ProgressEngine::instance().wait(request); }

#ifdef CARTCOLL_MPI_IS_SMPI
// SMPI 3.32's nonblocking collectives are linear (the root posts a request per process and tests them
// all at every poll, which made creating a communicator of 512 simulated processes take minutes of
// real time), and its MPI_Iallreduce with MPI_IN_PLACE returns wrong values when sends are not
// buffered (smpi/send-is-detached-thresh:0, which the simulation needs: docs/simulation.md). There the
// blocking collectives are used (logarithmic with smpi/coll-selector:ompi), with the input copied.
// The progress engine does not advance while a process waits in one; SMPI moves the messages itself.
template <typename T>
void allreduce_of(MPI_Comm comm, std::span<T> values, MPI_Datatype type, MPI_Op op) {
  const std::vector<T> input(values.begin(), values.end());
  check(MPI_Allreduce(input.data(), values.data(), static_cast<int>(values.size()), type, op, comm), "MPI_Allreduce");
}

template <typename T>
void broadcast_of(MPI_Comm comm, std::span<T> values, MPI_Datatype type, int root) {
  check(MPI_Bcast(values.data(), static_cast<int>(values.size()), type, root, comm), "MPI_Bcast");
}
#else
template <typename T>
void allreduce_of(MPI_Comm comm, std::span<T> values, MPI_Datatype type, MPI_Op op) {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), type, op, comm, &request),
        "MPI_Iallreduce");
  complete(request);
}

template <typename T>
void broadcast_of(MPI_Comm comm, std::span<T> values, MPI_Datatype type, int root) {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibcast(values.data(), static_cast<int>(values.size()), type, root, comm, &request), "MPI_Ibcast");
  complete(request);
}
#endif

}  // namespace

void allreduce_max(MPI_Comm comm, std::span<int> values) { allreduce_of(comm, values, MPI_INT, MPI_MAX); }

void allreduce_max(MPI_Comm comm, std::span<double> values) { allreduce_of(comm, values, MPI_DOUBLE, MPI_MAX); }

void allreduce_sum(MPI_Comm comm, std::span<long long> values) { allreduce_of(comm, values, MPI_LONG_LONG, MPI_SUM); }

void broadcast(MPI_Comm comm, std::span<int> values, int root) { broadcast_of(comm, values, MPI_INT, root); }

void broadcast(MPI_Comm comm, std::span<double> values, int root) { broadcast_of(comm, values, MPI_DOUBLE, root); }

// The dissemination barrier releases the processes within a few latencies, where SMPI's linear one
// would release them a per-message overhead apart per process, and `auto`'s trial would time that
// skew as part of every candidate. Its messages on `tag` precede the caller's on the same tag from
// every sender, so MPI's non-overtaking rule keeps them apart; between two processes it sends at most
// one message a barrier, so consecutive barriers on one tag stay apart too.
NonblockingBarrier::NonblockingBarrier(MPI_Comm comm, int tag, Kind kind) : comm_(comm), tag_(tag), kind_(kind) {
  if (kind_ == Kind::mpi) {
    check(MPI_Ibarrier(comm, &requests_[0]), "MPI_Ibarrier");
    return;
  }
  check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  post_round();
}

void NonblockingBarrier::post_round() {
  if (distance_ >= size_) return;
  check(MPI_Irecv(nullptr, 0, MPI_BYTE, (rank_ - distance_ + size_) % size_, tag_, comm_, &requests_[0]), "MPI_Irecv");
  check(MPI_Isend(nullptr, 0, MPI_BYTE, (rank_ + distance_) % size_, tag_, comm_, &requests_[1]), "MPI_Isend");
}

bool NonblockingBarrier::test() {
  if (kind_ == Kind::mpi) {
    int done = 0;
    check(MPI_Test(&requests_[0], &done, MPI_STATUS_IGNORE), "MPI_Test");
    return done != 0;
  }
  while (distance_ < size_) {
    int done = 0;
    check(MPI_Testall(2, requests_.data(), &done, MPI_STATUSES_IGNORE), "MPI_Testall");
    if (!done) return false;
    distance_ *= 2;
    post_round();
  }
  return true;
}

void NonblockingBarrier::wait() {
  if (kind_ == Kind::mpi) {
    complete(std::exchange(requests_[0], MPI_REQUEST_NULL));
    return;
  }
  while (distance_ < size_) {
    for (MPI_Request& request : requests_) complete(std::exchange(request, MPI_REQUEST_NULL));
    distance_ *= 2;
    post_round();
  }
}

void barrier(MPI_Comm comm, int tag) { NonblockingBarrier(comm, tag).wait(); }

// Layout of the reduced values: [error kind + 1, must_match..., -must_match..., or_bits as 64 0/1s].
// Under MPI_MAX, max(v) == -max(-v) exactly when v is the same everywhere, and 0/1 values or.
std::uint64_t agree(MPI_Comm comm, const std::optional<Error>& local_error, std::span<const int> must_match,
                    const Error& mismatch, std::uint64_t or_bits) {
  const std::vector<Error> mismatches(must_match.size(), mismatch);
  return agree(comm, local_error, must_match, mismatches, or_bits);
}

std::uint64_t agree(MPI_Comm comm, const std::optional<Error>& local_error, std::span<const int> must_match,
                    std::span<const Error> mismatches, std::uint64_t or_bits) {
  const std::size_t n = must_match.size();
  if (mismatches.size() != n) throw Error(Errc::intern, "one mismatch error per value to agree on");
  std::vector<int> values(1 + 2 * n + 64, 0);
  values[0] = local_error ? static_cast<int>(local_error->kind()) + 1 : 0;
  for (std::size_t i = 0; i < n; ++i) {
    values[1 + i] = must_match[i];
    values[1 + n + i] = -must_match[i];
  }
  for (std::size_t bit = 0; bit < 64; ++bit) values[1 + 2 * n + bit] = static_cast<int>((or_bits >> bit) & 1u);
  allreduce_max(comm, values);
  // Processes that failed differently all throw the largest kind, so every process sees one class.
  if (local_error && static_cast<int>(local_error->kind()) + 1 == values[0]) throw *local_error;
  if (values[0] != 0) throw Error(static_cast<Errc>(values[0] - 1), "another process passed a bad argument");
  for (std::size_t i = 0; i < n; ++i)
    if (values[1 + i] != -values[1 + n + i]) throw mismatches[i];
  std::uint64_t agreed = 0;
  for (std::size_t bit = 0; bit < 64; ++bit)
    if (values[1 + 2 * n + bit] != 0) agreed |= std::uint64_t{1} << bit;
  return agreed;
}

}  // namespace cartcoll::detail
