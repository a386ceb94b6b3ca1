// SPDX-License-Identifier: BSD-3-Clause
#include "halo_figures.hpp"

#include <cstdio>
#include <sstream>

#include "cartcoll/error.hpp"
#include "core/model/shared_sends.hpp"
#include "core/planning/plan.hpp"

namespace cartcoll::plan_tool {

long long bytes_sent(const Schedule& schedule, const std::vector<long long>& send_bytes,
                     const std::vector<long long>& recv_bytes) {
  long long bytes = 0;
  for (const Phase& phase : schedule.phases)
    for (const Message& message : phase.sends)
      for (const BlockRef& ref : message.blocks) {
        const BlockRef shape = schedule.shape_of(ref);
        bytes += (shape.buffer == Buffer::send ? send_bytes : recv_bytes).at(static_cast<std::size_t>(shape.block));
      }
  return bytes;
}

namespace {

HaloAlgorithmFigures figures_of(std::string name, const Schedule& schedule, const std::vector<long long>& send_bytes,
                                const std::vector<long long>& recv_bytes) {
  return {std::move(name), schedule.messages(), schedule.communication_phases(), bytes_sent(schedule, send_bytes, recv_bytes)};
}

}  // namespace

HaloFigures compute_halo_figures(const HaloLayout& layout) {
  if (layout.ndims > 6) throw Error(Errc::arg, "--halo plans up to 6 dimensions");
  HaloFigures figures;
  figures.layout = layout;
  const Offsets offsets = layout.offsets();
  const auto d = static_cast<std::size_t>(layout.ndims);
  const Grid grid(std::vector<int>(d, 3), std::vector<bool>(d, true));
  figures.grid.assign(grid.dims().begin(), grid.dims().end());
  figures.coords.assign(d, 1);
  figures.t = offsets.count();
  const auto shared = find_shared_sends(layout.send_runs());
  if (!shared) throw Error(Errc::intern, "a halo block holds a byte twice");
  const std::vector<long long> block_bytes(shared->block_bytes.begin(), shared->block_bytes.end());
  for (long long bytes : block_bytes) figures.block_bytes += bytes;
  std::vector<long long> part_bytes, piece_bytes;
  for (const SharedPart& part : shared->parts) part_bytes.push_back(part.bytes);
  for (const Piece& piece : shared->pieces) piece_bytes.push_back(part_bytes[static_cast<std::size_t>(piece.part)]);
  for (long long bytes : part_bytes) figures.distinct_bytes += bytes;
  figures.parts = static_cast<int>(shared->parts.size());

  const CartesianView view{grid, offsets, figures.coords};
  for (const char* name : {"trivial", "combining"})
    figures.algorithms.push_back(
        figures_of(name, plan(Algorithm::named(name), view, Collective::alltoall), block_bytes, block_bytes));
  CartesianView overlapping = view;
  overlapping.shared_sends = &*shared;
  figures.algorithms.push_back(figures_of("overlap-combining",
                                          plan(Algorithm::named("overlap-combining"), overlapping, Collective::alltoall),
                                          part_bytes, piece_bytes));
  return figures;
}

std::string to_json(const HaloFigures& figures) {
  const HaloLayout& layout = figures.layout;
  std::ostringstream out;
  out << "{\"d\":" << layout.ndims << ",\"width\":" << layout.width << ",\"n\":" << layout.n
      << ",\"element_bytes\":" << layout.element_bytes << ",\"t\":" << figures.t << ",\"block_bytes\":" << figures.block_bytes
      << ",\"distinct_bytes\":" << figures.distinct_bytes << ",\"parts\":" << figures.parts << ",\"alltoallw\":{";
  for (std::size_t i = 0; i < figures.algorithms.size(); ++i) {
    const HaloAlgorithmFigures& f = figures.algorithms[i];
    out << (i > 0 ? "," : "") << "\"" << f.name << "\":{\"messages\":" << f.messages << ",\"phases\":" << f.phases
        << ",\"bytes\":" << f.bytes << "}";
  }
  out << "}}";
  return out.str();
}

std::string to_table(const HaloFigures& figures) {
  const HaloLayout& layout = figures.layout;
  std::ostringstream out;
  out << "halo of an " << layout.n << "^" << layout.ndims << " block, width " << layout.width << ", "
      << layout.element_bytes << "-byte elements: t = " << figures.t << " send blocks of " << figures.block_bytes
      << " bytes in all, " << figures.distinct_bytes << " distinct bytes in " << figures.parts
      << " parts; planned for one process of a 3^" << layout.ndims << " torus\n\n";
  char line[160];
  std::snprintf(line, sizeof line, "%-17s %9s %7s %13s\n", "algorithm", "messages", "phases", "bytes sent");
  out << line;
  for (const HaloAlgorithmFigures& f : figures.algorithms) {
    std::snprintf(line, sizeof line, "%-17s %9d %7d %13lld\n", f.name.c_str(), f.messages, f.phases, f.bytes);
    out << line;
  }
  return out.str();
}

}  // namespace cartcoll::plan_tool
