// Cart_neighborhood_create: agree on the arguments and the settings, then MPI_Cart_create and attach
// the state. Every collective step before MPI_Cart_create progresses outstanding operations (see
// collective.hpp); once every process has passed the first, all are here, so MPI's own blocking
// MPI_Cart_create and MPI_Comm_dup that follow wait for nobody who is waiting for us.
#include "create.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include "../exec/mpi_check.hpp"
#include "collective.hpp"
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

int max_tag_from_environment() {
  const char* value = std::getenv("CARTCOLL_MAX_TAG");
  if (value == nullptr || *value == '\0') return std::numeric_limits<int>::max();
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || parsed < 0) throw Error(Errc::arg, "CARTCOLL_MAX_TAG must be a non-negative integer");
  return static_cast<int>(std::min<long>(parsed, std::numeric_limits<int>::max()));
}

// Step 1: everyone learns whether anyone failed locally, and whether d, t, the algorithm and the
// tag range agree.
void agree_on_shape(MPI_Comm comm, const std::optional<Error>& local_error, const NeighborhoodSpec* spec,
                    int max_tag) {
  const int shape[] = {spec ? spec->grid.ndims() : 0, spec ? spec->offsets.count() : 0,
                       spec ? spec->algorithm.id() : 0, max_tag};
  agree(comm, local_error, shape,
        Error(Errc::not_isomorphic, "processes passed different d, t, algorithm or CARTCOLL_MAX_TAG"));
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

// The cost model in the file CARTCOLL_PROFILE names (written by cartcoll-calibrate), as rank 0
// reads it, so that every process has the same.
std::optional<CostModel> profile_model(MPI_Comm comm) {
  double values[4] = {0, 0, 0, 0};  // found, latency, per message, per byte
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const char* profile = std::getenv("CARTCOLL_PROFILE");
  if (rank == 0 && profile != nullptr && *profile != '\0') {
    std::ifstream in(profile);
    if (in >> values[1] >> values[2] >> values[3]) values[0] = 1;
  }
  broadcast(comm, values, 0);
  if (values[0] == 0) return std::nullopt;
  return CostModel{values[1], values[2], values[3]};
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
  attach_state(cart, std::make_shared<CommState>(std::move(spec.grid), std::move(spec.offsets), std::move(spec.weights),
                                                 rank, settings, std::make_shared<LibraryComm>(cart)));
  return result;
}

}  // namespace

Communicator create_collectively(MPI_Comm comm, const std::function<NeighborhoodSpec()>& parse, bool reorder) {
  if (comm == MPI_COMM_NULL) throw Error(Errc::comm, "MPI_COMM_NULL");
  std::optional<NeighborhoodSpec> spec;
  std::optional<Error> local_error;
  Settings settings;
  try {
    settings.max_tag = max_tag_from_environment();
    spec = parse_locally(comm, parse);
  } catch (const Error& error) {
    local_error = error;
  }
  agree_on_shape(comm, local_error, spec ? &*spec : nullptr, settings.max_tag);
  agree_on_neighborhood(comm, *spec);
  settings.algorithm = spec->algorithm;
  settings.profile = profile_model(comm);
  settings.verbose_auto = std::getenv("CARTCOLL_VERBOSE_AUTO") != nullptr;
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
                                         detail::effective_algorithm(options.info, Algorithm::automatic())};
      },
      options.reorder);
}

}  // namespace cartcoll
