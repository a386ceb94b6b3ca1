#pragma once
// Command-line parsing shared by cartcoll-plan, cartcoll-plan-time and cartcoll-bench (MPI-free):
// numbers that must be numbers, lists, and the neighborhood options every tool accepts.
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
