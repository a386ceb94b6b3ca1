#pragma once
// Each implementation, bound to a workload: a callable that performs one collective call.
#include <mpi.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cartcoll/cartcoll.h"
#include "cartcoll/schedule.hpp"
#include "options.hpp"
#include "workload.hpp"

namespace bench {

using Run = std::function<void()>;

// The communicators every block size shares.
class Communicators {
 public:
  Communicators(const Options& options, const std::vector<int>& dims);
  ~Communicators();
  Communicators(const Communicators&) = delete;
  Communicators& operator=(const Communicators&) = delete;

  MPI_Comm cart(const std::string& algorithm) const { return carts_.at(algorithm); }
  MPI_Comm graph() const { return graph_; }
  MPI_Comm mpi_cart() const { return mpi_cart_; }
  MPI_Comm world() const { return world_; }
  const cartcoll::Schedule& combining_schedule(bool gather) const { return gather ? gather_plan_ : alltoall_plan_; }

 private:
  std::map<std::string, MPI_Comm> carts_;  // one per algorithm, forced by the cartcoll_algorithm info key
  MPI_Comm graph_ = MPI_COMM_NULL, mpi_cart_ = MPI_COMM_NULL, world_ = MPI_COMM_NULL;
  cartcoll::Schedule alltoall_plan_, gather_plan_;
};

// Makes the runs for one workload and owns their requests and buffers.
class Implementations {
 public:
  Implementations(const Communicators& comms, Workload& work) : comms_(comms), work_(work) {}
  ~Implementations();
  Implementations(const Implementations&) = delete;
  Implementations& operator=(const Implementations&) = delete;

  // The run of `impl`, or nullopt with `why` set where it does not apply here.
  std::optional<Run> make(const std::string& impl, std::string& why);

 private:
  Run cart_blocking(MPI_Comm cart);
  Run cart_persistent(MPI_Comm cart);
  Run mpi_blocking(MPI_Comm comm);
  Run mpi_nonblocking(MPI_Comm comm);
  std::optional<Run> mpi_persistent(MPI_Comm comm, std::string& why);
  Run ideal();

  const Communicators& comms_;
  Workload& work_;
  std::vector<std::unique_ptr<Cart_request>> cart_requests_;
  std::vector<std::unique_ptr<MPI_Request>> mpi_requests_;
  std::vector<std::unique_ptr<std::vector<char>>> ideal_buffers_;
};

// Whether the implementation's sends go through MPI's internal transport, invisible to PMPI.
inline bool is_mpi_collective(const std::string& impl) { return impl.starts_with("mpi-"); }

}  // namespace bench
