// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Command-line parsing shared by the tools (MPI-free): numbers that must be numbers, lists, the
// neighborhood options every tool accepts, and what every tool says the same way (--help,
// --version, a bad argument).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cartcoll::cli {

// An integer, optionally signed and surrounded by blanks; nullopt for anything else.
std::optional<int> parse_int(std::string_view text);
// A finite number in strtod's syntax; nullopt for anything else.
std::optional<double> parse_double(std::string_view text);
std::vector<std::string_view> split(std::string_view text, char separator);

// "cartcoll-plan (cartcoll) 0.2.0": what --version prints, the version being CMake's project version.
std::string version_line(std::string_view tool);
// The one line a tool prints for a bad command line: "cartcoll-plan: unknown option '--foo'; see --help".
std::string bad_argument_line(std::string_view tool, std::string_view problem);
// The problem for an argument no option takes: "unknown option '--foo'", or "unexpected argument 'foo'"
// for one that is no option.
std::string unknown_argument(std::string_view argument);
// Whether this process should print what every process would print alike (usage, a bad argument)
// before MPI_Init: true unless a launcher's environment says its rank is not 0.
bool first_launched_process();

// Generated neighborhoods are enumerated in full: at most this many vectors, and this many dimensions.
inline constexpr long long max_enumerated = 1LL << 22;
inline constexpr int max_dims = 16;

struct Neighborhood {
  int d = 0;
  std::vector<int> flat;    // d coordinates per offset
  std::string label;        // short, for file names and CSV: "moore-3-1"
  std::string description;  // for people: "Moore d=3 r=1"
  int radius = 0;           // R of --moore, --von-neumann, --octant; 0 for the others
};

// The neighborhood options (see neighborhood_usage()). If args[i] is one, consumes it and its
// values, advancing i to the last value, stores the neighborhood and returns true; a bad value sets
// `error` (and returns true). Returns false, touching nothing, for any other argument.
bool parse_neighborhood(std::span<const std::string> args, std::size_t& i, Neighborhood& out, std::string& error);
// Lines for a tool's usage text, one per neighborhood option.
const char* neighborhood_usage();

// "x,y;x,y;..." -> flat offsets; every vector must have as many coordinates as the first (sets d).
std::optional<std::vector<int>> parse_offset_list(std::string_view text, int& d, std::string& error);

}  // namespace cartcoll::cli
