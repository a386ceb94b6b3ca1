// SPDX-License-Identifier: BSD-3-Clause
#include "collective.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <utility>
#include <vector>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/exec/mpi_handles.hpp"
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


namespace {

// An Agreement's record: [its length, how many sums, sums..., maxima...], reduced as one element of a
// contiguous type, so that MPI never hands the operation part of one.
void sums_then_maxima(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* from = static_cast<const long long*>(in);
  auto* into = static_cast<long long*>(inout);
  for (int record = 0; record < *len; ++record) {
    const long long length = from[0], sums = from[1];
    for (long long i = 2; i < length; ++i) into[i] = i < 2 + sums ? into[i] + from[i] : std::max(into[i], from[i]);
    from += length;
    into += length;
  }
}

struct OpKind {
  using Handle = MPI_Op;
  static Handle null() { return MPI_OP_NULL; }
  static void free(Handle* handle) { MPI_Op_free(handle); }
};

void reduce_record(MPI_Comm comm, std::vector<long long>& record) {
  Datatype type;
  check(MPI_Type_contiguous(static_cast<int>(record.size()), MPI_LONG_LONG, type.out()), "MPI_Type_contiguous");
  check(MPI_Type_commit(type.out()), "MPI_Type_commit");
  Owned<OpKind> op;
  check(MPI_Op_create(&sums_then_maxima, 1, op.out()), "MPI_Op_create");
#ifdef CARTCOLL_MPI_IS_SMPI
  const std::vector<long long> input = record;  // blocking, with the input copied: allreduce_of above
  check(MPI_Allreduce(input.data(), record.data(), 1, type.get(), op.get(), comm), "MPI_Allreduce");
#else
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(MPI_IN_PLACE, record.data(), 1, type.get(), op.get(), comm, &request), "MPI_Iallreduce");
  complete(request);
#endif
}

}  // namespace

std::size_t Agreement::sum(long long value) {
  sums_.push_back(value);
  return sums_.size() - 1;
}

std::size_t Agreement::max(long long value) {
  maxima_.push_back(value);
  return maxima_.size() - 1;
}

std::size_t Agreement::must_match(long long value, const Error& mismatch) {
  const std::size_t slot = max(value);
  max(-value);
  matches_.emplace_back(slot, mismatch);
  return slot;
}

// Off the root the smallest value, which the root's bits exceed (or equal: -0.0, the same number).
std::size_t Agreement::from_root(double value, bool root) {
  return max(root ? std::bit_cast<long long>(value) : std::numeric_limits<long long>::min());
}

double Agreement::root_value(std::size_t slot) const { return std::bit_cast<double>(maxima_.at(slot)); }

void Agreement::run(MPI_Comm comm, const std::optional<Error>& local_error) {
  if (local_error) maxima_[0] = static_cast<long long>(local_error->kind()) + 1;
  std::vector<long long> record{static_cast<long long>(2 + sums_.size() + maxima_.size()),
                                static_cast<long long>(sums_.size())};
  record.insert(record.end(), sums_.begin(), sums_.end());
  record.insert(record.end(), maxima_.begin(), maxima_.end());
  reduce_record(comm, record);
  std::copy_n(record.begin() + 2, sums_.size(), sums_.begin());
  std::copy(record.begin() + 2 + static_cast<std::ptrdiff_t>(sums_.size()), record.end(), maxima_.begin());
  if (local_error && static_cast<long long>(local_error->kind()) + 1 == maxima_[0]) throw *local_error;
  if (maxima_[0] != 0) throw Error(static_cast<Errc>(maxima_[0] - 1), "another process passed a bad argument");
  for (const auto& [slot, mismatch] : matches_)
    if (maxima_[slot] != -maxima_[slot + 1]) throw mismatch;
}

}  // namespace cartcoll::detail
