// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// cartcoll's C++ API: Cartesian neighborhoods on MPI communicators and their collectives.
#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cartcoll/algorithm.hpp"
#include "cartcoll/cost_model.hpp"
#include "cartcoll/error.hpp"
#include "cartcoll/export.h"
#include "cartcoll/layout.hpp"
#include "cartcoll/topology.hpp"

namespace cartcoll {

namespace detail {
class CommState;
class Operation;
struct RequestAccess;  // makes requests from operations: the library's own
}  // namespace detail

// A started or startable collective. Nonblocking requests become empty when they complete;
// persistent ones stay and can be started again. The destructor completes an active operation.
// Waiting for or testing any request advances every active operation of the process.
class CARTCOLL_API Request {
 public:
  Request() noexcept;
  Request(Request&&) noexcept;
  Request& operator=(Request&&) noexcept;
  ~Request();

  explicit operator bool() const noexcept { return operation_ != nullptr; }
  bool persistent() const;
  bool active() const;
  void start();  // persistent requests only; Error(Errc::request) if active or empty
  void wait();   // returns at once for an empty or inactive request
  bool test();   // true if complete (or empty or inactive); never blocks
  // True once a wait would return at once (or empty or inactive): progresses every operation once,
  // but does not complete the request, as MPI_Request_get_status does not.
  bool ready();
  MPI_Comm comm() const;  // the communicator the request was made on

 private:
  friend struct detail::RequestAccess;
  explicit Request(std::unique_ptr<detail::Operation> operation) noexcept;
  void complete_if_nonblocking();
  std::unique_ptr<detail::Operation> operation_;
};

// Completes every request (empty and inactive ones are skipped), whatever order the other processes
// complete theirs in.
CARTCOLL_API void wait_all(std::span<Request> requests);

struct RequestOptions {
  std::optional<Algorithm> algorithm;  // unset: the communicator's choice
  MPI_Info info = MPI_INFO_NULL;       // cartcoll_algorithm, which overrides `algorithm`
};

// A view of an MPI communicator that carries a cartcoll neighborhood (made by Communicator::create
// or Cart_neighborhood_create). The communicator stays owned by whoever owns it; a view used after
// the communicator was freed throws Error(Errc::comm).
class CARTCOLL_API CartComm {
 public:
  explicit CartComm(MPI_Comm comm);  // Error(Errc::comm) for MPI_COMM_NULL, Errc::topology without neighborhood

  MPI_Comm mpi() const noexcept { return comm_; }
  Degrees degrees() const { return {neighbor_count(), neighbor_count()}; }
  const Grid& grid() const;
  const Offsets& offsets() const;
  int neighbor_count() const { return offsets().count(); }
  int rank() const;
  std::span<const int> coords() const;
  Algorithm algorithm() const;

  // Ranks relative to this process; MPI_PROC_NULL where the neighbor is outside a non-periodic mesh.
  int relative_rank(std::span<const int> relative) const;
  std::pair<int, int> relative_shift(std::span<const int> relative) const;  // {source, target}
  std::vector<int> relative_coord(int rank) const;  // coords(rank) - coords(this process)
  std::vector<int> sources() const;  // source i = this - offset i (MPI_PROC_NULL if missing)
  std::vector<int> targets() const;  // target i = this + offset i
  std::optional<std::vector<int>> weights() const;  // nullopt if created unweighted

  // The algorithm a blocking call with this layout runs (what `auto` resolves to). Collective
  // whenever `auto` meets a new size class: it then times the candidates on scratch buffers (see
  // docs/design.md).
  Algorithm choose_algorithm(const Layout& layout) const;

  void exchange(const Layout& layout) const;
  // An alltoall or allgather: a call repeated with equal arguments skips building its layout.
  void exchange(const RegularArguments& arguments) const;
  // Any collective: a call repeated with an equal print skips building its layout.
  void exchange(const ArgumentPrint& print, const std::function<Layout()>& make_layout) const;
  // Never blocks and never communicates before it returns.
  Request iexchange(const Layout& layout) const;
  // Collective: a bad argument on any process (thrown by make_layout, say) or processes choosing
  // different algorithms make every process throw the same error.
  Request exchange_init(const Layout& layout, const RequestOptions& options = {}) const;
  Request exchange_init(const std::function<Layout()>& make_layout, const RequestOptions& options = {}) const;

