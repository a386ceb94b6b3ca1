// SPDX-License-Identifier: BSD-3-Clause
// Cart_neighborhood_create: agree on the arguments and the settings, then MPI_Cart_create and attach
// the state. Every collective step before MPI_Cart_create progresses outstanding operations (see
// collective.hpp); once every process has passed the first, all are here, so MPI's own blocking
// MPI_Cart_create and MPI_Comm_dup that follow wait for nobody who is waiting for us.
#include "create.hpp"

#include "runtime/selection/policy.hpp"

#include <string>

#include "runtime/exec/mpi_check.hpp"
#include "collective.hpp"
#include "settings.hpp"
#include "state.hpp"

namespace cartcoll::detail {

namespace {

NeighborhoodSpec parse_locally(MPI_Comm comm, const std::function<NeighborhoodSpec()>& parse) {
  NeighborhoodSpec spec = parse();
  int size = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (spec.grid.size() > size)
    throw Error(Errc::dims, "the grid has " + std::to_string(spec.grid.size()) + " processes, the communicator " +
                                std::to_string(size));
  if (spec.offsets.ndims() != spec.grid.ndims()) throw Error(Errc::arg, "offsets and grid differ in dimension");
  if (spec.weights && spec.weights->size() != static_cast<std::size_t>(spec.offsets.count()))
    throw Error(Errc::arg, "one weight per offset is needed");
  return spec;
}

// Step 1: everyone learns whether anyone failed locally (a bad argument or setting), and whether d, t,
// the algorithm, the node size and the settings agree.
void agree_on_shape(MPI_Comm comm, const std::optional<Error>& local_error, const NeighborhoodSpec* spec,
                    const Settings& settings) {
  std::vector<int> shape = settings_to_match(settings, spec ? spec->node_size : std::nullopt);
  shape.insert(shape.end(), {spec ? spec->grid.ndims() : 0, spec ? spec->offsets.count() : 0,
                             spec ? spec->algorithm.id() : 0});
  agree(comm, local_error, shape,
        Error(Errc::not_isomorphic, "processes passed different d, t, algorithm, node size, CARTCOLL_MAX_TAG or "
                                    "CARTCOLL_PROFILE"));
}

// Step 2: everyone compares dims, periods and offsets with rank 0's: O(t*d) data, two collectives.
void agree_on_neighborhood(MPI_Comm comm, const NeighborhoodSpec& spec) {
  std::vector<int> mine(spec.grid.dims().begin(), spec.grid.dims().end());
  for (int k = 0; k < spec.grid.ndims(); ++k) mine.push_back(spec.grid.periodic(k) ? 1 : 0);
  mine.insert(mine.end(), spec.offsets.flat().begin(), spec.offsets.flat().end());
  std::vector<int> root = mine;
  broadcast(comm, root, 0);
  int differs = root != mine ? 1 : 0;
  allreduce_max(comm, std::span<int>(&differs, 1));
  if (differs) throw Error(Errc::not_isomorphic, "processes passed different grids or offset lists");
}

// The node size MPI_COMM_TYPE_SHARED shows on `comm` (collective): the processes of a node when
// every node has that many and holds consecutive ranks, as block placement makes them; 0 (one node,
// as far as node-combining knows) where there is one node or the nodes are shaped otherwise.
int shared_memory_node_size(MPI_Comm comm) {
  MPI_Comm raw = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &raw), "MPI_Comm_split_type");
  const Communicator node(raw);
  int size = 0, rank = 0, members = 0;
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(node.get(), &members), "MPI_Comm_size");
  int ends[] = {-rank, rank};  // the node's lowest and highest rank
  allreduce_max(node.get(), ends);
  const bool consecutive = ends[1] + ends[0] + 1 == members && -ends[0] % members == 0;
  int verdict[] = {consecutive ? 0 : 1, members, -members};
  allreduce_max(comm, verdict);
  const bool regular = verdict[0] == 0 && verdict[1] == -verdict[2];
  return regular && members < size ? members : 0;
}

}  // namespace

int node_size_for(MPI_Comm comm, std::optional<int> configured, bool may_use) {
  if (configured) return *configured;
  return may_use ? shared_memory_node_size(comm) : 0;
}

namespace {

// On a Cartesian communicator `auto` may use node-combining too.
int node_size_of(MPI_Comm cart, const NeighborhoodSpec& spec) {
  return node_size_for(cart, spec.node_size, may_use_nodes(spec.algorithm));
}

Communicator make_cartesian(MPI_Comm comm, NeighborhoodSpec spec, Settings settings, bool reorder) {
  std::vector<int> dims(spec.grid.dims().begin(), spec.grid.dims().end()), periods;
  for (int k = 0; k < spec.grid.ndims(); ++k) periods.push_back(spec.grid.periodic(k) ? 1 : 0);
  MPI_Comm cart = MPI_COMM_NULL;
  check(MPI_Cart_create(comm, spec.grid.ndims(), dims.data(), periods.data(), reorder ? 1 : 0, &cart),
        "MPI_Cart_create");
  Communicator result(cart);
  if (!result) return result;
  int rank = 0;
  check(MPI_Comm_rank(cart, &rank), "MPI_Comm_rank");
  std::vector<int> coords = spec.grid.coords_of(rank);
  const int node_size = node_size_of(cart, spec);
  Neighborhood neighborhood(CartesianNeighborhood{std::move(spec.grid), std::move(spec.offsets), std::move(coords), {},
                                                  {}, std::nullopt, node_size});
  attach_state(cart, std::make_shared<CommState>(std::move(neighborhood), Weights{spec.weights, spec.weights}, rank,
                                                 Origin::cartesian_create, settings, std::make_shared<LibraryComm>(cart)));
  return result;
}

}  // namespace

Communicator create_collectively(MPI_Comm comm, const std::function<NeighborhoodSpec()>& parse, bool reorder) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  std::optional<NeighborhoodSpec> spec;
  std::optional<Error> local_error;
  Settings settings;
  try {
    int rank = 0;
    check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    std::optional<int> graph_node_size;  // the Cartesian node size is the spec's (info too)
    read_all_settings(settings, graph_node_size, MPI_INFO_NULL, rank == 0);  // a bad one fails, agreed
    spec = parse_locally(comm, parse);
  } catch (const Error& error) {
    local_error = error;
    settings = Settings{};
  }
  agree_on_shape(comm, local_error, spec ? &*spec : nullptr, settings);
  agree_on_neighborhood(comm, *spec);
  share_profile(comm, settings);
  settings.algorithm = spec->algorithm;
  return make_cartesian(comm, std::move(*spec), settings, reorder);
}

}  // namespace cartcoll::detail

namespace cartcoll {

Communicator Communicator::create(MPI_Comm comm, const Grid& grid, const Offsets& offsets,
                                  const CreateOptions& options) {
  return detail::create_collectively(
      comm,
      [&] {
        return detail::NeighborhoodSpec{grid, offsets, options.weights,
                                         detail::effective_algorithm(options.info, Algorithm::automatic()),
                                         detail::node_size_setting(options.info)};
      },
      options.reorder);
}

}  // namespace cartcoll
