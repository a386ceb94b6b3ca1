#include "plan_figures.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

#include "allgather_tree.hpp"
#include "cartcoll/error.hpp"
#include "cartcoll/plan.hpp"
#include "cartcoll/schedule.hpp"
#include "neighborhoods.hpp"

namespace cartcoll::plan_tool {

namespace {

// Generated neighborhoods are enumerated in full (von Neumann balls through their Moore ball): keep
// that below a few million vectors.
constexpr long long max_enumerated = 1LL << 22;
constexpr int max_dims = 16;

Figures figures_of(const Schedule& schedule) {
  return {schedule.messages(), schedule.communication_phases(), schedule.volume()};
}

std::string json_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buffer;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", value);
  return buffer;
}

std::string int_list(const std::vector<int>& values, const char* separator) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += separator;
    out += std::to_string(values[i]);
  }
  return out;
}

std::string json_figures(const Figures& f) {
  return "\"messages\":" + std::to_string(f.messages) + ",\"phases\":" + std::to_string(f.phases) +
         ",\"volume\":" + std::to_string(f.volume);
}

// One collective's object: {"trivial":{...},"combining":{...},"torus":...}.
std::string json_collective(const PlanFigures& figures, bool alltoall) {
  std::string out = "{";
  bool first = true;
  auto key = [&](const std::string& name) {
    if (!first) out += ",";
    first = false;
    out.append("\"").append(json_escape(name)).append("\":");  // append: GCC 12 misreads "..." + string
  };
  for (const AlgorithmFigures& algorithm : figures.algorithms) {
    key(algorithm.name);
    const std::optional<Figures>& f = alltoall ? algorithm.alltoall : algorithm.allgather;
    if (!f) {
      out.append("{\"error\":\"").append(json_escape(algorithm.error)).append("\"}");
      continue;
    }
    out.append("{").append(json_figures(*f));
    if (!alltoall && algorithm.name == "combining") {
      out += ",\"volume_000_order\":" + std::to_string(figures.tree_volume_000_order) +
             ",\"volume_best_order\":" + std::to_string(figures.tree_volume_best_order) + ",\"order_000\":[" +
             int_list(figures.order_000, ",") + "],\"order_best\":[" + int_list(figures.order_best, ",") + "]";
    }
    out += "}";
  }
  return out + "}";
}

std::optional<int> parse_int(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
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

bool blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t'; });
}

}  // namespace

const AlgorithmFigures* PlanFigures::find(const std::string& name) const {
  for (const AlgorithmFigures& algorithm : algorithms)
    if (algorithm.name == name) return &algorithm;
  return nullptr;
}

std::vector<int> planning_grid(const Offsets& offsets) {
  std::vector<int> dims(static_cast<std::size_t>(offsets.ndims()), 0);
  for (int i = 0; i < offsets.count(); ++i)
    for (int k = 0; k < offsets.ndims(); ++k) {
      const long long c = offsets[i][static_cast<std::size_t>(k)];
      const long long reach = c < 0 ? -c : c;
      if (reach > (INT_MAX - 1) / 2) throw Error(Errc::dims, "an offset coordinate is too large to plan for");
      auto& dim = dims[static_cast<std::size_t>(k)];
      dim = std::max(dim, static_cast<int>(reach));
    }
  long long size = 1;
  for (int& dim : dims) {
    dim = 2 * dim + 1;
    size *= dim;
    if (size > INT_MAX)
      throw Error(Errc::dims, "the torus that no offset wraps on (2*max|c|+1 per dimension) has more than INT_MAX processes");
  }
  return dims;
}

PlanFigures compute_figures(const Offsets& offsets) {
  if (offsets.count() == 0) throw Error(Errc::arg, "the neighborhood is empty");
  PlanFigures figures;
  figures.d = offsets.ndims();
  figures.t = offsets.count();
  figures.grid = planning_grid(offsets);
  const Grid grid(figures.grid, std::vector<bool>(figures.grid.size(), true));
  for (int dim : figures.grid) figures.coords.push_back(dim / 2);

  for (const PlannerEntry& planner : planners()) {
    const Algorithm algorithm = Algorithm::named(planner.name);
    AlgorithmFigures entry{std::string(planner.name), std::nullopt, std::nullopt, {}};
    const CartesianView view{grid, offsets, figures.coords};
    try {
      if (planner.serves_alltoall) entry.alltoall = figures_of(plan(algorithm, view, Collective::alltoall));
      if (planner.serves_allgather) entry.allgather = figures_of(plan(algorithm, view, Collective::allgather));
    } catch (const std::exception& e) {
      entry.alltoall.reset();
      entry.allgather.reset();
      entry.error = e.what();
    }
    figures.algorithms.push_back(std::move(entry));
  }

  figures.order_000 = detail::order_by_distinct_coordinates(offsets);
  figures.order_best = detail::best_allgather_order(offsets);
  figures.tree_volume_000_order = detail::build_allgather_tree(offsets, figures.order_000).volume();
  figures.tree_volume_best_order = detail::build_allgather_tree(offsets, figures.order_best).volume();

  const AlgorithmFigures* trivial = figures.find("trivial");
  const AlgorithmFigures* combining = figures.find("combining");
  if (trivial && combining && trivial->alltoall && combining->alltoall) {
    const double saved_messages = trivial->alltoall->messages - combining->alltoall->messages;
    const double extra_blocks = combining->alltoall->volume - trivial->alltoall->volume;
    if (extra_blocks > 0) figures.cutoff_ratio = saved_messages / extra_blocks;
  }
  return figures;
}

