#include "options.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "neighborhoods.hpp"

namespace bench {
namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(separator, start)) != std::string::npos; start = end + 1)
    parts.push_back(text.substr(start, end - start));
  parts.push_back(text.substr(start));
  return parts;
}

[[noreturn]] void usage(const char* problem) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (problem) std::fprintf(stderr, "cartcoll-bench: %s\n", problem);
    std::fprintf(stderr,
        "usage: cartcoll-bench [--op OP] NEIGHBORHOOD [--sizes 1,10,100] [--type int|double|char]\n"
        "                      [--size-rule uniform|000|002] [--impl IMPL,...] [--reps N] [--warmup N]\n"
        "                      [--csv FILE] [--transport LABEL] [--pinning LABEL]\n"
        "       cartcoll-bench --setup (--moore D R | --setup-grid) [--reps N] [--csv FILE]\n"
        "OP: alltoall alltoallv alltoallw allgather allgatherv allgatherw\n"
        "NEIGHBORHOOD (periodic grid from MPI_Dims_create; default --moore 3 1):\n"
        "  --box D N F         all vectors with coordinates F..F+N-1 (zero vector kept)\n"
        "  --moore D R         Chebyshev ball of radius R without zero\n"
        "  --von-neumann D R   Manhattan ball of radius R without zero (R = 1: MPI's order -e0,+e0,-e1,...)\n"
        "  --octant D R        coordinates 0..R without zero (positive octant)\n"
        "  --shales D R1 R2    Moore shells at Chebyshev distance exactly R1 and exactly R2\n"
        "  --offsets \"x,y;x,y;...\"  explicit offsets, one per ';'\n"
        "  --adjacency FILE    one offset per line, its d integers separated by spaces or commas;\n"
        "                      blank lines and lines starting with # ignored; d = integers on the first line\n"
        "--sizes: elements per block (the rule's m); --size-rule 000: block i has m^(d-z_i) elements,\n"
        "  z_i = non-zero coordinates of offset i; 002: m^(d-||C_i||_1), at least 1 (alltoallv/w only;\n"
        "  allgather variants always use m per block). alltoallw/allgatherw use one contiguous type per block.\n"
        "IMPL: cart-trivial cart-combining cart-torus cart-auto (each also -persistent), mpi-neighbor,\n"
        "  mpi-ineighbor, mpi-neighbor-persistent, mpi-cart-neighbor (only for the von Neumann radius-1\n"
        "  neighborhood in MPI's order), ideal (the combining schedule as plain Isend/Irecv of contiguous\n"
        "  buffers). Default: all. MPI's allgatherw is done as MPI_Neighbor_alltoallw of one block.\n"
        "Methodology: barrier before each repetition, time = max over ranks, implementations interleaved,\n"
        "  Tukey's rule (3 IQR) then median/min/max of the kept repetitions; messages and bytes per call are\n"
        "  the max over ranks seen by a PMPI counter in one extra call after the timing (for mpi-* rows,\n"
        "  where MPI's internal sends are invisible to PMPI, the direct pattern's count: one message per\n"
        "  neighbor).\n"
        "CSV columns: impl,op,neighborhood,d,t,processes,block_elements,element_bytes,size_rule,median_s,\n"
        "  min_s,max_s,ratio_to_mpi_neighbor,messages_per_call,bytes_per_call,mpi_library,mpi_version,\n"
        "  transport,pinning,reps_kept,reps_total (appended; header only when the file is created)\n"
        "--setup CSV columns: kind,neighborhood,d,r,t,processes,seconds\n");
  }
  if (!problem) {
    MPI_Finalize();
    std::exit(0);
  }
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

std::vector<int> parse_offset_list(const std::string& text, int& d) {
  std::vector<int> flat;
  d = 0;
  for (const auto& offset : split(text, ';')) {
    if (offset.empty()) continue;
    const auto coordinates = split(offset, ',');
    if (d == 0) d = static_cast<int>(coordinates.size());
    if (static_cast<int>(coordinates.size()) != d) usage("offsets of different lengths");
    for (const auto& c : coordinates) flat.push_back(std::atoi(c.c_str()));
  }
  if (d == 0) usage("no offsets");
  return flat;
}

std::vector<int> read_adjacency(const std::string& path, int& d) {
  std::ifstream in(path);
  if (!in) usage("cannot read the adjacency file");
  std::string line, text;
  while (std::getline(in, line)) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::istringstream words(line.substr(first));
    std::string offset;
    for (std::string word; words >> word;) {
      for (char& c : word)
        if (c == ',') c = ' ';
      std::istringstream parts(word);
      for (std::string part; parts >> part;) offset += (offset.empty() ? "" : ",") + part;
    }
    text += offset + ";";
  }
  return parse_offset_list(text, d);
}

