// Brute-force references and random generators shared by the tests of
// access_ranges (extraction; check_kernel and skip_dependencies).  Test code only.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "models/blockmaestro/access_ranges.hpp"

namespace tbdse::blockmaestro::test_support {


__extension__ typedef __int128 Wide;
using Rng = std::mt19937_64;

inline constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
inline constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// Uniform in [lo, hi] (the modulo bias is irrelevant here; unlike
// std::uniform_int_distribution the sequence is the same on every library).
inline std::int64_t uniform(Rng& rng, std::int64_t lo, std::int64_t hi) {
  const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
  return lo + static_cast<std::int64_t>(rng() % span);
}
inline bool chance(Rng& rng, int percent) { return uniform(rng, 1, 100) <= percent; }

inline Affine on(int coord, std::int64_t coef, std::int64_t c0) {
  Affine f;
  f.c0 = c0;
  if (coord == 0) f.cx = coef;
  if (coord == 1) f.cy = coef;
  if (coord == 2) f.cz = coef;
  return f;
}
inline Affine constant(std::int64_t c0) { return on(-1, 0, c0); }
inline IndexRange range(Affine lo, Affine hi) { return {lo, hi}; }
inline Access direct(std::int32_t buffer, std::vector<IndexRange> dims) { return {buffer, false, std::move(dims)}; }
inline Access indirect(std::int32_t buffer) { return {buffer, true, {}}; }
inline KernelAccess kernel(std::string name, Grid grid, std::vector<Access> reads, std::vector<Access> writes) {
  return {std::move(name), grid, std::move(reads), std::move(writes)};
}

// ------------------------------------------------------------ brute force
// Everything evaluated in 128 bits: no input can overflow it.
inline Wide eval(const Affine& f, const std::array<std::int64_t, 3>& b) {
  return Wide{f.c0} + Wide{f.cx} * b[0] + Wide{f.cy} * b[1] + Wide{f.cz} * b[2];
}
inline std::int64_t clip(Wide v, std::int64_t extent) {
  return static_cast<std::int64_t>(std::clamp<Wide>(v, 0, extent));
}

struct Box {
  bool empty = false;
  std::vector<std::int64_t> lo, hi;
};

// The clipped box one TB touches; an indirect access: the whole buffer.
inline Box box_of(const Access& a, const BufferShape& b, const std::array<std::int64_t, 3>& tb) {
  Box x;
  x.lo.assign(b.extent.size(), 0);
  x.hi = b.extent;
  if (a.indirect) return x;
  for (std::size_t d = 0; d < b.extent.size(); ++d) {
    x.lo[d] = clip(eval(a.dims[d].lo, tb), b.extent[d]);
    x.hi[d] = clip(eval(a.dims[d].hi, tb), b.extent[d]);
    if (x.hi[d] <= x.lo[d]) x.empty = true;
  }
  return x;
}

inline bool meets(const Box& a, const Box& b) {
  if (a.empty || b.empty) return false;
  for (std::size_t d = 0; d < a.lo.size(); ++d)
    if (std::max(a.lo[d], b.lo[d]) >= std::min(a.hi[d], b.hi[d])) return false;
  return true;
}

struct Csr {
  std::vector<std::int64_t> start{0};
  std::vector<std::int32_t> parents;
  std::int64_t edges() const { return start.back(); }
};

// All pairs: child TB c depends on parent TB p when one of c's reads meets
// one of p's writes (RAW), or with ALL also c's writes meet p's reads or writes.
inline Csr brute_pair(const std::vector<BufferShape>& buffers, const KernelAccess& parent,
               const KernelAccess& child, Hazards hazards) {
  const auto conflicts = [&](const std::vector<Access>& cs, const std::vector<Access>& ps,
                             const std::array<std::int64_t, 3>& ctb, const std::array<std::int64_t, 3>& ptb) {
    for (const Access& c : cs)
      for (const Access& p : ps) {
        if (c.buffer != p.buffer) continue;
        const BufferShape& b = buffers[static_cast<std::size_t>(c.buffer)];
        if (meets(box_of(c, b, ctb), box_of(p, b, ptb))) return true;
      }
    return false;
  };
  Csr out;
  for (std::int64_t c = 0; c < child.grid.size(); ++c) {
    const auto ctb = child.grid.coords(c);
    for (std::int64_t p = 0; p < parent.grid.size(); ++p) {
      const auto ptb = parent.grid.coords(p);
      bool dep = conflicts(child.reads, parent.writes, ctb, ptb);
      if (!dep && hazards == Hazards::ALL)
        dep = conflicts(child.writes, parent.reads, ctb, ptb) || conflicts(child.writes, parent.writes, ctb, ptb);
      if (dep) out.parents.push_back(static_cast<std::int32_t>(p));
    }
    out.start.push_back(static_cast<std::int64_t>(out.parents.size()));
  }
  return out;
}

// The per-dimension min of lo and max of hi over every TB, clipped (the
// header's envelope), by enumerating the TBs.
inline Box brute_envelope(const Access& a, const BufferShape& b, const Grid& g) {
  Box e;
  e.lo.assign(b.extent.size(), 0);
  e.hi = b.extent;
  if (a.indirect) return e;
  for (std::size_t d = 0; d < b.extent.size(); ++d) {
    Wide lo = eval(a.dims[d].lo, g.coords(0)), hi = eval(a.dims[d].hi, g.coords(0));
    for (std::int64_t t = 1; t < g.size(); ++t) {
      lo = std::min(lo, eval(a.dims[d].lo, g.coords(t)));
      hi = std::max(hi, eval(a.dims[d].hi, g.coords(t)));
    }
    e.lo[d] = clip(lo, b.extent[d]);
    e.hi[d] = clip(hi, b.extent[d]);
    if (e.hi[d] <= e.lo[d]) e.empty = true;
  }
  return e;
}

inline std::vector<std::int32_t> brute_skip(const std::vector<BufferShape>& buffers,
                                     const std::vector<KernelAccess>& kernels, Hazards hazards) {
  const auto conflicts = [&](const std::vector<Access>& as, const Grid& ag, const std::vector<Access>& bs,
                             const Grid& bg) {
    for (const Access& a : as)
      for (const Access& b : bs) {
        if (a.buffer != b.buffer) continue;
        const BufferShape& s = buffers[static_cast<std::size_t>(a.buffer)];
        if (meets(brute_envelope(a, s, ag), brute_envelope(b, s, bg))) return true;
      }
    return false;
  };
  std::vector<std::int32_t> out(kernels.size(), -1);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    for (std::size_t j = 0; j + 1 < i; ++j) {
      const KernelAccess& k = kernels[i];
      const KernelAccess& p = kernels[j];
      bool c = conflicts(k.reads, k.grid, p.writes, p.grid);
      if (hazards == Hazards::ALL)
        c = c || conflicts(k.writes, k.grid, p.reads, p.grid) || conflicts(k.writes, k.grid, p.writes, p.grid);
      if (c) out[i] = static_cast<std::int32_t>(j);
    }
  return out;
}

// ------------------------------------------------------------ random inputs
inline std::vector<BufferShape> random_buffers(Rng& rng) {
  std::vector<BufferShape> buffers(static_cast<std::size_t>(chance(rng, 60) ? 1 : uniform(rng, 2, 3)));
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    buffers[i].name = "buf" + std::to_string(i);
    buffers[i].extent.resize(static_cast<std::size_t>(uniform(rng, 1, 3)));
    for (std::int64_t& e : buffers[i].extent) e = uniform(rng, 1, 12);
  }
  return buffers;
}

