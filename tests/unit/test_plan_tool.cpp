// SPDX-License-Identifier: BSD-3-Clause
// cartcoll-plan's figures (tools/plan/plan_figures): Table 1 of Träff and Hunold, Cartesian Collective
// Communication, reproduced from the planners' schedules, the paper's cut-off row explained, the
// JSON shape, the table's layout and the command line.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/planning/plan.hpp"
#include "cartcoll/topology.hpp"
#include "cartcoll/version.h"
#include "plan_figures.hpp"
#include "util/cli.hpp"
#include "core/model/neighborhoods.hpp"

namespace cartcoll {
namespace {

using plan_tool::compute_figures;
using plan_tool::PlanFigures;

// Träff and Hunold's Cartesian Collective Communication, Table 1, columns d = 2..5 by n = 3, 4, 5
// (f = -1, zero vector dropped).
struct Table1Column {
  int d, n;
  int t, c, allgather_v, alltoall_v;
  double paper_cutoff;  // the printed "Alltoall (t-C)/(V-t)" row
};
constexpr Table1Column table1[] = {
    {2, 3, 8, 4, 8, 12, 1.167},          {2, 4, 15, 6, 15, 24, 1.250},
    {2, 5, 24, 8, 24, 40, 1.133},        {3, 3, 26, 6, 26, 54, 0.778},
    {3, 4, 63, 9, 63, 144, 0.688},       {3, 5, 124, 12, 124, 300, 0.646},
    {4, 3, 80, 8, 80, 216, 0.541},       {4, 4, 255, 12, 255, 768, 0.477},
    {4, 5, 624, 16, 624, 2000, 0.443},   {5, 3, 242, 10, 242, 810, 0.411},
    {5, 4, 1023, 15, 1023, 3840, 0.358}, {5, 5, 3124, 20, 3124, 12500, 0.331},
};

PlanFigures figures_for(int d, const std::vector<int>& flat) { return compute_figures(Offsets(d, flat)); }

double round3(double x) { return std::round(x * 1000.0) / 1000.0; }

class PlanToolTable1 : public ::testing::TestWithParam<Table1Column> {};

TEST_P(PlanToolTable1, ReproducesTheRoundsAndVolumes) {
  const Table1Column& col = GetParam();
  const PlanFigures f = figures_for(col.d, neighborhoods::box(col.d, col.n, -1, false));
  const auto* trivial = f.find("trivial");
  const auto* combining = f.find("combining");
  ASSERT_NE(trivial, nullptr);
  ASSERT_NE(combining, nullptr);
  ASSERT_TRUE(trivial->alltoall && trivial->allgather && combining->alltoall && combining->allgather);

  // t = n^d - 1: the offsets, and the trivial algorithm's messages (one phase).
  EXPECT_EQ(f.t, col.t);
  EXPECT_EQ(f.t, static_cast<int>(std::pow(col.n, col.d)) - 1);
  EXPECT_EQ(trivial->alltoall->messages, col.t);
  EXPECT_EQ(trivial->alltoall->volume, col.t);
  EXPECT_EQ(trivial->allgather->messages, col.t);
  EXPECT_EQ(trivial->alltoall->phases, 1);

  // C = d(n-1) rounds in d phases, for both collectives.
  EXPECT_EQ(combining->alltoall->messages, col.c);
  EXPECT_EQ(combining->alltoall->messages, col.d * (col.n - 1));
  EXPECT_EQ(combining->allgather->messages, col.c);
  EXPECT_EQ(combining->alltoall->phases, col.d);
  EXPECT_EQ(combining->allgather->phases, col.d);

  // Alltoall V = sum_j j (n-1)^j binom(d, j); allgather V = t, with Träff and Hunold's order as
  // with the best.
  EXPECT_EQ(combining->alltoall->volume, col.alltoall_v);
  EXPECT_EQ(combining->allgather->volume, col.allgather_v);
  EXPECT_EQ(f.tree_volume_distinct_order, col.allgather_v);
  EXPECT_EQ(f.tree_volume_best_order, col.allgather_v);

  // The tool's cut-off is Träff and Hunold's formula with the table's t, C and V.
  ASSERT_TRUE(f.cutoff_ratio.has_value());
  EXPECT_DOUBLE_EQ(*f.cutoff_ratio, double(col.t - col.c) / double(col.alltoall_v - col.t));
}

// The printed cut-off row does not follow from the table's own t = n^d - 1 (that matches only the
// two largest columns, where the zero vector no longer shows): it is (t - C) / (V - t) with t = n^d,
// the zero vector counted as a neighbor (the paper's benchmark ran n^d "neighbors"), and d = 2, n = 3
// reads 1.167 where that formula gives 5/3 = 1.667 (one digit off). t here is the tool's own count
// for the box with the zero vector.
TEST_P(PlanToolTable1, PaperCutoffRowCountsTheZeroVector) {
  const Table1Column& col = GetParam();
  const PlanFigures f = figures_for(col.d, neighborhoods::box(col.d, col.n, -1, false));
  const PlanFigures with_zero = figures_for(col.d, neighborhoods::box(col.d, col.n, -1, true));
  ASSERT_EQ(with_zero.t, f.t + 1);
  const int c = f.find("combining")->alltoall->messages;
  const int v = f.find("combining")->alltoall->volume;
  const double ratio = double(with_zero.t - c) / double(v - with_zero.t);
  if (col.d == 2 && col.n == 3) {
    EXPECT_DOUBLE_EQ(ratio, 5.0 / 3.0);
    EXPECT_DOUBLE_EQ(round3(ratio) - col.paper_cutoff, 0.5);  // 1.667 printed as 1.167
  } else {
    EXPECT_DOUBLE_EQ(round3(ratio), col.paper_cutoff);
  }
}

INSTANTIATE_TEST_SUITE_P(TraffHunold, PlanToolTable1, ::testing::ValuesIn(table1),
                         [](const ::testing::TestParamInfo<Table1Column>& column) {
                           return "d" + std::to_string(column.param.d) + "n" + std::to_string(column.param.n);
                         });

TEST(PlanToolCutoff, ZeroVectorIsACopyNotAMessage) {
  // Keeping the zero vector: t = 27, but trivial sends 26 messages; the cut-off uses the messages.
  const PlanFigures f = figures_for(3, neighborhoods::box(3, 3, -1, true));
  EXPECT_EQ(f.t, 27);
  EXPECT_EQ(f.find("trivial")->alltoall->messages, 26);
  EXPECT_EQ(f.find("combining")->alltoall->volume, 54);
  ASSERT_TRUE(f.cutoff_ratio.has_value());
  EXPECT_DOUBLE_EQ(*f.cutoff_ratio, 20.0 / 28.0);
}

TEST(PlanToolCutoff, NoCutoffWhereCombiningSendsNoMoreBlocks) {
  // von Neumann radius 1: every offset has one non-zero coordinate, V = t = C.
  const PlanFigures f = figures_for(3, neighborhoods::von_neumann(3, 1));
  EXPECT_EQ(f.t, 6);
  EXPECT_EQ(f.find("combining")->alltoall->volume, 6);
  EXPECT_FALSE(f.cutoff_ratio.has_value());
  EXPECT_NE(plan_tool::to_json(f).find("\"cutoff_ratio\":null"), std::string::npos);
}

TEST(PlanToolFigures, AllgatherOrderMatters) {
  // The neighborhood of Träff and Hunold's Figure 2: their order (increasing distinct coordinates)
  // visits dimension 0 last.
  const PlanFigures figure2 = figures_for(3, {-2, 1, 1, -1, 1, 1, 1, 1, 1, 2, 1, 1});
  EXPECT_EQ(figure2.distinct_order, (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(figure2.tree_volume_distinct_order, 6);
  EXPECT_EQ(figure2.tree_volume_best_order, 6);
  // Alltoall sends each block once per non-zero coordinate: 4 x 3.
  EXPECT_EQ(figure2.find("combining")->alltoall->volume, 12);
  // Where Träff and Hunold's order is not the best: {(0,-1), (0,2), (1,-1)}. Träff and Hunold's
  // order {0, 1} (both dimensions have two distinct coordinates) splits 0|1 first and then -1|2 and
  // -1: 4 edges; {1, 0} splits
  // -1|2 first and then 0|1: 3 edges. The combining allgather uses the better one.
  const PlanFigures f = figures_for(2, {0, -1, 0, 2, 1, -1});
  EXPECT_EQ(f.distinct_order, (std::vector<int>{0, 1}));
  EXPECT_EQ(f.tree_volume_distinct_order, 4);
  EXPECT_EQ(f.order_best, (std::vector<int>{1, 0}));
  EXPECT_EQ(f.tree_volume_best_order, 3);
  EXPECT_EQ(f.find("combining")->allgather->volume, 3);
}

TEST(PlanToolFigures, PlansOnATorusNothingWrapsOn) {
  const PlanFigures f = figures_for(2, {3, 0, -1, 2, 0, 0});
  EXPECT_EQ(f.grid, (std::vector<int>{7, 5}));
  EXPECT_EQ(f.coords, (std::vector<int>{3, 2}));
  EXPECT_EQ(f.t, 3);
  EXPECT_EQ(f.find("trivial")->alltoall->messages, 2);  // the zero vector is a copy
}

TEST(PlanToolFigures, ReportsEveryRegisteredPlanner) {
  const PlanFigures f = figures_for(2, neighborhoods::moore(2, 1));
  const std::string json = plan_tool::to_json(f);
  for (const char* name : {"trivial", "combining", "torus"}) {
    const auto* algorithm = f.find(name);
    ASSERT_NE(algorithm, nullptr) << name;
    EXPECT_NE(json.find("\"" + std::string(name) + "\":{\"messages\""), std::string::npos) << name;
    // Every planner delivers the Moore neighborhood's blocks: on the torus no offset wraps on, each
    // of the t blocks is sent at least once, and a process sends as many as it receives.
    ASSERT_TRUE(algorithm->alltoall.has_value()) << name << ": " << algorithm->error;
    ASSERT_TRUE(algorithm->allgather.has_value()) << name << ": " << algorithm->error;
    EXPECT_GE(algorithm->alltoall->volume, f.t) << name;
    EXPECT_GE(algorithm->allgather->volume, f.t) << name;
  }
}

TEST(PlanToolFigures, JsonCarriesTheFields) {
  const PlanFigures f = figures_for(3, neighborhoods::box(3, 3, -1, false));
  const std::string json = plan_tool::to_json(f);
  for (const char* field :
       {"\"d\":3", "\"t\":26", "\"alltoall\":{\"trivial\":{\"messages\":26,\"phases\":1,\"volume\":26}",
        "\"combining\":{\"messages\":6,\"phases\":3,\"volume\":54}", "\"volume_000_order\":26",
        "\"volume_best_order\":26", "\"cutoff_ratio\":0.714286"})
    EXPECT_NE(json.find(field), std::string::npos) << field << " in " << json;
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
}

std::optional<plan_tool::Request> parse(std::vector<std::string> args) {
  std::string error;
  auto request = plan_tool::parse_command_line(args, error);
  EXPECT_EQ(request.has_value(), error.empty()) << error;
  return request;
}

TEST(PlanToolCommandLine, Neighborhoods) {
  auto box = parse({"--box", "3", "4", "-1", "--no-zero", "--json"});
  ASSERT_TRUE(box);
  EXPECT_EQ(box->d, 3);
  EXPECT_EQ(box->flat.size(), std::size_t{63 * 3});
  EXPECT_TRUE(box->json);

  auto with_zero = parse({"--box", "1", "3", "0"});
  ASSERT_TRUE(with_zero);
  EXPECT_EQ(with_zero->flat, (std::vector<int>{0, 1, 2}));
  EXPECT_FALSE(with_zero->json);

  auto moore = parse({"--moore", "1", "1"});
  ASSERT_TRUE(moore);
  EXPECT_EQ(moore->flat, (std::vector<int>{-1, 1}));
  auto moore2 = parse({"--moore", "2", "2"});
  ASSERT_TRUE(moore2);
  EXPECT_EQ(moore2->flat.size(), std::size_t{24 * 2});

  auto von_neumann = parse({"--von-neumann", "2", "1"});
  ASSERT_TRUE(von_neumann);
  EXPECT_EQ(von_neumann->flat, (std::vector<int>{-1, 0, 0, -1, 0, 1, 1, 0}));
  auto axes = parse({"--axes", "2"});
  ASSERT_TRUE(axes);
  EXPECT_EQ(axes->flat, (std::vector<int>{-1, 0, 1, 0, 0, -1, 0, 1}));  // MPI's Cartesian order
  auto octant = parse({"--octant", "2", "1"});
  ASSERT_TRUE(octant);
  EXPECT_EQ(octant->flat, (std::vector<int>{0, 1, 1, 0, 1, 1}));
  auto shales = parse({"--shales", "1", "1", "3"});
  ASSERT_TRUE(shales);
  EXPECT_EQ(shales->flat, (std::vector<int>{-3, -1, 1, 3}));

  auto list = parse({"--offsets", "1, 0,-2; -1,+3,0;"});
  ASSERT_TRUE(list);
  EXPECT_EQ(list->d, 3);
  EXPECT_EQ(list->flat, (std::vector<int>{1, 0, -2, -1, 3, 0}));
}

TEST(PlanToolCommandLine, ReplayTakesMicroseconds) {
  auto request = parse({"--erdos-renyi", "8", "0.5", "1", "--replay", "0.5", "2"});
  ASSERT_TRUE(request && request->replay);
  EXPECT_DOUBLE_EQ(request->replay->overhead, 0.5e-6);
  EXPECT_DOUBLE_EQ(request->replay->latency, 2e-6);
  EXPECT_FALSE(parse({"--erdos-renyi", "8", "0.5", "1"})->replay);
}

TEST(PlanToolCommandLine, BadArguments) {
  // Each bad command line, and a word its error message must contain.
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad{
      {{}, "no neighborhood"},
      {{"--json"}, "no neighborhood"},
      {{"--box", "3", "3"}, "needs 3 integers"},
      {{"--box", "x", "3", "-1"}, "needs 3 integers"},
      {{"--box", "0", "3", "-1"}, "D must be"},
      {{"--box", "3", "3", "-1", "--moore", "3", "1"}, "exactly one"},
      {{"--moore", "3"}, "needs 2 integers"},
      {{"--moore", "3", "0"}, "at least 1"},
      {{"--von-neumann", "3", "1", "--no-zero"}, "unknown option '--no-zero'"},
      {{"--offsets", "1,2;3"}, "coordinates"},
      {{"--offsets", "1,a"}, "not an integer"},
      {{"--offsets", ""}, "empty"},
      {{"--box", "1", "1", "0", "--no-zero"}, "empty"},
      {{"--moore", "14", "1"}, "too many"},  // 3^14 vectors: more than 2^22
      {{"--moore", "40", "1"}, "D must be"},
      {{"--frobnicate"}, "unknown option '--frobnicate'"},
      {{"--moore", "3", "1", "stray"}, "unexpected argument 'stray'"},
      {{"--box", "3", "x", "-1"}, "'x' is not one"},
      {{"--moore", "3", "1", "--threshold", "many"}, "--threshold takes an integer"},
      {{"--erdos-renyi", "8", "0.5", "1", "--replay", "0.5"}, "two microsecond figures"},
      {{"--erdos-renyi", "8", "0.5", "1", "--replay", "0.5", "-1"}, "two microsecond figures"},
      {{"--erdos-renyi", "8", "0.5", "1", "--replay", "x", "1"}, "two microsecond figures"},
  };
  for (const auto& [args, word] : bad) {
    std::string error;
    EXPECT_FALSE(plan_tool::parse_command_line(args, error).has_value()) << ::testing::PrintToString(args);
    EXPECT_NE(error.find(word), std::string::npos) << ::testing::PrintToString(args) << ": " << error;
    // One line: the tool prints it after its name, followed by "; see --help" (cli::bad_argument_line).
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    const std::string line = cli::bad_argument_line("cartcoll-plan", error);
    EXPECT_EQ(line, "cartcoll-plan: " + error + "; see --help");
  }
}

TEST(PlanToolCommandLine, HelpAndVersionNeedNoNeighborhood) {
  for (const char* flag : {"--help", "-h"}) {
    auto request = parse({flag});
    ASSERT_TRUE(request) << flag;
    EXPECT_TRUE(request->help);
    EXPECT_FALSE(request->version);
  }
  // Wherever it stands, even after a bad argument: the user asked what the tool is.
  auto version = parse({"--version", "--frobnicate"});
  ASSERT_TRUE(version);
  EXPECT_TRUE(version->version);
  EXPECT_FALSE(version->help);
  const std::string line = cli::version_line("cartcoll-plan");
  EXPECT_EQ(line, std::string("cartcoll-plan (cartcoll) ") + CARTCOLL_VERSION);
  EXPECT_EQ(std::string(CARTCOLL_VERSION),
            std::to_string(CARTCOLL_VERSION_MAJOR) + "." + std::to_string(CARTCOLL_VERSION_MINOR) + "." +
                std::to_string(CARTCOLL_VERSION_PATCH));
  const std::string usage = plan_tool::usage();
  EXPECT_EQ(usage.rfind("usage: cartcoll-plan", 0), 0U);
  EXPECT_NE(usage.find("--version"), std::string::npos);
}

TEST(PlanToolCommandLine, UsageCitesPapersByTitle) {
  // Papers by authors and title, never by the numbers of the project's copies ("000'", "003's").
  const std::string usage = plan_tool::usage();
  for (const char* number : {"000", "001", "002", "003"}) {
    EXPECT_EQ(usage.find(std::string(number) + "'"), std::string::npos) << number;
    EXPECT_EQ(usage.find(std::string("(") + number), std::string::npos) << number;
  }
  EXPECT_NE(usage.find("Cartesian Collective Communication"), std::string::npos);
}

TEST(PlanToolTable, ColumnsAlignWhateverThePlannersNames) {
  // Every row's figures end in the same column as the header's, for every Cartesian planner's name
  // (node-combining is longer than the header's "algorithm").
  const PlanFigures figures = figures_for(2, neighborhoods::moore(2, 1));
  const std::string table = plan_tool::to_table(figures);
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = table.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(table.substr(at, end - at));
  std::size_t header = 0;
  while (header < lines.size() && lines[header].rfind("collective", 0) != 0) ++header;
  ASSERT_LT(header, lines.size()) << table;
  std::size_t rows = 0;
  bool long_name = false;
  for (std::size_t k = header + 1; k < lines.size() && !lines[k].empty(); ++k, ++rows) {
    EXPECT_EQ(lines[k].size(), lines[header].size()) << "'" << lines[k] << "'\n'" << lines[header] << "'";
    long_name = long_name || lines[k].find("-combining") != std::string::npos;
  }
  EXPECT_EQ(rows, 2 * figures.algorithms.size()) << table;
  EXPECT_TRUE(long_name) << table;
  EXPECT_EQ(table.find("000's"), std::string::npos) << table;
}

}  // namespace
}  // namespace cartcoll
