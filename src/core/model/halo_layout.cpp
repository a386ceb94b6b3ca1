// SPDX-License-Identifier: BSD-3-Clause
#include "halo_layout.hpp"


#include "cartcoll/error.hpp"
#include "cartcoll/stencil.hpp"

namespace cartcoll {

namespace {

struct Range {
  std::int64_t from, to;  // [from, to) in one dimension, in elements
};

// The runs of the box `ranges` of a row-major array whose every dimension has `extent` elements:
// one run a row of the last dimension, rows in row-major order.
std::vector<ByteRun> box_runs(const std::vector<Range>& ranges, std::int64_t extent, int element_bytes) {
  const std::size_t d = ranges.size();
  std::vector<ByteRun> runs;
  std::vector<std::int64_t> at(d);
  for (std::size_t k = 0; k < d; ++k) at[k] = ranges[k].from;
  const std::int64_t row = (ranges[d - 1].to - ranges[d - 1].from) * element_bytes;
  if (row <= 0) return runs;
  for (;;) {
    std::int64_t element = 0;
    for (std::size_t k = 0; k < d; ++k) element = element * extent + at[k];
    runs.push_back({element * element_bytes, row});
    std::size_t k = d - 1;  // the next row: advance the dimensions before the last, last fastest
    while (k > 0) {
      --k;
      if (++at[k] < ranges[k].to) break;
      at[k] = ranges[k].from;
      if (k == 0) return runs;
    }
    if (d == 1) return runs;
  }
}

void check(const HaloLayout& layout) {
  if (layout.ndims < 1 || layout.width < 1 || layout.n < layout.width || layout.element_bytes < 1)
    throw Error(Errc::arg, "a halo needs d >= 1, width >= 1, n >= width and elements of at least one byte");
}

// Each block's runs, its extent along a dimension `range_of` the offset's coordinate there.
template <typename RangeOf>
std::vector<std::vector<ByteRun>> runs_by(const HaloLayout& layout, RangeOf range_of) {
  const Offsets list = layout.offsets();
  std::vector<std::vector<ByteRun>> blocks;
  for (int i = 0; i < list.count(); ++i) {
    std::vector<Range> ranges;
    for (int o : list[i]) ranges.push_back(range_of(o));
    blocks.push_back(box_runs(ranges, layout.n + 2 * layout.width, layout.element_bytes));
  }
  return blocks;
}

}  // namespace

std::int64_t HaloLayout::array_bytes() const {
  check(*this);
  std::int64_t elements = 1;
  for (int k = 0; k < ndims; ++k) elements *= n + 2 * width;
  return elements * element_bytes;
}

Offsets HaloLayout::offsets() const {
  check(*this);
  return neighborhood_offsets({ndims, Metric::chebyshev, 1, 1});
}

std::vector<std::vector<ByteRun>> HaloLayout::send_runs() const {
  return runs_by(*this, [&](int o) { return o < 0 ? Range{width, 2 * width} : o > 0 ? Range{n, n + width} : Range{width, n + width}; });
}

std::vector<std::vector<ByteRun>> HaloLayout::recv_runs() const {
  return runs_by(*this, [&](int o) { return o < 0 ? Range{n + width, n + 2 * width} : o > 0 ? Range{0, width} : Range{width, n + width}; });
}

}  // namespace cartcoll
