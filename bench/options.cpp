// SPDX-License-Identifier: BSD-3-Clause
#include "options.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string_view>

#include "cartcoll/algorithm.hpp"
#include "core/planning/plan.hpp"
#include "util/cli.hpp"
#include "util/graphs.hpp"
#include "core/model/neighborhoods.hpp"

namespace bench {
namespace {

// The usage text, with the neighborhood and graph options of src/util.
std::string usage_text() {
  return std::string(
        "usage: cartcoll-bench [--op OP] (NEIGHBORHOOD | GRAPH) [--sizes 1,10,100] [--type int|double|char]\n"
        "                      [--size-rule uniform|000|002] [--impl IMPL,...] [--reps N] [--warmup N] [--batch N]\n"
        "                      [--csv FILE] [--transport LABEL] [--pinning LABEL] [--node-size N]\n"
        "       cartcoll-bench --halo D WIDTH N[,N...] [--impl IMPL,...] [--reps N] [--warmup N] [--batch N] [--csv FILE] ...\n"
        "       cartcoll-bench --setup (--moore D R | --setup-grid) [--reps N] [--csv FILE]\n"
        "       cartcoll-bench --help | --version\n"
        "OP: alltoall alltoallv alltoallw allgather allgatherv allgatherw\n"
        "NEIGHBORHOOD (periodic grid from MPI_Dims_create; default --moore 3 1):\n") +
        cartcoll::cli::neighborhood_usage() +
        "GRAPH (P must be the number of processes; every process draws the same graph):\n" +
        cartcoll::graphs::usage() +
        "--sizes: elements per block (the rule's m); --size-rule 000: block i has m^(d-z_i) elements,\n"
        "  z_i = non-zero coordinates of offset i (the rule of Träff and Hunold, Cartesian Collective\n"
        "  Communication); 002: m^(d-||C_i||_1), at least 1 (the rule of Träff et al., Message-Combining\n"
        "  Algorithms for Isomorphic, Sparse Collective Communication) (alltoallv/w only; allgather\n"
        "  variants always use m per block). alltoallw/allgatherw use one contiguous type per block.\n"
        "--halo D WIDTH N[,N...]: a stencil's halo exchange, persistent where the implementation is: on the\n"
        "  periodic D-dimensional grid, every process owns an N^D block of doubles inside a halo WIDTH cells wide,\n"
        "  one (N+2 WIDTH)^D array that is send and receive buffer of an alltoallw on the Moore neighborhood of\n"
        "  radius 1; block i is the subarray facing offset i (faces, edges, corners: the send blocks overlap).\n"
        "  Each implementation's halo is checked once against the values of the global positions. N takes the\n"
        "  place of --sizes (block_elements = N, size_rule halo, neighborhood halo-D-WIDTH). IMPL: cc-ALGORITHM\n"
        "  (CC_Neighbor_alltoallw on a graph made by CC_Dist_graph_create_adjacent on an MPI_Cart_create\n"
        "  communicator, which the library detects as Cartesian) and cart-ALGORITHM (Cart_alltoallw) for\n"
        "  every Cartesian planner and auto, each also -persistent; mpi-neighbor, mpi-ineighbor,\n"
        "  mpi-neighbor-persistent, direct. Default: the persistent cc- forms of trivial, combining,\n"
        "  overlap-combining (where the library has it) and auto, MPI's blocking and persistent, direct.\n"
        "--node-size N: the library communicators' nodes are blocks of N consecutive ranks (cartcoll_node_size;\n"
        "  for cart-node-combining, cart-auto and cc-node-combining; the neighborhood's label gets -nodesN)\n"
        "IMPL: cart-trivial cart-combining cart-torus cart-node-combining cart-auto (each also -persistent),\n"
        "  mpi-neighbor, mpi-ineighbor, mpi-neighbor-persistent, mpi-cart-neighbor (only for --axes D, MPI's Cartesian\n"
        "  neighborhood), ideal (the combining schedule as plain Isend/Irecv of contiguous\n"
        "  buffers), direct (one Isend/Irecv per neighbor of the user's blocks, all at once: what MPI\n"
        "  libraries do, and the baseline where the MPI has no usable MPI_Neighbor_*, as SimGrid's SMPI).\n"
        "  Default: all. MPI's allgatherw is done as MPI_Neighbor_alltoallw of one block.\n"
        "  On a GRAPH: cc-trivial cc-graph-combining cc-graph-routing cc-node-combining (by default only with\n"
        "  --node-size) cc-auto"
        " (each also -persistent: CC_Neighbor_* on\n"
        "  CC_Dist_graph_create_adjacent communicators), mpi-neighbor, mpi-ineighbor, mpi-neighbor-persistent,\n"
        "  ideal (one Isend/Irecv per edge), direct; every block has m elements (no size rule), allgatherw is\n"
        "  not available. On a graph with per-edge counts (--mesh-partition), alltoallv/w blocks have count x m\n"
        "  elements (m per shared cell).\n"
        "Methodology: barrier before each repetition, time = max over ranks, implementations take turns of\n"
        "  --batch repetitions (default 5) each led by one untimed call, each round of turns in an order\n"
        "  drawn from its number,\n"
        "  Tukey's rule (3 IQR) then median/min/max of the kept repetitions; messages and bytes per call are\n"
        "  the max over ranks seen by a PMPI counter in one extra call after the timing (for mpi-* rows,\n"
        "  where MPI's internal sends are invisible to PMPI, the direct pattern's count: one message per\n"
        "  neighbor).\n"
        "CSV columns: impl,op,neighborhood,d,t,processes,block_elements,element_bytes,size_rule,median_s,\n"
        "  min_s,max_s,ratio_to_mpi_neighbor,messages_per_call,bytes_per_call,mpi_library,mpi_version,\n"
        "  transport,pinning,reps_kept,reps_total (appended; header only when the file is created)\n"
        "--setup CSV columns: kind,neighborhood,d,r,t,processes,seconds\n";
}

// A bad command line, found while parsing: reject() unwinds to parse_options with the problem.
struct BadArgument {
  std::string problem;
};

[[noreturn]] void reject(const std::string& problem) { throw BadArgument{problem}; }

std::string bad_value(const std::string& option, const std::string& value, const std::string& expected) {
  return "bad value '" + value + "' for " + option + " (" + expected + ")";
}

// The arguments as strings, and a cursor over them.
struct Parser {
  std::vector<std::string> args;
  std::size_t i = 0;
  // No value starts with "--": `--csv --reps 5` is a missing file name, not a file named "--reps".
  std::string word() {
    if (i + 1 >= args.size() || args[i + 1].starts_with("--")) reject(args[i] + " needs a value");
    return args[++i];
  }
  int number() {
    const std::string option = args[i], text = word();
    const auto value = cartcoll::cli::parse_int(text);
    if (!value) reject(bad_value(option, text, "an integer"));
    return *value;
  }
};

// Handles one neighborhood or graph option; false if args[i] is none.
bool parse_neighborhood(Parser& p, Options& o) {
  cartcoll::cli::Neighborhood neighborhood;
  std::string error;
  if (cartcoll::graphs::EdgeList graph; cartcoll::graphs::parse_graph(p.args, p.i, graph, error)) {
    if (!error.empty()) reject(error);
    o.neighborhood = graph.label;
    o.d = 0;
    o.graph = std::move(graph);
    return true;
  }
  if (!cartcoll::cli::parse_neighborhood(p.args, p.i, neighborhood, error)) return false;
  if (!error.empty()) reject(error);
  o.graph.reset();
  o.d = neighborhood.d;
  o.offsets = std::move(neighborhood.flat);
  o.neighborhood = neighborhood.label;
  o.radius = neighborhood.radius;
  return true;
}

void set_type(Options& o, const std::string& name) {
  o.type_name = name;
  if (name == "int") o.type = MPI_INT;
  else if (name == "double") o.type = MPI_DOUBLE;
  else if (name == "char") o.type = MPI_CHAR;
  else reject(bad_value("--type", name, "int, double or char"));
}

// The rules' values on the command line and in the CSV files: "000" names Träff and Hunold's
// Cartesian Collective Communication, "002" the isomorphic-collectives paper by Träff, Carpen-Amarie,
// Hunold and Rougier, whose rules they are (scripts and recorded results use these values).
SizeRule parse_rule(const std::string& name) {
  if (name == "uniform") return SizeRule::uniform;
  if (name == "000") return SizeRule::nonzero_coordinates;
  if (name == "002") return SizeRule::l1_norm;
  reject(bad_value("--size-rule", name, "uniform, 000 or 002"));
}

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> sizes;
  for (const auto part : cartcoll::cli::split(text, ',')) {
    const auto size = cartcoll::cli::parse_int(part);
    if (!size || *size < 0) reject(bad_value("--sizes", text, "non-negative integers separated by commas"));
    sizes.push_back(*size);
  }
  return sizes;
}

std::vector<std::string> list_of(const std::string& text) {
  std::vector<std::string> items;
  for (const auto part : cartcoll::cli::split(text, ',')) items.emplace_back(part);
  return items;
}

bool known_op(const std::string& op) {
  for (const char* name : {"alltoall", "alltoallv", "alltoallw", "allgather", "allgatherv", "allgatherw"})
    if (op == name) return true;
  return false;
}

void check_impls(const std::vector<std::string>& impls, const std::vector<std::string>& known_names) {
  for (const auto& impl : impls) {
    bool known = false;
    for (const auto& name : known_names) known = known || name == impl;
    if (!known) reject("unknown implementation '" + impl + "' (--help lists them)");
  }
}

// The library's faces of one neighborhood kind: every registered planner serving it (`prefix` +
// its name), then `auto`, each also persistent, then MPI's and the baselines (`others`).
std::vector<std::string> implementations_of(cartcoll::NeighborhoodKind kind, const std::string& prefix,
                                            std::initializer_list<const char*> others) {
  std::vector<std::string> names;
  for (const cartcoll::PlannerEntry& planner : cartcoll::planners())
    if (planner.serves(kind)) names.push_back(prefix + std::string(planner.name));
  names.push_back(prefix + "auto");
  for (std::size_t i = 0, library = names.size(); i < library; ++i) names.push_back(names[i] + "-persistent");
  names.insert(names.end(), others.begin(), others.end());
  return names;
}

// alltoallv/w on a graph with counts: blocks of count x m elements, so no uniform-blocks assertion, and
// the largest process's buffer displacements must fit an int.
void fit_to_blocks(const Options& o) {
  if (uniform_blocks(o)) return;
  std::vector<long long> totals(static_cast<std::size_t>(o.graph->size));
  for (std::size_t i = 0; i < o.graph->edges.size(); ++i) {
    totals[static_cast<std::size_t>(o.graph->edges[i].first)] += o.graph->counts[i];
    totals[static_cast<std::size_t>(o.graph->edges[i].second)] += o.graph->counts[i];
  }
  const long long most = std::ranges::max(totals) * (o.sizes.empty() ? 0 : std::ranges::max(o.sizes));
  if (most > INT_MAX) reject("--sizes: " + std::to_string(most) + " elements on one process do not fit an int");
}

}  // namespace

