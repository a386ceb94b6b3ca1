#include "settings.hpp"

#include <cstdlib>
#include <fstream>
#include <string>

#include "../exec/mpi_check.hpp"
#include "cartcoll/error.hpp"
#include "collective.hpp"

namespace cartcoll::detail {

namespace {

Algorithm parse_or_throw(const std::string& name, const char* source) {
  auto algorithm = Algorithm::parse(name);
  if (!algorithm) throw Error(Errc::info_value, std::string(source) + ": unknown algorithm '" + name + "'");
  return *algorithm;
}

}  // namespace

std::optional<Algorithm> algorithm_from_environment() {
  const char* name = std::getenv("CARTCOLL_ALGORITHM");
  if (name == nullptr || *name == '\0') return std::nullopt;
  return parse_or_throw(name, "CARTCOLL_ALGORITHM");
}

namespace {

std::optional<std::string> info_value(MPI_Info info, const char* name) {
  if (info == MPI_INFO_NULL) return std::nullopt;
  std::string key(name);
  int length = 0, found = 0;
  check(MPI_Info_get_valuelen(info, key.data(), &length, &found), "MPI_Info_get_valuelen");
  if (!found) return std::nullopt;
  std::string value(static_cast<std::size_t>(length) + 1, '\0');
  check(MPI_Info_get(info, key.data(), length + 1, value.data(), &found), "MPI_Info_get");
  value.resize(static_cast<std::size_t>(length));
  return value;
}

// The environment variable's text, else the info key's; nullopt if neither is set.
std::optional<std::string> setting_text(MPI_Info info, const char* variable, const char* key) {
  const char* from_environment = std::getenv(variable);
  if (from_environment != nullptr && *from_environment != '\0') return from_environment;
  return info_value(info, key);
}

// The environment variable, else the info key, parsed as an int; `fallback` if neither is set.
int integer_setting(MPI_Info info, const char* variable, const char* key, int fallback) {
  const std::optional<std::string> text = setting_text(info, variable, key);
  if (!text) return fallback;
  char* end = nullptr;
  const long parsed = std::strtol(text->c_str(), &end, 10);
  if (text->empty() || *end != '\0' || parsed < std::numeric_limits<int>::min() || parsed > std::numeric_limits<int>::max())
    throw Error(Errc::info_value, std::string(variable) + " / " + key + ": '" + *text + "' is not an integer");
  return static_cast<int>(parsed);
}

}  // namespace

std::optional<Algorithm> algorithm_from_info(MPI_Info info) {
  const auto value = info_value(info, "cartcoll_algorithm");
  if (!value) return std::nullopt;
  return parse_or_throw(*value, "info key cartcoll_algorithm");
}

CombiningParameters combining_parameters(MPI_Info info) {
  CombiningParameters parameters;
  parameters.threshold =
      integer_setting(info, "CARTCOLL_COMBINING_THRESHOLD", "cartcoll_combining_threshold", parameters.threshold);
  parameters.steps = integer_setting(info, "CARTCOLL_COMBINING_STEPS", "cartcoll_combining_steps", parameters.steps);
  parameters.phases = integer_setting(info, "CARTCOLL_COMBINING_PHASES", "cartcoll_combining_phases", parameters.phases);
  validate(parameters);
  return parameters;
}

bool phase_budget_given(MPI_Info info) {
  return setting_text(info, "CARTCOLL_COMBINING_PHASES", "cartcoll_combining_phases").has_value();
}

RoutingSettings routing_settings(MPI_Info info, Algorithm algorithm) {
  RoutingSettings routing;
  if (const auto text = setting_text(info, "CARTCOLL_ASSERT_UNIFORM_BLOCKS", "cartcoll_assert_uniform_blocks")) {
    if (*text != "true" && *text != "false")
      throw Error(Errc::info_value, "CARTCOLL_ASSERT_UNIFORM_BLOCKS / cartcoll_assert_uniform_blocks: '" + *text +
                                        "' is neither true nor false");
    routing.uniform_blocks = *text == "true";
  }
  routing.dims = integer_setting(info, "CARTCOLL_ROUTING_DIMS", "cartcoll_routing_dims", 0);
  if (routing.dims < 0) throw Error(Errc::info_value, "CARTCOLL_ROUTING_DIMS / cartcoll_routing_dims must not be negative");
  if (!algorithm.is_automatic() && algorithm.planner().needs_routing && !routing.uniform_blocks)
    throw Error(Errc::info_value, std::string(algorithm.name()) +
                                      " holds blocks of processes it has no edge with: it needs "
                                      "cartcoll_assert_uniform_blocks=true (CARTCOLL_ASSERT_UNIFORM_BLOCKS)");
  return routing;
}

std::optional<int> node_size_setting(MPI_Info info) {
  constexpr int unset = std::numeric_limits<int>::min();
  const int size = integer_setting(info, "CARTCOLL_NODE_SIZE", "cartcoll_node_size", unset);
  if (size == unset) return std::nullopt;
  if (size < 1) throw Error(Errc::info_value, "CARTCOLL_NODE_SIZE / cartcoll_node_size must be at least 1");
  return size;
}

Algorithm effective_algorithm(MPI_Info info, Algorithm fallback) {
  if (auto chosen = algorithm_from_environment()) return *chosen;
  if (auto chosen = algorithm_from_info(info)) return *chosen;
  return fallback;
}

int max_tag_from_environment() {
  const char* value = std::getenv("CARTCOLL_MAX_TAG");
  if (value == nullptr || *value == '\0') return std::numeric_limits<int>::max();
  char* end = nullptr;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || parsed < 0) throw Error(Errc::arg, "CARTCOLL_MAX_TAG must be a non-negative integer");
  return static_cast<int>(std::min<long>(parsed, std::numeric_limits<int>::max()));
}