std::string to_json(const PlanFigures& figures) {
  std::string out = "{\"d\":" + std::to_string(figures.d) + ",\"t\":" + std::to_string(figures.t) + ",\"grid\":[" +
                    int_list(figures.grid, ",") + "],\"coords\":[" + int_list(figures.coords, ",") + "]";
  out += ",\"alltoall\":" + json_collective(figures, true);
  out += ",\"allgather\":" + json_collective(figures, false);
  out += ",\"cutoff_ratio\":" + (figures.cutoff_ratio ? number(*figures.cutoff_ratio) : std::string("null"));
  return out + "}";
}

std::string to_table(const PlanFigures& figures) {
  std::ostringstream out;
  out << "d = " << figures.d << ", t = " << figures.t << " offsets; planned for the process at ("
      << int_list(figures.coords, ",") << ") of a " << int_list(figures.grid, "x")
      << " torus (no offset wraps)\n\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-10s %-10s %9s %7s %9s\n", "collective", "algorithm", "messages", "phases", "volume");
  out << line;
  for (int pass = 0; pass < 2; ++pass) {
    const bool alltoall = pass == 0;
    const char* collective = alltoall ? "alltoall" : "allgather";
    for (const AlgorithmFigures& algorithm : figures.algorithms) {
      const std::optional<Figures>& f = alltoall ? algorithm.alltoall : algorithm.allgather;
      if (f)
        std::snprintf(line, sizeof line, "%-10s %-10s %9d %7d %9d\n", collective, algorithm.name.c_str(), f->messages,
                      f->phases, f->volume);
      else if (!algorithm.error.empty())
        std::snprintf(line, sizeof line, "%-10s %-10s   planner failed: %s\n", collective, algorithm.name.c_str(),
                      algorithm.error.c_str());
      else
        std::snprintf(line, sizeof line, "%-10s %-10s   (does not plan this collective)\n", collective,
                      algorithm.name.c_str());
      out << line;
    }
  }
  out << "\nallgather tree volume: " << figures.tree_volume_000_order << " with 000's order ("
      << int_list(figures.order_000, ",") << "), " << figures.tree_volume_best_order << " with the best order ("
      << int_list(figures.order_best, ",") << ", used by the combining plan)\n";
  if (!figures.cutoff_ratio)
    out << "alltoall cut-off ratio: none (combining sends no more blocks than trivial; the rounds alone decide)\n";
  else if (*figures.cutoff_ratio > 0)
    out << "alltoall cut-off ratio (t - C) / (V - t) = " << number(*figures.cutoff_ratio)
        << ": combining beats trivial for blocks of m < alpha/beta * " << number(*figures.cutoff_ratio) << " units\n";
  else
    out << "alltoall cut-off ratio (t - C) / (V - t) = " << number(*figures.cutoff_ratio)
        << ": combining never beats trivial (no fewer messages, more blocks)\n";
  const AlgorithmFigures* trivial = figures.find("trivial");
  if (figures.cutoff_ratio && trivial && trivial->alltoall && trivial->alltoall->messages != figures.t)
    out << "(t there is the trivial plan's " << trivial->alltoall->messages
        << " messages: local copies, such as the zero vector's, send nothing)\n";
  return out.str();
}

const char* usage() {
  return "usage: cartcoll-plan --dims D --box N --first F [--no-zero] [--json]\n"
         "       cartcoll-plan --moore D R [--json]\n"
         "       cartcoll-plan --von-neumann D R [--json]\n"
         "       cartcoll-plan --offsets \"x,y,z;x,y,z;...\" [--json]\n"
         "Plans trivial, combining (and torus where built) alltoall and allgather for one process of a\n"
         "torus that no offset wraps on, and prints messages, communication phases and volume per call.\n"
         "  --box N --first F  all vectors with coordinates F..F+N-1 in each of D dimensions (000's\n"
         "                     test neighborhoods); --no-zero drops the zero vector\n"
         "  --moore D R        Chebyshev ball of radius R, without the zero vector\n"
         "  --von-neumann D R  Manhattan ball of radius R, without the zero vector\n"
         "  --offsets LIST     any list; vectors separated by ';', coordinates by ','\n"
         "  --json             one JSON object instead of the table\n";
}