 private:
  detail::CommState& state() const;  // Error(Errc::comm) once the communicator is freed

  MPI_Comm comm_;
  std::shared_ptr<detail::CommState> state_;
};

struct CreateOptions {
  std::optional<std::vector<int>> weights;  // one per offset; nullopt = MPI_UNWEIGHTED
  bool reorder = false;
  MPI_Info info = MPI_INFO_NULL;  // cartcoll_algorithm = a registered planner's name | auto
};

// Owns an MPI communicator and frees it: one with a neighborhood attached (create), a sub-grid
// (create_sub), a base communicator (comm_base). Empty on processes that get none (beyond the grid).
class CARTCOLL_API Communicator {
 public:
  Communicator() = default;
  explicit Communicator(MPI_Comm comm) noexcept : comm_(comm) {}
  Communicator(Communicator&& other) noexcept : comm_(std::exchange(other.comm_, MPI_COMM_NULL)) {}
  Communicator& operator=(Communicator&& other) noexcept {
    std::swap(comm_, other.comm_);
    return *this;
  }
  ~Communicator() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

  // Collective over comm; every process must pass the same grid and offsets (checked: all processes
  // then throw Error(Errc::not_isomorphic)).
  static Communicator create(MPI_Comm comm, const Grid& grid, const Offsets& offsets,
                             const CreateOptions& options = {});

  explicit operator bool() const noexcept { return comm_ != MPI_COMM_NULL; }
  MPI_Comm get() const noexcept { return comm_; }
  MPI_Comm release() noexcept { return std::exchange(comm_, MPI_COMM_NULL); }
  CartComm view() const { return CartComm(comm_); }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Measures the cost model `auto` uses (latency, per-message and per-byte time) on comm: collective,
// on a private duplicate, the same result on every process. cartcoll-calibrate writes it to the
// file that CARTCOLL_PROFILE names.
CARTCOLL_API CostModel calibrate(MPI_Comm comm);

// The MPI datatype of a C++ arithmetic type, for the typed conveniences below.
template <typename T> MPI_Datatype mpi_type_of();
template <> inline MPI_Datatype mpi_type_of<char>() { return MPI_CHAR; }
template <> inline MPI_Datatype mpi_type_of<int>() { return MPI_INT; }
template <> inline MPI_Datatype mpi_type_of<long>() { return MPI_LONG; }
template <> inline MPI_Datatype mpi_type_of<long long>() { return MPI_LONG_LONG; }
template <> inline MPI_Datatype mpi_type_of<unsigned>() { return MPI_UNSIGNED; }
template <> inline MPI_Datatype mpi_type_of<float>() { return MPI_FLOAT; }
template <> inline MPI_Datatype mpi_type_of<double>() { return MPI_DOUBLE; }

// send holds t equal blocks (block i for target i), recv t blocks of the same size.
template <typename T>
void alltoall(const CartComm& cart, std::span<const T> send, std::span<T> recv) {
  const int t = cart.neighbor_count();
  const int count = t == 0 ? 0 : static_cast<int>(recv.size() / static_cast<std::size_t>(t));
  if (send.size() != recv.size() || recv.size() != static_cast<std::size_t>(count) * static_cast<std::size_t>(t))
    throw Error(Errc::count, "alltoall: send and receive must both hold t equal blocks");
  cart.exchange(RegularArguments{Collective::alltoall, send.data(), count, mpi_type_of<T>(), recv.data(), count,
                                 mpi_type_of<T>()});
}

// send is the one block every target gets; recv holds t blocks of that size.
template <typename T>
void allgather(const CartComm& cart, std::span<const T> send, std::span<T> recv) {
  const int t = cart.neighbor_count();
  if (recv.size() != send.size() * static_cast<std::size_t>(t))
    throw Error(Errc::count, "allgather: receive must hold t blocks of the send block's size");
  const int count = static_cast<int>(send.size());
  cart.exchange(RegularArguments{Collective::allgather, send.data(), count, mpi_type_of<T>(), recv.data(), count,
                                  mpi_type_of<T>()});
}

}  // namespace cartcoll
