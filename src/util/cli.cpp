// SPDX-License-Identifier: BSD-3-Clause
#include "cli.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cartcoll/version.h"
#include "core/model/neighborhoods.hpp"

namespace cartcoll::cli {

namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// n^d, or -1 where it exceeds `limit`.
long long power_capped(int n, int d, long long limit) {
  long long total = 1;
  for (int k = 0; k < d; ++k) {
    total *= n;
    if (total > limit) return -1;
  }
  return total;
}

std::string label_of(const std::string& name, std::initializer_list<int> values) {
  std::string text = name;
  for (int v : values) text += "-" + std::to_string(v);
  return text;
}

// The integer values of an option: args[i+1..i+n]; `bad` gets the first value that is no integer.
std::optional<std::vector<int>> values(std::span<const std::string> args, std::size_t& i, std::size_t n,
                                       std::string& bad) {
  std::vector<int> parsed;
  for (std::size_t k = 0; k < n; ++k) {
    if (i + 1 >= args.size()) return std::nullopt;
    const auto value = parse_int(args[++i]);
    if (!value) {
      bad = args[i];
      return std::nullopt;
    }
    parsed.push_back(*value);
  }
  return parsed;
}

// An offsets file: one offset per line, its integers separated by blanks or commas; blank lines and
// lines starting with # are skipped.
std::optional<std::vector<int>> read_offsets_file(const std::string& path, int& d, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot read " + path;
    return std::nullopt;
  }
  std::string text;
  for (std::string line; std::getline(in, line);) {
    const std::string_view content = trimmed(line);
    if (content.empty() || content.front() == '#') continue;
    std::string offset;
    std::istringstream words{std::string(content)};
    for (std::string word; words >> word;) {
      std::replace(word.begin(), word.end(), ',', ' ');
      std::istringstream parts(word);
      for (std::string part; parts >> part;) offset += (offset.empty() ? "" : ",") + part;
    }
    text += offset + ";";
  }
  return parse_offset_list(text, d, error);
}

// A generated neighborhood of dimension d whose box has `side`^d vectors: checks the limits first.
bool check_generated(int d, int side, std::string& error) {
  if (d < 1 || d > max_dims) error = "D must be 1.." + std::to_string(max_dims);
  else if (side < 1 || side > (1 << 20)) error = "the radius or side is out of range";
  else if (power_capped(side, d, max_enumerated) < 0) error = "too many vectors to enumerate";
  return error.empty();
}

}  // namespace

