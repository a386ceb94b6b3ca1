// SPDX-License-Identifier: BSD-3-Clause
// The machine profile (policy.hpp): this machine's cost model under this MPI, measured once and kept
// in a file, in the format of cartcoll-calibrate's (latency, per message, per byte).
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cartcoll/cartcoll.hpp"
#include "cartcoll/error.hpp"
#include "policy.hpp"
#include "runtime/comm/keyval.hpp"
#include "runtime/exec/mpi_check.hpp"

namespace cartcoll::detail {

namespace {

// CARTCOLL_CACHE_DIR, else $XDG_CACHE_HOME/cartcoll, else $HOME/.cache/cartcoll; empty if none.
std::filesystem::path cache_directory() {
  if (const char* dir = std::getenv("CARTCOLL_CACHE_DIR"); dir != nullptr && *dir != '\0') return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0')
    return std::filesystem::path(xdg) / "cartcoll";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::filesystem::path(home) / ".cache" / "cartcoll";
  return {};
}

// What the profile is of: this host and the MPI library's version line.
std::string identity() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  check(MPI_Get_library_version(version, &length), "MPI_Get_library_version");
  check(MPI_Get_processor_name(host, &length), "MPI_Get_processor_name");
  std::string line(version);
  line = line.substr(0, line.find('\n'));
  return std::string(host) + " " + line;
}

// The file of this machine and MPI: named by a digest of identity() (FNV-1a).
std::filesystem::path profile_file() {
  const std::filesystem::path directory = cache_directory();
  if (directory.empty()) return {};
  std::uint64_t digest = 14695981039346656037ULL;
  for (unsigned char c : identity()) digest = (digest ^ c) * 1099511628211ULL;
  char name[48];
  std::snprintf(name, sizeof name, "machine-profile-%016llx.txt", static_cast<unsigned long long>(digest));
  return directory / name;
}

// The profile this process last read or measured, and the file it is (or would be) kept in.
struct Kept {
  std::filesystem::path file;
  std::optional<CostModel> model;
};

int delete_kept(MPI_Comm, int, void* value, void*) {
  delete static_cast<Kept*>(value);
  return MPI_SUCCESS;
}

// An attribute of MPI_COMM_SELF (gone at MPI_Finalize), so that where no file can be kept (no cache
// directory, or one that cannot be written) a process still measures only once.
Kept& kept_in_process() {
  static const int keyval = create_keyval_freed_at_finalize(MPI_COMM_NULL_COPY_FN, delete_kept);
  void* value = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(MPI_COMM_SELF, keyval, &value, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<Kept*>(value);
  auto made = std::make_unique<Kept>();
  check(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, made.get()), "MPI_Comm_set_attr");
  return *made.release();
}

}  // namespace

bool machine_profile_from_environment() {
  const char* value = std::getenv("CARTCOLL_MACHINE_PROFILE");
  if (value == nullptr || *value == '\0' || std::string_view(value) == "auto") return true;
  if (std::string_view(value) == "off") return false;
  throw Error(Errc::arg, std::string("CARTCOLL_MACHINE_PROFILE must be auto or off, not '") + value + "'");
}

std::optional<CostModel> cached_machine_profile() {
  Kept& kept = kept_in_process();
  const std::filesystem::path file = profile_file();
  if (kept.file != file) kept = Kept{file, std::nullopt};  // another cache directory
  std::ifstream in(file);
  if (!file.empty() && in)
    if (std::optional<CostModel> read = cost_model_in(in, nullptr)) kept.model = read;
  return kept.model;  // a file that is missing or damaged: what this process kept, if anything
}

CostModel measure_machine_profile(MPI_Comm comm) {
  const CostModel model = cartcoll::calibrate(comm);
  kept_in_process() = Kept{profile_file(), model};
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const std::filesystem::path file = profile_file();
  if (rank != 0 || file.empty()) return model;
  // Written beside and renamed, so that a reader never sees half a file; a directory that cannot be
  // written leaves the profile unkept, which costs only the next run a measurement.
  std::error_code ignored;
  std::filesystem::create_directories(file.parent_path(), ignored);
  const std::filesystem::path part = file.string() + ".part." + std::to_string(::getpid());
  {
    std::ofstream out(part);
    out.precision(17);
    out << model.latency << ' ' << model.per_message << ' ' << model.per_byte << '\n';
    if (!out) return model;
  }
  std::filesystem::rename(part, file, ignored);
  if (ignored) std::filesystem::remove(part, ignored);
  return model;
}

}  // namespace cartcoll::detail