std::string basename(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

struct Parser {
  int argc;
  char** argv;
  int i = 1;
  std::string word() { return i + 1 < argc ? std::string(argv[++i]) : (usage("missing value"), std::string()); }
  int number() { return std::atoi(word().c_str()); }
};

std::string label(const std::string& name, std::initializer_list<int> values) {
  std::string text = name;
  for (int v : values) text += "-" + std::to_string(v);
  return text;
}

// Handles one neighborhood option; false if `arg` is none.
bool parse_neighborhood(const std::string& arg, Parser& p, Options& o) {
  if (arg == "--moore") {
    o.d = p.number();
    o.radius = p.number();
    o.offsets = moore(o.d, o.radius);
    o.neighborhood = label("moore", {o.d, o.radius});
  } else if (arg == "--von-neumann") {
    o.d = p.number();
    const int r = p.number();
    o.offsets = r == 1 ? cartesian_axes(o.d) : von_neumann(o.d, r);
    o.neighborhood = label("von-neumann", {o.d, r});
  } else if (arg == "--box") {
    o.d = p.number();
    const int n = p.number(), first = p.number();
    o.offsets = box(o.d, n, first, true);
    o.neighborhood = label("box", {o.d, n, first});
  } else if (arg == "--octant") {
    o.d = p.number();
    const int r = p.number();
    o.offsets = octant(o.d, r);
    o.neighborhood = label("octant", {o.d, r});
  } else if (arg == "--shales") {
    o.d = p.number();
    const int r1 = p.number(), r2 = p.number();
    o.offsets = shales(o.d, r1, r2);
    o.neighborhood = label("shales", {o.d, r1, r2});
  } else if (arg == "--offsets") {
    o.offsets = parse_offset_list(p.word(), o.d);
    o.neighborhood = "offsets-" + std::to_string(o.offsets.size() / static_cast<std::size_t>(o.d));
  } else if (arg == "--adjacency") {
    const std::string path = p.word();
    o.offsets = read_adjacency(path, o.d);
    o.neighborhood = "adjacency-" + basename(path);
  } else {
    return false;
  }
  return true;
}

void set_type(Options& o, const std::string& name) {
  o.type_name = name;
  if (name == "int") o.type = MPI_INT;
  else if (name == "double") o.type = MPI_DOUBLE;
  else if (name == "char") o.type = MPI_CHAR;
  else usage("unknown --type");
}

SizeRule parse_rule(const std::string& name) {
  if (name == "uniform") return SizeRule::uniform;
  if (name == "000") return SizeRule::rule000;
  if (name == "002") return SizeRule::rule002;
  usage("unknown --size-rule");
}

std::vector<int> parse_sizes(const std::string& text) {
  std::vector<int> sizes;
  for (const auto& part : split(text, ',')) sizes.push_back(std::atoi(part.c_str()));
  for (int size : sizes)
    if (size < 0) usage("negative block size");
  return sizes;
}

bool known_op(const std::string& op) {
  for (const char* name : {"alltoall", "alltoallv", "alltoallw", "allgather", "allgatherv", "allgatherw"})
    if (op == name) return true;
  return false;
}

void check_impls(const std::vector<std::string>& impls) {
  for (const auto& impl : impls) {
    bool known = false;
    for (const auto& name : all_implementations()) known = known || name == impl;
    if (!known) usage(("unknown implementation " + impl).c_str());
  }
}

}  // namespace

const std::vector<std::string>& all_implementations() {
  static const std::vector<std::string> names = {
      "cart-trivial", "cart-combining", "cart-torus", "cart-auto",
      "cart-trivial-persistent", "cart-combining-persistent", "cart-torus-persistent", "cart-auto-persistent",
      "mpi-neighbor", "mpi-ineighbor", "mpi-neighbor-persistent", "mpi-cart-neighbor", "ideal"};
  return names;
}

std::string rule_name(SizeRule rule) {
  switch (rule) {
    case SizeRule::rule000: return "000";
    case SizeRule::rule002: return "002";
    default: return "uniform";
  }
}

Options parse_options(int argc, char** argv) {
  Options o;
  o.offsets = moore(3, 1);
  o.neighborhood = "moore-3-1";
  o.impls = all_implementations();
  Parser p{argc, argv};
  for (; p.i < argc; ++p.i) {
    const std::string arg = argv[p.i];
    if (parse_neighborhood(arg, p, o)) continue;
    if (arg == "--op") o.op = p.word();
    else if (arg == "--sizes") o.sizes = parse_sizes(p.word());
    else if (arg == "--type") set_type(o, p.word());
    else if (arg == "--size-rule") o.rule = parse_rule(p.word());
    else if (arg == "--impl") o.impls = split(p.word(), ',');
    else if (arg == "--reps") { o.reps = p.number(); o.reps_given = true; }
    else if (arg == "--warmup") o.warmup = p.number();
    else if (arg == "--csv") o.csv = p.word();
    else if (arg == "--transport") o.transport = p.word();
    else if (arg == "--pinning") o.pinning = p.word();
    else if (arg == "--setup") o.setup = true;
    else if (arg == "--setup-grid") o.setup = o.setup_grid = true;
    else if (arg == "--help" || arg == "-h") usage(nullptr);
    else usage(("unknown option " + arg).c_str());
  }
  if (!known_op(o.op)) usage("unknown --op");
  if (o.reps < 1 || o.warmup < 0) usage("--reps must be positive, --warmup not negative");
  if (o.offsets.empty()) usage("empty neighborhood");
  check_impls(o.impls);
  return o;
}

}  // namespace bench
