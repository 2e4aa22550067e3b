#include "footprints.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"

namespace tbdse::blockmaestro {

std::vector<std::uint64_t> buffer_bases(const std::vector<BufferShape>& buffers,
                                        const std::vector<std::int64_t>& element_bytes) {
  constexpr std::uint64_t kAlign = 4096;
  std::vector<std::uint64_t> bases;
  std::uint64_t next = kAlign;
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    bases.push_back(next);
    std::uint64_t size = static_cast<std::uint64_t>(element_bytes[b]);
    for (const std::int64_t e : buffers[b].extent) size *= static_cast<std::uint64_t>(e);
    next += (size + kAlign - 1) / kAlign * kAlign;
  }
  return bases;
}

namespace {

// Appends the byte ranges of one TB's box on one buffer, merging a range that
// continues the previous one.
void append_box(const BufferShape& shape, std::int64_t elem, std::uint64_t base,
                const std::vector<std::int64_t>& lo, const std::vector<std::int64_t>& hi,
                bool is_write, std::int64_t max_ranges, const std::string& kernel,
                Footprints& out, std::int64_t& count) {
  const std::size_t n = shape.extent.size();
  // Innermost dimension k the box does not cover whole: dimensions after it
  // are whole, so a run spans (hi[k] - lo[k]) x their product elements.
  std::size_t k = n - 1;
  std::int64_t inner = 1;  // elements of one index step in dimension k
  while (k > 0 && lo[k] == 0 && hi[k] == shape.extent[k]) {
    inner *= shape.extent[k];
    --k;
  }
  const std::int64_t run = (hi[k] - lo[k]) * inner;
  std::vector<std::int64_t> stride(n, 1);
  for (std::size_t d = n - 1; d > 0; --d) stride[d - 1] = stride[d] * shape.extent[d];
  std::vector<std::int64_t> idx(lo.begin(), lo.begin() + static_cast<std::ptrdiff_t>(k));
  while (true) {
    std::int64_t offset = lo[k] * stride[k];
    for (std::size_t d = 0; d < k; ++d) offset += idx[d] * stride[d];
    const std::uint64_t addr = base + static_cast<std::uint64_t>(offset * elem);
    const std::int64_t bytes = run * elem;
    const std::size_t last = out.base.size();
    if (count > 0 && out.write.back() == is_write &&
        out.base[last - 1] + static_cast<std::uint64_t>(out.bytes[last - 1]) == addr) {
      out.bytes[last - 1] += bytes;
    } else {
      if (++count > max_ranges)
        throw ConfigError("kernel '" + kernel + "': a TB's access to buffer '" + shape.name +
                          "' makes more than " + std::to_string(max_ranges) +
                          " byte ranges; declare the access with fewer rows or switch locality off");
      out.base.push_back(addr);
      out.bytes.push_back(bytes);
      out.write.push_back(is_write ? 1 : 0);
    }
    std::size_t d = k;  // next index of the outer dimensions (odometer)
    while (d > 0) {
      --d;
      if (++idx[d] < hi[d]) break;
      idx[d] = lo[d];
      if (d == 0) return;
    }
    if (k == 0) return;
  }
}

}  // namespace

void append_footprints(const std::vector<BufferShape>& buffers,
                       const std::vector<std::int64_t>& element_bytes,
                       const std::vector<std::uint64_t>& bases, const KernelAccess& kernel,
                       std::int64_t max_ranges, Footprints& out) {
  std::vector<std::int64_t> lo, hi;
  for (std::int64_t b = 0; b < kernel.grid.size(); ++b) {
    const auto [x, y, z] = kernel.grid.coords(b);
    std::int64_t count = 0;
    for (const bool is_write : {false, true}) {
      for (const Access& a : is_write ? kernel.writes : kernel.reads) {
        if (a.indirect) continue;  // addresses unknown
        const BufferShape& shape = buffers[static_cast<std::size_t>(a.buffer)];
        lo.clear();
        hi.clear();
        bool empty = false;
        for (std::size_t d = 0; d < a.dims.size(); ++d) {
          lo.push_back(std::max<std::int64_t>(0, a.dims[d].lo.at(x, y, z)));
          hi.push_back(std::min(shape.extent[d], a.dims[d].hi.at(x, y, z)));
          empty = empty || hi.back() <= lo.back();
        }
        if (empty) continue;
        append_box(shape, element_bytes[static_cast<std::size_t>(a.buffer)],
                   bases[static_cast<std::size_t>(a.buffer)], lo, hi, is_write, max_ranges,
                   kernel.name, out, count);
      }
    }
    out.start.push_back(static_cast<std::int64_t>(out.base.size()));
  }
}

}  // namespace tbdse::blockmaestro
