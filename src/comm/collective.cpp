#include "collective.hpp"

#include <vector>

#include "../exec/mpi_check.hpp"
#include "../exec/progress.hpp"

namespace cartcoll::detail {

namespace {

void complete(MPI_Request request) { ProgressEngine::instance().wait(request); }

// SMPI 3.32's MPI_Iallreduce with MPI_IN_PLACE returns wrong values when sends are not buffered
// (smpi/send-is-detached-thresh:0, which the simulation needs: docs/simulation.md): there the input
// is passed as a copy.
template <typename T>
void allreduce_of(MPI_Comm comm, std::span<T> values, MPI_Datatype type, MPI_Op op) {
#ifdef CARTCOLL_MPI_IS_SMPI
  const std::vector<T> input(values.begin(), values.end());
  const void* send = input.data();
#else
  const void* send = MPI_IN_PLACE;
#endif
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(send, values.data(), static_cast<int>(values.size()), type, op, comm, &request),
        "MPI_Iallreduce");
  complete(request);
}

}  // namespace

void allreduce_max(MPI_Comm comm, std::span<int> values) { allreduce_of(comm, values, MPI_INT, MPI_MAX); }

void allreduce_max(MPI_Comm comm, std::span<double> values) { allreduce_of(comm, values, MPI_DOUBLE, MPI_MAX); }

void allreduce_sum(MPI_Comm comm, std::span<long long> values) { allreduce_of(comm, values, MPI_LONG_LONG, MPI_SUM); }

void broadcast(MPI_Comm comm, std::span<int> values, int root) {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibcast(values.data(), static_cast<int>(values.size()), MPI_INT, root, comm, &request), "MPI_Ibcast");
  complete(request);
}

void broadcast(MPI_Comm comm, std::span<double> values, int root) {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibcast(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, root, comm, &request), "MPI_Ibcast");
  complete(request);
}

#ifdef CARTCOLL_MPI_IS_SMPI
// SMPI's MPI_Ibarrier is linear (rank 0 hears from, then releases, every process in turn), so with a
// per-message overhead it releases processes microseconds apart per process, and `auto`'s trial would
// time that skew as part of every candidate. A dissemination barrier, ceil(log2 p) rounds of one
// empty message each way, releases them within a few latencies. Its messages on `tag` precede the
// caller's on the same tag from every sender, so MPI's non-overtaking rule keeps them apart.
void barrier(MPI_Comm comm, int tag) {
  int size = 0, rank = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  for (int distance = 1; distance < size; distance *= 2) {
    MPI_Request from = MPI_REQUEST_NULL, to = MPI_REQUEST_NULL;
    check(MPI_Irecv(nullptr, 0, MPI_BYTE, (rank - distance + size) % size, tag, comm, &from), "MPI_Irecv");
    check(MPI_Isend(nullptr, 0, MPI_BYTE, (rank + distance) % size, tag, comm, &to), "MPI_Isend");
    complete(from);
    complete(to);
  }
}
#else
void barrier(MPI_Comm comm, int /*tag*/) {
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(comm, &request), "MPI_Ibarrier");
  complete(request);
}
#endif

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
  if (local_error) throw *local_error;
  if (values[0] != 0) throw Error(static_cast<Errc>(values[0] - 1), "another process passed a bad argument");
  for (std::size_t i = 0; i < n; ++i)
    if (values[1 + i] != -values[1 + n + i]) throw mismatches[i];
  std::uint64_t agreed = 0;
  for (std::size_t bit = 0; bit < 64; ++bit)
    if (values[1 + 2 * n + bit] != 0) agreed |= std::uint64_t{1} << bit;
  return agreed;
}

}  // namespace cartcoll::detail
