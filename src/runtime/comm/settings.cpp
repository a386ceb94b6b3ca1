// SPDX-License-Identifier: BSD-3-Clause
#include "settings.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <span>
#include <string>

#include "runtime/exec/mpi_check.hpp"
#include "runtime/progress/progress.hpp"
#include "cartcoll/error.hpp"
#include "collective.hpp"
#include "runtime/selection/policy.hpp"

namespace cartcoll::detail {


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

namespace {

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


std::vector<std::vector<int>> default_setup_parameters() {
  std::vector<std::vector<int>> values;
  for (const PlannerEntry& planner : planners()) {
    values.emplace_back();
    if (planner.setup != nullptr)
      for (const SetupParameter& parameter : planner.setup->parameters) values.back().push_back(parameter.fallback);
  }
  return values;
}

namespace {

int setup_parameter(MPI_Info info, const SetupParameter& parameter) {
  std::string variable = "CARTCOLL_", key = "cartcoll_";
  for (char c : parameter.name) variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  key += parameter.name;
  const int value = integer_setting(info, variable.c_str(), key.c_str(), parameter.fallback);
  if (value != parameter_unset && value < parameter.minimum)
    throw Error(Errc::info_value, variable + " / " + key + " must be at least " + std::to_string(parameter.minimum));
  return value;
}

}  // namespace

std::vector<std::vector<int>> setup_parameters(MPI_Info info) {
  std::vector<std::vector<int>> values;
  for (const PlannerEntry& planner : planners()) {
    values.emplace_back();
    if (planner.setup == nullptr) continue;
    for (const SetupParameter& parameter : planner.setup->parameters) values.back().push_back(setup_parameter(info, parameter));
    if (planner.setup->validate != nullptr) planner.setup->validate(values.back());
  }
  return values;
}

bool uniform_blocks_setting(MPI_Info info) {
  bool uniform = false;
  if (const auto text = setting_text(info, "CARTCOLL_ASSERT_UNIFORM_BLOCKS", "cartcoll_assert_uniform_blocks")) {
    if (*text != "true" && *text != "false")
      throw Error(Errc::info_value, "CARTCOLL_ASSERT_UNIFORM_BLOCKS / cartcoll_assert_uniform_blocks: '" + *text +
                                        "' is neither true nor false");
    uniform = *text == "true";
  }
  return uniform;
}

std::optional<int> node_size_setting(MPI_Info info) {
  constexpr int unset = std::numeric_limits<int>::min();
  const int size = integer_setting(info, "CARTCOLL_NODE_SIZE", "cartcoll_node_size", unset);
  if (size == unset) return std::nullopt;
  if (size < 1) throw Error(Errc::info_value, "CARTCOLL_NODE_SIZE / cartcoll_node_size must be at least 1");
  return size;
}


namespace {

// CARTCOLL_MAX_TAG: the tag range's top, at least 127 (a persistent window and the blocking tag
// need that many), else the largest int (the communicator then uses MPI_TAG_UB).
int max_tag_from_environment() {
  const char* value = std::getenv("CARTCOLL_MAX_TAG");
  if (value == nullptr || *value == '\0') return std::numeric_limits<int>::max();
  char* end = nullptr;
  errno = 0;
  const long parsed = std::strtol(value, &end, 10);
  if (*end != '\0' || errno == ERANGE || parsed < 127 || parsed > std::numeric_limits<int>::max())
    throw Error(Errc::arg, "CARTCOLL_MAX_TAG must be an integer from 127 to " +
                               std::to_string(std::numeric_limits<int>::max()) + ", not '" + value + "'");
  return static_cast<int>(parsed);
}

std::size_t stage_up_to_from_environment() {
  const char* value = std::getenv("CARTCOLL_STAGE_BYTES");
  if (value == nullptr || *value == '\0') return default_stage_up_to();
  char* end = nullptr;
  errno = 0;
  const long long parsed = std::strtoll(value, &end, 10);
  if (*end != '\0' || errno == ERANGE || parsed < 0)
    throw Error(Errc::arg, std::string("CARTCOLL_STAGE_BYTES must be a non-negative integer, not '") + value + "'");
  return static_cast<std::size_t>(parsed);
}

// The cost model in the file CARTCOLL_PROFILE names (written by cartcoll-calibrate: latency, per
// message, per byte), nullopt where the variable is unset.
std::optional<CostModel> profile_from_environment() {
  const char* profile = std::getenv("CARTCOLL_PROFILE");
  if (profile == nullptr || *profile == '\0') return std::nullopt;
  std::ifstream in(profile);
  if (!in) throw Error(Errc::arg, std::string("CARTCOLL_PROFILE: cannot read '") + profile + "'");
  std::string wrong;
  const std::optional<CostModel> model = cost_model_in(in, &wrong);
  if (!model) throw Error(Errc::arg, std::string("CARTCOLL_PROFILE: '") + profile + "' " + wrong);
  return model;
}


// A digest of a text (for agree()); unset and empty alike.
SizeDigest text_digest(const char* text) {
  std::vector<std::uint64_t> characters;
  for (const char* c = text; c != nullptr && *c != '\0'; ++c) characters.push_back(static_cast<unsigned char>(*c));
  return digest_of(characters);
}

}  // namespace

std::size_t default_stage_up_to() noexcept {
  // Up to where two copies cost less than the MPI's own handling of a struct datatype, measured on
  // 16 cores (docs/performance.md, "Staged messages"): MPICH's (ch4:ucx) tens of kilobytes, Open
  // MPI's a few. MPICH is told by its identity macro: its derivatives share its datatype engine.
#ifdef MPICH
  return 65536;
#else
  return 4096;
#endif
}

void read_environment_settings(Settings& settings, bool read_profile) {
  if (auto error = ProgressEngine::setting_error_once()) throw *error;
  settings.max_tag = max_tag_from_environment();
  settings.stage_up_to = stage_up_to_from_environment();
  settings.verbose_auto = std::getenv("CARTCOLL_VERBOSE_AUTO") != nullptr;
  if (read_profile) settings.profile = profile_from_environment();
  settings.machine_profile = machine_profile_from_environment();
}

std::optional<CostModel> cost_model_in(std::istream& in, std::string* wrong) {
  double values[3] = {0, 0, 0};
  const bool numbers = static_cast<bool>(in >> values[0] >> values[1] >> values[2]);
  in >> std::ws;
  if (!numbers || !in.eof()) {
    if (wrong != nullptr) *wrong = "does not hold exactly three numbers";
    return std::nullopt;
  }
  for (double value : values)
    if (!std::isfinite(value) || value < 0) {
      if (wrong != nullptr) *wrong = "holds a negative or infinite cost";
      return std::nullopt;
    }
  return CostModel{values[0], values[1], values[2]};
}

void read_all_settings(Settings& settings, std::optional<int>& node_size, MPI_Info info, bool read_profile) {
  read_environment_settings(settings, read_profile);
  settings.algorithm = effective_algorithm(info, Algorithm::automatic());
  settings.setup_parameters = setup_parameters(info);
  settings.uniform_blocks = uniform_blocks_setting(info);
  node_size = node_size_setting(info);
}

std::vector<int> settings_to_match(const Settings& settings, std::optional<int> node_size) {
  const SizeDigest profile = text_digest(std::getenv("CARTCOLL_PROFILE"));
  std::vector<int> values{settings.algorithm.id(),  settings.max_tag, profile[0], profile[1], node_size.value_or(0),
                          settings.uniform_blocks ? 1 : 0, settings.machine_profile ? 1 : 0};
  for (const std::vector<int>& parameters : settings.setup_parameters)
    values.insert(values.end(), parameters.begin(), parameters.end());
  return values;
}

namespace {

// A cost model in four doubles: whether there is one, then its figures.
void put(std::span<double, 4> values, const std::optional<CostModel>& model) {
  if (!model) return;
  const std::array<double, 4> figures{1, model->latency, model->per_message, model->per_byte};
  std::copy(figures.begin(), figures.end(), values.begin());
}

std::optional<CostModel> got(std::span<const double, 4> values) {
  if (values[0] == 0) return std::nullopt;
  return CostModel{values[1], values[2], values[3]};
}

}  // namespace

namespace {

// Rank 0's profile, then its machine profile where wanted (zeros elsewhere), and whether this
// process is rank 0.
std::pair<std::array<double, 8>, bool> root_profiles(MPI_Comm comm, const Settings& settings) {
  int processes = 0, rank = 0;
  check(MPI_Comm_size(comm, &processes), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  std::array<double, 8> values{};
  if (rank == 0) {
    put(std::span(values).first<4>(), settings.profile);
    if (wants_machine_profile(settings, processes)) put(std::span(values).last<4>(), cached_machine_profile());
  }
  return {values, rank == 0};
}

// The profiles rank 0 sent, the machine profile measured where wanted and none came.
void take_profiles(MPI_Comm comm, std::span<const double, 8> values, Settings& settings) {
  settings.profile = got(values.first<4>());
  settings.machine = got(values.last<4>());
  int processes = 0;
  check(MPI_Comm_size(comm, &processes), "MPI_Comm_size");
  if (wants_machine_profile(settings, processes) && !settings.machine) settings.machine = measure_machine_profile(comm);
}

}  // namespace

void share_profile(MPI_Comm comm, Settings& settings) {
  auto values = root_profiles(comm, settings).first;
  broadcast(comm, values, 0);
  take_profiles(comm, values, settings);
}

std::optional<Error> read_settings_to_agree(MPI_Comm comm, MPI_Info info, Settings& settings,
                                           std::optional<int>& node_size) {
  try {
    int rank = 0;
    check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    read_all_settings(settings, node_size, info, rank == 0);
  } catch (const Error& local) {
    settings = Settings{};
    node_size.reset();
    return local;
  }
  return std::nullopt;
}

ProfileSlots put_settings(Agreement& agreement, MPI_Comm comm, const Settings& settings, std::optional<int> node_size,
                          const Error& mismatch) {
  for (int value : settings_to_match(settings, node_size)) agreement.must_match(value, mismatch);
  const auto [values, root] = root_profiles(comm, settings);
  const ProfileSlots first = agreement.from_root(values[0], root);
  for (std::size_t i = 1; i < values.size(); ++i) agreement.from_root(values[i], root);
  return first;
}

void take_profiles(MPI_Comm comm, const Agreement& agreement, ProfileSlots first, Settings& settings) {
  std::array<double, 8> values{};
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = agreement.root_value(first + i);
  take_profiles(comm, values, settings);
}

Settings agreed_settings(MPI_Comm comm, MPI_Info info, std::optional<int>& node_size) {
  Settings settings;
  const std::optional<Error> error = read_settings_to_agree(comm, info, settings, node_size);
  Agreement agreement;
  const ProfileSlots profiles = put_settings(agreement, comm, settings, node_size, settings_mismatch());
  agreement.run(comm, error);
  take_profiles(comm, agreement, profiles, settings);
  return settings;
}

Error settings_mismatch() {
  return Error(Errc::arg, "processes have different settings: algorithms, CARTCOLL_MAX_TAG, CARTCOLL_PROFILE, "
                          "set-up parameters, node sizes or the uniform-blocks assertion");
}

Settings local_settings(MPI_Info info) {
  Settings settings;
  std::optional<int> node_size;
  read_all_settings(settings, node_size, info, true);
  return settings;
}

}  // namespace cartcoll::detail