std::size_t stage_up_to_from_environment() {
  // Up to where two copies cost less than the MPI's own handling of a struct datatype, measured on
  // 16 cores (docs/performance.md, "Staged messages"): MPICH's (ch4:ucx) tens of kilobytes, Open
  // MPI's a few. MPICH is told by its identity macro: its derivatives share its datatype engine.
#ifdef MPICH
  constexpr std::size_t default_up_to = 65536;
#else
  constexpr std::size_t default_up_to = 4096;
#endif
  const char* value = std::getenv("CARTCOLL_STAGE_BYTES");
  if (value == nullptr || *value == '\0') return default_up_to;
  char* end = nullptr;
  const long long parsed = std::strtoll(value, &end, 10);
  if (*end != '\0' || parsed < 0) throw Error(Errc::arg, "CARTCOLL_STAGE_BYTES must be a non-negative integer");
  return static_cast<std::size_t>(parsed);
}

namespace {

// The cost model in the file CARTCOLL_PROFILE names (written by cartcoll-calibrate): found, latency,
// per message, per byte.
void read_profile(double values[4]) {
  const char* profile = std::getenv("CARTCOLL_PROFILE");
  if (profile == nullptr || *profile == '\0') return;
  std::ifstream in(profile);
  if (in >> values[1] >> values[2] >> values[3]) values[0] = 1;
}

std::optional<CostModel> model_of(const double values[4]) {
  if (values[0] == 0) return std::nullopt;
  return CostModel{values[1], values[2], values[3]};
}

}  // namespace

Settings settings_at_creation(MPI_Comm comm, Algorithm algorithm, int max_tag) {
  double values[4] = {0, 0, 0, 0};
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  if (rank == 0) read_profile(values);
  broadcast(comm, values, 0);
  return {algorithm, model_of(values), std::getenv("CARTCOLL_VERBOSE_AUTO") != nullptr, max_tag, {}};
}

Settings settings_of_environment() {
  double values[4] = {0, 0, 0, 0};
  read_profile(values);
  return {effective_algorithm(MPI_INFO_NULL, Algorithm::automatic()), model_of(values),
          std::getenv("CARTCOLL_VERBOSE_AUTO") != nullptr, max_tag_from_environment(),
          combining_parameters(MPI_INFO_NULL)};
}

}  // namespace cartcoll::detail
