#pragma once
// The three ways to run a collective on a communicator's state — blocking, nonblocking, persistent —
// shared by every face of the library (CartComm for Cart_*, NeighborComm for CC_*).
#include <functional>
#include <memory>

#include "cartcoll/cartcoll.hpp"
#include "state.hpp"

namespace cartcoll::detail {

void check_layout(const CommState& state, const Layout& layout, Contract contract);

// What a blocking call with this layout runs (collective where `auto` measures).
Algorithm choose(CommState& state, const Layout& layout, Contract contract);
void exchange(CommState& state, const Layout& layout, Contract contract);
// The same for alltoall and allgather, recognizing a repeated call by its arguments.
void exchange(CommState& state, const RegularArguments& arguments, Contract contract);
// Never blocks and never communicates before it returns.
Request iexchange(const std::shared_ptr<CommState>& state, MPI_Comm user_comm, const Layout& layout, Contract contract);
// Collective: processes agree on errors, the algorithm and the request's tag.
Request exchange_init(const std::shared_ptr<CommState>& state, MPI_Comm user_comm,
                      const std::function<Layout()>& make_layout, const RequestOptions& options, Contract contract);

}  // namespace cartcoll::detail