std::optional<int> parse_int(std::string_view text) {
  text = trimmed(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

std::optional<double> parse_double(std::string_view text) {
  const std::string copy(trimmed(text));
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return parts;
}

std::string version_line(std::string_view tool) {
  return std::string(tool) + " (cartcoll) " CARTCOLL_VERSION;
}

std::string bad_argument_line(std::string_view tool, std::string_view problem) {
  return std::string(tool) + ": " + std::string(problem) + "; see --help";
}

std::string unknown_argument(std::string_view argument) {
  const bool option = argument.starts_with("-") && argument.size() > 1;
  return std::string(option ? "unknown option '" : "unexpected argument '") + std::string(argument) + "'";
}

bool first_launched_process() {
  // Open MPI, PMIx and MPICH's Hydra (PMI) each set one of these in every process they start.
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* rank = std::getenv(variable)) return parse_int(rank).value_or(0) == 0;
  return true;
}

std::optional<std::vector<int>> parse_offset_list(std::string_view text, int& d, std::string& error) {
  std::vector<std::string_view> vectors = split(text, ';');
  if (!vectors.empty() && trimmed(vectors.back()).empty()) vectors.pop_back();  // a trailing ';'
  if (vectors.empty()) {
    error = "the offset list is empty";
    return std::nullopt;
  }
  std::vector<int> flat;
  for (std::size_t v = 0; v < vectors.size(); ++v) {
    const std::vector<std::string_view> coords = split(vectors[v], ',');
    if (v == 0) d = static_cast<int>(coords.size());
    if (d > max_dims) error = "more than " + std::to_string(max_dims) + " dimensions";
    else if (static_cast<int>(coords.size()) != d)
      error = "offset " + std::to_string(v) + " has " + std::to_string(coords.size()) + " coordinates, the first " +
              std::to_string(d);
    if (!error.empty()) return std::nullopt;
    for (std::string_view c : coords) {
      const std::optional<int> parsed = parse_int(c);
      if (!parsed) {
        error = "'" + std::string(c) + "' in offset " + std::to_string(v) + " is not an integer";
        return std::nullopt;
      }
      flat.push_back(*parsed);
    }
  }
  return flat;
}

const char* neighborhood_usage() {
  return "  --box D N F [--no-zero]  every vector with coordinates F..F+N-1 in each of D dimensions (the test\n"
         "                           neighborhoods of Träff and Hunold, Cartesian Collective Communication;\n"
         "                           their Table 1 is F = -1 --no-zero)\n"
         "  --moore D R              Chebyshev ball of radius R, without the zero vector\n"
         "  --von-neumann D R        Manhattan ball of radius R, without the zero vector\n"
         "  --axes D                 the 2D unit vectors in MPI's Cartesian order -e0,+e0,-e1,+e1,...\n"
         "  --octant D R             coordinates 0..R, without the zero vector (the positive octant of Träff\n"
         "                           et al., Message-Combining Algorithms for Isomorphic, Sparse Collective\n"
         "                           Communication)\n"
         "  --shales D R1 R2         Moore shells at Chebyshev distance exactly R1 and R2 (the same paper's\n"
         "                           Figure 4b)\n"
         "  --offsets \"x,y;x,y;...\"  any list: vectors separated by ';', coordinates by ','\n"
         "  --offsets-file FILE      one offset per line, integers separated by blanks or commas\n";
}

bool parse_neighborhood(std::span<const std::string> args, std::size_t& i, Neighborhood& out, std::string& error) {
  const std::string arg = args[i];
  auto need = [&](std::size_t n) {
    std::string bad;
    auto parsed = values(args, i, n, bad);
    if (!parsed) error = arg + " needs " + std::to_string(n) + " integer" + (n > 1 ? "s" : "");
    if (!parsed && !bad.empty()) error += "; '" + bad + "' is not one";
    return parsed;
  };
  Neighborhood made;
  if (arg == "--box") {
    const auto v = need(3);
    if (!v || !check_generated((*v)[0], (*v)[1], error)) return true;
    bool keep_zero = true;
    if (i + 1 < args.size() && args[i + 1] == "--no-zero") {
      keep_zero = false;
      ++i;
    }
    made = {(*v)[0], neighborhoods::box((*v)[0], (*v)[1], (*v)[2], keep_zero),
            label_of(keep_zero ? "box" : "box-nz", {(*v)[0], (*v)[1], (*v)[2]}),
            "box d=" + std::to_string((*v)[0]) + " n=" + std::to_string((*v)[1]) + " first=" + std::to_string((*v)[2]) +
                (keep_zero ? "" : " without the zero vector")};
  } else if (arg == "--moore" || arg == "--von-neumann" || arg == "--octant") {
    const auto v = need(2);
    if (!v) return true;
    const int d = (*v)[0], r = (*v)[1];
    if (r < 1) error = arg + ": R must be at least 1";
    if (!error.empty() || !check_generated(d, 2 * r + 1, error)) return true;
    const std::string name = arg.substr(2);
    made = {d, arg == "--moore" ? neighborhoods::moore(d, r)
               : arg == "--octant" ? neighborhoods::octant(d, r) : neighborhoods::von_neumann(d, r),
            label_of(name, {d, r}), name + " d=" + std::to_string(d) + " r=" + std::to_string(r), r};
  } else if (arg == "--axes") {
    const auto v = need(1);
    if (!v || !check_generated((*v)[0], 1, error)) return true;
    made = {(*v)[0], neighborhoods::cartesian_axes((*v)[0]), label_of("axes", {(*v)[0]}),
            "unit vectors d=" + std::to_string((*v)[0])};
  } else if (arg == "--shales") {
    const auto v = need(3);
    if (!v) return true;
    const int d = (*v)[0], r1 = (*v)[1], r2 = (*v)[2];
    if (r1 < 1 || r2 < 1) error = "--shales: radii must be at least 1";
    if (!error.empty() || !check_generated(d, 2 * std::max(r1, r2) + 1, error)) return true;
    made = {d, neighborhoods::shales(d, r1, r2), label_of("shales", {d, r1, r2}),
            "shales d=" + std::to_string(d) + " r=" + std::to_string(r1) + "," + std::to_string(r2)};
  } else if (arg == "--offsets" || arg == "--offsets-file") {
    if (i + 1 >= args.size()) {
      error = arg + " needs a value";
      return true;
    }
    const std::string value = args[++i];
    int d = 0;
    auto flat = arg == "--offsets" ? parse_offset_list(value, d, error) : read_offsets_file(value, d, error);
    if (!flat) return true;
    const std::string name = arg == "--offsets" ? "offsets" : "file-" + value.substr(value.find_last_of('/') + 1);
    made = {d, std::move(*flat), name, "offsets d=" + std::to_string(d)};
  } else {
    return false;
  }
  if (made.flat.empty()) {
    error = "the neighborhood is empty";
    return true;
  }
  if (arg == "--offsets" || arg == "--offsets-file")  // a generated one's label says everything already
    made.label += "-" + std::to_string(made.flat.size() / static_cast<std::size_t>(made.d));
  out = std::move(made);
  return true;
}

}  // namespace cartcoll::cli