std::optional<Request> parse_command_line(const std::vector<std::string>& args, std::string& error) {
  Request request;
  std::optional<int> dims, box, first;
  bool no_zero = false;
  int sources = 0;  // --box (via --dims/--box/--first), --moore, --von-neumann, --offsets
  bool box_source = false;
  enum class Kind { none, moore, von_neumann, offsets } kind = Kind::none;
  int ball_d = 0, ball_r = 0;
  std::string offsets_text;

  auto fail = [&error](const std::string& message) -> std::optional<Request> {
    error = message;
    return std::nullopt;
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&]() -> std::optional<int> {
      if (i + 1 >= args.size()) return std::nullopt;
      return parse_int(args[++i]);
    };
    if (arg == "--help" || arg == "-h") {
      request.help = true;
      return request;
    } else if (arg == "--json") {
      request.json = true;
    } else if (arg == "--no-zero") {
      no_zero = true;
    } else if (arg == "--dims" || arg == "--box" || arg == "--first") {
      std::optional<int>& slot = arg == "--dims" ? dims : arg == "--box" ? box : first;
      if (slot) return fail(arg + " given twice");
      slot = value();
      if (!slot) return fail(arg + " needs an integer");
      box_source = true;
    } else if (arg == "--moore" || arg == "--von-neumann") {
      const std::optional<int> d = value();
      const std::optional<int> r = d ? value() : std::nullopt;
      if (!d || !r) return fail(arg + " needs two integers D R");
      kind = arg == "--moore" ? Kind::moore : Kind::von_neumann;
      ball_d = *d;
      ball_r = *r;
      ++sources;
    } else if (arg == "--offsets") {
      if (i + 1 >= args.size()) return fail("--offsets needs a list \"x,y;x,y;...\"");
      offsets_text = args[++i];
      kind = Kind::offsets;
      ++sources;
    } else {
      return fail("unknown argument '" + arg + "'");
    }
  }
  if (box_source) ++sources;
  if (sources == 0) return fail("no neighborhood given");
  if (sources > 1) return fail("give exactly one neighborhood: --dims/--box/--first, --moore, --von-neumann or --offsets");
  if (no_zero && !box_source) return fail("--no-zero goes with --box only (the other neighborhoods never hold the zero vector)");

  if (box_source) {
    if (!dims || !box || !first) return fail("a box needs all of --dims D --box N --first F");
    if (*dims < 1 || *dims > max_dims) return fail("--dims must be 1.." + std::to_string(max_dims));
    if (*box < 1) return fail("--box must be at least 1");
    if (*first < -(1 << 20) || *first > (1 << 20) || *box > (1 << 20)) return fail("--box/--first out of range");
    if (power_capped(*box, *dims, max_enumerated) < 0) return fail("the box has too many vectors to enumerate");
    request.d = *dims;
    request.flat = bench::box(*dims, *box, *first, !no_zero);
    request.description = "box d=" + std::to_string(*dims) + " n=" + std::to_string(*box) +
                          " first=" + std::to_string(*first) + (no_zero ? " without the zero vector" : "");
  } else if (kind == Kind::moore || kind == Kind::von_neumann) {
    const std::string name = kind == Kind::moore ? "--moore" : "--von-neumann";
    if (ball_d < 1 || ball_d > max_dims) return fail(name + ": D must be 1.." + std::to_string(max_dims));
    if (ball_r < 1 || ball_r > (1 << 20)) return fail(name + ": R must be at least 1");
    if (power_capped(2 * ball_r + 1, ball_d, max_enumerated) < 0) return fail(name + ": the ball has too many vectors to enumerate");
    request.d = ball_d;
    request.flat = kind == Kind::moore ? bench::moore(ball_d, ball_r) : bench::von_neumann(ball_d, ball_r);
    request.description = (kind == Kind::moore ? "Moore d=" : "von Neumann d=") + std::to_string(ball_d) +
                          " r=" + std::to_string(ball_r);
  } else {
    std::vector<std::string_view> vectors = split(offsets_text, ';');
    if (!vectors.empty() && blank(vectors.back())) vectors.pop_back();  // a trailing ';'
    if (vectors.empty()) return fail("--offsets: the list is empty");
    for (std::size_t v = 0; v < vectors.size(); ++v) {
      const std::vector<std::string_view> coords = split(vectors[v], ',');
      if (v == 0) {
        request.d = static_cast<int>(coords.size());
        if (request.d > max_dims) return fail("--offsets: more than " + std::to_string(max_dims) + " dimensions");
      }
      if (static_cast<int>(coords.size()) != request.d)
        return fail("--offsets: vector " + std::to_string(v) + " has " + std::to_string(coords.size()) +
                    " coordinates, the first has " + std::to_string(request.d));
      for (std::string_view c : coords) {
        const std::optional<int> parsed = parse_int(c);
        if (!parsed) return fail("--offsets: '" + std::string(c) + "' in vector " + std::to_string(v) + " is not an integer");
        request.flat.push_back(*parsed);
      }
    }
    request.description = "offsets list d=" + std::to_string(request.d);
  }
  if (request.flat.empty()) return fail("the neighborhood is empty");
  return request;
}

}  // namespace cartcoll::plan_tool
