// Cart_neighborhood_create: agree on the arguments, then MPI_Cart_create and attach the state.
#include "create.hpp"

#include <string>

#include "../exec/mpi_check.hpp"
#include "state.hpp"

namespace cartcoll::detail {

Algorithm effective_algorithm(MPI_Info info, Algorithm fallback) {
  if (auto chosen = algorithm_from_environment()) return *chosen;
  if (auto chosen = algorithm_from_info(info)) return *chosen;
  return fallback;
}

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

// Step 1: everyone learns whether anyone failed locally, and whether d, t and the algorithm agree.
void agree_on_shape(MPI_Comm comm, const std::optional<Error>& local_error, const NeighborhoodSpec* spec) {
  const int error = local_error ? static_cast<int>(local_error->kind()) + 1 : 0;
  const int d = spec ? spec->grid.ndims() : 0, t = spec ? spec->offsets.count() : 0;
  const int algorithm = spec ? static_cast<int>(spec->algorithm) : 0;
  int values[7] = {error, d, t, algorithm, -d, -t, -algorithm};
  check(MPI_Allreduce(MPI_IN_PLACE, values, 7, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
  if (local_error) throw *local_error;
  if (values[0] != 0)
    throw Error(static_cast<Errc>(values[0] - 1), "another process passed a bad argument to Cart_neighborhood_create");
  if (values[1] != -values[4] || values[2] != -values[5] || values[3] != -values[6])
    throw Error(Errc::not_isomorphic, "processes passed different d, t or algorithm");
}

// Step 2: everyone compares dims, periods and offsets with rank 0's: O(t*d) data, two collectives.
void agree_on_neighborhood(MPI_Comm comm, const NeighborhoodSpec& spec) {
  std::vector<int> mine(spec.grid.dims().begin(), spec.grid.dims().end());
  for (int k = 0; k < spec.grid.ndims(); ++k) mine.push_back(spec.grid.periodic(k) ? 1 : 0);
  mine.insert(mine.end(), spec.offsets.flat().begin(), spec.offsets.flat().end());
  std::vector<int> root = mine;
  check(MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_INT, 0, comm), "MPI_Bcast");
  int differs = root != mine ? 1 : 0;
  check(MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
  if (differs) throw Error(Errc::not_isomorphic, "processes passed different grids or offset lists");
}

Communicator make_cartesian(MPI_Comm comm, NeighborhoodSpec spec, bool reorder) {
  std::vector<int> dims(spec.grid.dims().begin(), spec.grid.dims().end()), periods;
  for (int k = 0; k < spec.grid.ndims(); ++k) periods.push_back(spec.grid.periodic(k) ? 1 : 0);
  MPI_Comm cart = MPI_COMM_NULL;
  check(MPI_Cart_create(comm, spec.grid.ndims(), dims.data(), periods.data(), reorder ? 1 : 0, &cart),
        "MPI_Cart_create");
  Communicator result(cart);
  if (!result) return result;
  int rank = 0;
  check(MPI_Comm_rank(cart, &rank), "MPI_Comm_rank");
  auto state = std::make_unique<NeighborhoodState>(std::move(spec.grid), std::move(spec.offsets),
                                                   std::move(spec.weights), spec.algorithm, rank);
  state->library_comm(cart);
  attach_state(cart, std::move(state));
  return result;
}

}  // namespace

Communicator create_collectively(MPI_Comm comm, const std::function<NeighborhoodSpec()>& parse, bool reorder) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  std::optional<NeighborhoodSpec> spec;
  std::optional<Error> local_error;
  try {
    spec = parse_locally(comm, parse);
  } catch (const Error& error) {
    local_error = error;
  }
  agree_on_shape(comm, local_error, spec ? &*spec : nullptr);
  agree_on_neighborhood(comm, *spec);
  return make_cartesian(comm, std::move(*spec), reorder);
}

}  // namespace cartcoll::detail

namespace cartcoll {

Communicator Communicator::create(MPI_Comm comm, const Grid& grid, const Offsets& offsets,
                                  const CreateOptions& options) {
  return detail::create_collectively(
      comm,
      [&] {
        return detail::NeighborhoodSpec{grid, offsets, options.weights,
                                         detail::effective_algorithm(options.info, Algorithm::automatic)};
      },
      options.reorder);
}

}  // namespace cartcoll