bool uniform_blocks(const Options& o) {
  return !o.graph || o.graph->counts.empty() || (o.op != "alltoallv" && o.op != "alltoallw");
}

const std::vector<std::string>& cartesian_implementations() {
  static const std::vector<std::string> names =
      implementations_of(cartcoll::NeighborhoodKind::cartesian, "cart-",
                         {"mpi-neighbor", "mpi-ineighbor", "mpi-neighbor-persistent", "mpi-cart-neighbor", "ideal", "direct"});
  return names;
}

const std::vector<std::string>& graph_implementations() {
  static const std::vector<std::string> names = implementations_of(
      cartcoll::NeighborhoodKind::graph, "cc-", {"mpi-neighbor", "mpi-ineighbor", "mpi-neighbor-persistent", "ideal", "direct"});
  return names;
}

const std::vector<std::string>& halo_implementations() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = implementations_of(cartcoll::NeighborhoodKind::cartesian, "cart-", {});
    for (const std::string& name : implementations_of(cartcoll::NeighborhoodKind::cartesian, "cc-", {}))
      all.push_back(name);
    all.insert(all.end(), {"mpi-neighbor", "mpi-ineighbor", "mpi-neighbor-persistent", "direct"});
    return all;
  }();
  return names;
}

std::string rule_name(SizeRule rule) {
  switch (rule) {
    case SizeRule::nonzero_coordinates: return "000";
    case SizeRule::l1_norm: return "002";
    case SizeRule::halo: return "halo";
    default: return "uniform";
  }
}