inline std::int64_t grid_dim(const Grid& g, int coord) { return coord == 0 ? g.x : (coord == 1 ? g.y : g.z); }

// One dimension: constant, or lo and hi affine in the same block coordinate,
// with strides that may differ, be negative or zero, halos (hi - lo wider than
// the stride), empty ranges and ranges partly or wholly outside the buffer.
inline IndexRange random_range(Rng& rng, std::int64_t extent, const Grid& g) {
  const int coord = static_cast<int>(uniform(rng, -1, 2));
  const std::int64_t s = uniform(rng, -3, 4);
  const std::int64_t s_hi = chance(rng, 75) ? s : uniform(rng, -3, 4);
  std::int64_t base = chance(rng, 70) ? uniform(rng, -2, extent / 2) : uniform(rng, -4, extent + 2);
  if (coord >= 0 && s < 0) base += -s * uniform(rng, 0, grid_dim(g, coord) - 1);
  const std::int64_t width = chance(rng, 85) ? uniform(rng, 1, 8) : uniform(rng, -2, 0);
  if (coord < 0) return range(constant(base), constant(base + width));
  return range(on(coord, s, base), on(coord, s_hi, base + width));
}

inline Access random_access(Rng& rng, const std::vector<BufferShape>& buffers, const Grid& g) {
  const auto b = static_cast<std::int32_t>(uniform(rng, 0, static_cast<std::int64_t>(buffers.size()) - 1));
  if (chance(rng, 8)) return indirect(b);
  std::vector<IndexRange> dims;
  for (const std::int64_t e : buffers[static_cast<std::size_t>(b)].extent) dims.push_back(random_range(rng, e, g));
  return direct(b, std::move(dims));
}

inline KernelAccess random_kernel(Rng& rng, const std::vector<BufferShape>& buffers, const std::string& name) {
  KernelAccess k;
  k.name = name;
  k.grid = {uniform(rng, 1, 6), uniform(rng, 1, 5), uniform(rng, 1, 3)};
  const std::int64_t nr = uniform(rng, chance(rng, 90) ? 1 : 0, 3), nw = uniform(rng, chance(rng, 90) ? 1 : 0, 3);
  for (std::int64_t i = 0; i < nr; ++i) k.reads.push_back(random_access(rng, buffers, k.grid));
  for (std::int64_t i = 0; i < nw; ++i) k.writes.push_back(random_access(rng, buffers, k.grid));
  return k;
}

inline std::string describe(const Affine& f) {
  return std::to_string(f.c0) + "+" + std::to_string(f.cx) + "bx+" + std::to_string(f.cy) + "by+" +
         std::to_string(f.cz) + "bz";
}
// Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
inline std::string describe(const std::vector<BufferShape>& buffers, const KernelAccess& k) {
  std::string s = k.name;
  s.append(" grid ").append(std::to_string(k.grid.x)).append("x").append(std::to_string(k.grid.y));
  s.append("x").append(std::to_string(k.grid.z));
  const auto list = [&](const char* what, const std::vector<Access>& as) {
    for (const Access& a : as) {
      s.append("\n  ").append(what).append(" buf").append(std::to_string(a.buffer)).append(" extent");
      for (const std::int64_t e : buffers[static_cast<std::size_t>(a.buffer)].extent)
        s.append(" ").append(std::to_string(e));
      if (a.indirect) s.append(" indirect");
      for (const IndexRange& r : a.dims) s.append(" [").append(describe(r.lo)).append(" : ").append(describe(r.hi)).append(")");
    }
  };
  list("read", k.reads);
  list("write", k.writes);
  return s;
}

inline std::string message_of(const std::vector<BufferShape>& buffers, const KernelAccess& k) {
  try {
    check_kernel(buffers, k);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace tbdse::blockmaestro::test_support