namespace {

// --halo D WIDTH N[,N...]: the Moore neighborhood of radius 1, alltoallw of doubles, N as the sizes.
void parse_halo(Parser& p, Options& o) {
  auto next = [&p] {
    if (p.i + 1 >= p.args.size() || p.args[p.i + 1].starts_with("--")) reject("--halo needs D WIDTH N");
    return p.args[++p.i];
  };
  auto number = [](const std::string& text, int least, int most, const char* expected) {
    const auto value = cartcoll::cli::parse_int(text);
    if (!value || *value < least || *value > most) reject(bad_value("--halo", text, expected));
    return *value;
  };
  const int d = number(next(), 1, 6, "1 to 6 dimensions");
  const int width = number(next(), 1, 1 << 20, "a width of at least 1");
  o.sizes = parse_sizes(next());
  o.graph.reset();
  o.d = d;
  o.offsets = cartcoll::neighborhoods::moore(d, 1);
  o.neighborhood = "halo-" + std::to_string(d) + "-" + std::to_string(width);
  o.radius = 1;
  o.op = "alltoallw";
  set_type(o, "double");
  o.rule = SizeRule::halo;
  o.halo_width = width;
}

// The halo's defaults: the library's persistent alltoallw by the algorithms that serve halos, and MPI's.
std::vector<std::string> halo_defaults() {
  std::vector<std::string> names;
  for (const char* algorithm : {"trivial", "combining", "overlap-combining", "auto"})
    if (algorithm == std::string_view("auto") || cartcoll::Algorithm::parse(algorithm))
      names.push_back(std::string("cc-") + algorithm + "-persistent");
  names.insert(names.end(), {"mpi-neighbor", "mpi-neighbor-persistent", "direct"});
  return names;
}

// What --halo fixes, checked once every option is read.
void check_halo(const Options& o) {
  if (o.graph || o.setup || o.op != "alltoallw" || o.type != MPI_DOUBLE || o.rule != SizeRule::halo)
    reject("--halo fixes the neighborhood, the operation (alltoallw), the type (double) and the blocks, "
           "and takes no --setup");
  for (int n : o.sizes)
    if (n < o.halo_width) reject(bad_value("--halo", std::to_string(n), "N at least WIDTH"));
}

Options parse_arguments(const std::vector<std::string>& args, bool& help, bool& version) {
  Options o;
  o.offsets = cartcoll::neighborhoods::moore(3, 1);
  o.neighborhood = "moore-3-1";
  bool impls_given = false;
  Parser p{args};
  for (; p.i < p.args.size(); ++p.i) {
    const std::string arg = p.args[p.i];
    if (arg == "--help" || arg == "-h") { help = true; return o; }
    if (arg == "--version") { version = true; return o; }
    if (arg == "--halo") {
      parse_halo(p, o);
      continue;
    }
    if (parse_neighborhood(p, o)) {
      o.halo_width = 0;
      continue;
    }
    if (arg == "--op") o.op = p.word();
    else if (arg == "--sizes") o.sizes = parse_sizes(p.word());
    else if (arg == "--type") set_type(o, p.word());
    else if (arg == "--size-rule") o.rule = parse_rule(p.word());
    else if (arg == "--impl") { o.impls = list_of(p.word()); impls_given = true; }
    else if (arg == "--reps") { o.reps = p.number(); o.reps_given = true; }
    else if (arg == "--warmup") o.warmup = p.number();
    else if (arg == "--batch") o.batch = p.number();
    else if (arg == "--csv") o.csv = p.word();
    else if (arg == "--transport") o.transport = p.word();
    else if (arg == "--pinning") o.pinning = p.word();
    else if (arg == "--node-size") o.node_size = p.number();
    else if (arg == "--setup") o.setup = true;
    else if (arg == "--setup-grid") o.setup = o.setup_grid = true;
    else reject(cartcoll::cli::unknown_argument(arg));
  }
  if (!known_op(o.op)) reject(bad_value("--op", o.op, "alltoall, alltoallv, alltoallw, allgather, allgatherv or allgatherw"));
  if (o.reps < 1 || o.warmup < 0 || o.batch < 1) reject("--reps and --batch must be positive, --warmup not negative");
  if (o.node_size < 0) reject(bad_value("--node-size", std::to_string(o.node_size), "a positive size"));
  if (o.node_size > 0) o.neighborhood += "-nodes" + std::to_string(o.node_size);
  if (o.halo_width > 0) check_halo(o);
  const auto& known_names = o.halo_width > 0 ? halo_implementations()
                            : o.graph        ? graph_implementations()
                                             : cartesian_implementations();
  if (!impls_given) o.impls = o.halo_width > 0 ? halo_defaults() : known_names;
  // Without nodes, node-combining on a graph would repeat graph-combining's set-up and schedule.
  if (!impls_given && o.graph && o.node_size == 0) std::erase_if(o.impls, [](const std::string& impl) {
    return impl.starts_with("cc-node-combining");
  });
  // A planner of overlapping send blocks serves only such calls (the others run the direct exchange):
  // by default only on --halo's.
  if (!impls_given && o.halo_width == 0)
    for (const cartcoll::PlannerEntry& planner : cartcoll::planners())
      if (planner.plans_shared_sends) std::erase_if(o.impls, [&planner](const std::string& impl) {
        const std::string name(planner.name);
        return impl.ends_with("-" + name) || impl.ends_with("-" + name + "-persistent");
      });
  if (o.graph && (o.op == "allgatherw" || o.setup))
    reject("a GRAPH takes --op alltoall(v,w) or allgather(v), and no --setup");
  if (!o.graph && o.offsets.empty()) reject("empty neighborhood");
  check_impls(o.impls, known_names);
  fit_to_blocks(o);
  return o;
}

}  // namespace

Parsed parse_options(const std::vector<std::string>& args) {
  Parsed parsed;
  try {
    parsed.options = parse_arguments(args, parsed.help, parsed.version);
  } catch (const BadArgument& bad) {
    parsed.error = bad.problem;
  }
  return parsed;
}

std::string check_against_world(const Options& o) {
  if (!o.graph) return {};
  int processes = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &processes);
  if (o.graph->size == processes) return {};
  return "the graph has " + std::to_string(o.graph->size) + " processes, MPI_COMM_WORLD " + std::to_string(processes) +
         " (P must be the number of processes)";
}

std::string usage() { return usage_text(); }

}  // namespace bench
