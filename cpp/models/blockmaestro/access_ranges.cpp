#include "models/blockmaestro/access_ranges.hpp"

#include <algorithm>
#include <limits>

#include "core/errors.hpp"

namespace tbdse::blockmaestro {

int Affine::coordinate() const {
  const int n = (cx != 0) + (cy != 0) + (cz != 0);
  if (n == 0) return -1;
  if (n > 1) return -2;
  return cx != 0 ? 0 : (cy != 0 ? 1 : 2);
}

namespace {

// Bounds are evaluated and inverted in 128 bits: a coefficient (< 2^63) times
// a block index (< 2^31) plus c0 cannot overflow, so no input needs clamping.
__extension__ typedef __int128 Wide;

constexpr std::int64_t kI64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMaxTbs = std::numeric_limits<std::int32_t>::max();
const char* const kCoord[] = {"bx", "by", "bz"};

bool fits64(Wide v) { return v >= kI64Min && v <= kI64Max; }

// 64-bit division when the operands fit (the usual case; 128-bit division is a library call).
Wide floor_wide(Wide n, Wide d) {
  if (fits64(n) && fits64(d) && d != -1)
    return detail::floor_div(static_cast<std::int64_t>(n), static_cast<std::int64_t>(d));
  return detail::floor_div(n, d);
}
Wide ceil_wide(Wide n, Wide d) {
  if (fits64(n) && fits64(d) && d != -1)
    return detail::ceil_div(static_cast<std::int64_t>(n), static_cast<std::int64_t>(d));
  return detail::ceil_div(n, d);
}

Wide eval(const Affine& f, std::int64_t bx, std::int64_t by, std::int64_t bz) {
  return Wide{f.c0} + Wide{f.cx} * bx + Wide{f.cy} * by + Wide{f.cz} * bz;
}
std::int64_t clip(Wide v, std::int64_t extent) {
  return static_cast<std::int64_t>(std::clamp<Wide>(v, 0, extent));
}

// Restricts the integers p in [lo, hi] to those with a*p + b < t (empty: hi < lo).
void restrict_less(Wide a, Wide b, Wide t, std::int64_t& lo, std::int64_t& hi) {
  if (hi < lo) return;
  if (a == 0) {
    if (!(b < t)) hi = lo - 1;
    return;
  }
  const Wide n = t - b - 1;  // a*p <= n
  if (a > 0) {
    const Wide m = floor_wide(n, a);
    if (m < hi) hi = static_cast<std::int64_t>(std::max<Wide>(m, lo - 1));
  } else {
    const Wide m = ceil_wide(n, a);
    if (m > lo) lo = static_cast<std::int64_t>(std::min<Wide>(m, hi + 1));
  }
}

// One dimension of a parent access: lo = b_lo + a_lo*p, hi = b_hi + a_hi*p, p the
// block coordinate `coord` (-1: both constant).
struct DimBound {
  int coord = -1;
  std::int64_t a_lo = 0, b_lo = 0, a_hi = 0, b_hi = 0;
};

std::int64_t coefficient(const Affine& f, int k) { return k == 0 ? f.cx : (k == 1 ? f.cy : f.cz); }

// A parent access, prepared once per pair: its bounds, and per block coordinate
// the TBs whose unclipped box is non-empty in the dimensions on that coordinate.
struct ParentSide {
  bool indirect = false;
  std::vector<DimBound> dims;
  std::array<std::int64_t, 3> lo{}, hi{};  // inclusive; hi < lo somewhere: no TB qualifies
};

ParentSide prepare_parent(const Access& a, const Grid& g) {
  ParentSide s;
  s.indirect = a.indirect;
  s.lo = {0, 0, 0};
  s.hi = {g.x - 1, g.y - 1, g.z - 1};
  if (a.indirect) return s;
  for (const IndexRange& r : a.dims) {
    DimBound d;
    d.coord = std::max(r.lo.coordinate(), r.hi.coordinate());  // check_kernel: one coordinate at most
    d.b_lo = r.lo.c0;
    d.b_hi = r.hi.c0;
    if (d.coord >= 0) {
      d.a_lo = coefficient(r.lo, d.coord);
      d.a_hi = coefficient(r.hi, d.coord);
      // lo < hi, so that the intersection with a clipped child box is exact.
      restrict_less(Wide{d.a_lo} - d.a_hi, Wide{d.b_lo} - d.b_hi, 0, s.lo[d.coord], s.hi[d.coord]);
    } else if (d.b_lo >= d.b_hi) {
      s.hi[0] = s.lo[0] - 1;
    }
    s.dims.push_back(d);
  }
  return s;
}

// Appends the parent TBs whose box meets the child box [clo, chi) (clipped,
// non-empty) in ascending linear id.  False when there are more than `room`.
bool collect(const ParentSide& s, const Grid& g, const std::vector<std::int64_t>& clo,
             const std::vector<std::int64_t>& chi, std::int64_t room, std::vector<std::int32_t>& out) {
  std::array<std::int64_t, 3> lo = s.lo, hi = s.hi;
  if (!s.indirect) {
    for (std::size_t i = 0; i < s.dims.size(); ++i) {
      const DimBound& d = s.dims[i];
      if (d.coord < 0) {
        if (!(d.b_lo < chi[i] && d.b_hi > clo[i])) return true;
        continue;
      }
      std::int64_t& l = lo[d.coord];
      std::int64_t& h = hi[d.coord];
      restrict_less(d.a_lo, d.b_lo, chi[i], l, h);        // parent lo < child hi
      restrict_less(-Wide{d.a_hi}, -Wide{d.b_hi}, -Wide{clo[i]}, l, h);  // parent hi > child lo
    }
  }
  std::int64_t count = 1;
  for (int k = 0; k < 3; ++k) {
    if (hi[k] < lo[k]) return true;
    count *= hi[k] - lo[k] + 1;  // <= grid size < 2^31
  }
  if (count > room) return false;
  for (std::int64_t z = lo[2]; z <= hi[2]; ++z)
    for (std::int64_t y = lo[1]; y <= hi[1]; ++y) {
      const std::int64_t row = g.x * (y + g.y * z);
      for (std::int64_t x = lo[0]; x <= hi[0]; ++x) out.push_back(static_cast<std::int32_t>(row + x));
    }
  return true;
}

// A child access and the parent accesses it may conflict with.
struct ChildSide {
  const Access* access = nullptr;
  const BufferShape* buffer = nullptr;
  std::vector<const ParentSide*> parents;
};

std::string affine_text(const Affine& f) {
  std::string s;
  const auto term = [&s](std::int64_t c, const char* name) {
    if (c == 0) return;
    if (!s.empty()) s += c < 0 ? " - " : " + ";
    else if (c < 0) s += "-";
    const std::uint64_t m = c < 0 ? 0 - static_cast<std::uint64_t>(c) : static_cast<std::uint64_t>(c);
    if (m != 1 || name[0] == '\0') s += std::to_string(m);
    if (name[0] == '\0') return;
    if (m != 1) s += '*';
    s.append(name);
  };
  term(f.cx, "bx");
  term(f.cy, "by");
  term(f.cz, "bz");
  term(f.c0, "");
  return s.empty() ? "0" : s;
}

std::string extent_text(const BufferShape& b) {
  std::string s = "[";
  for (std::size_t i = 0; i < b.extent.size(); ++i) s += (i ? ", " : "") + std::to_string(b.extent[i]);
  return s + "]";
}

void check_access(const std::vector<BufferShape>& buffers, const KernelAccess& k, const Access& a,
                  const char* kind, std::size_t index) {
  const std::string who = "kernel '" + k.name + "': " + kind + " " + std::to_string(index);
  if (a.buffer < 0 || static_cast<std::size_t>(a.buffer) >= buffers.size())
    throw ConfigError(who + " refers to buffer " + std::to_string(a.buffer) + "; valid buffer indices are " +
                      (buffers.empty() ? std::string("none (no buffers are declared)")
                                       : "0 to " + std::to_string(buffers.size() - 1)));
  const BufferShape& b = buffers[static_cast<std::size_t>(a.buffer)];
  const std::string where = who + " of buffer '" + b.name + "'";
  for (const std::int64_t e : b.extent)
    if (e < 1) throw ConfigError(where + ": extent " + extent_text(b) + "; every extent must be >= 1");
  if (a.indirect) return;  // its dims, if any, are ignored: the range is unknown
  if (a.dims.size() != b.extent.size())
    throw ConfigError(where + " gives " + std::to_string(a.dims.size()) + " index range(s); the buffer has " +
                      std::to_string(b.extent.size()) + " dimension(s) (extent " + extent_text(b) + ")");
  for (std::size_t d = 0; d < a.dims.size(); ++d) {
    const IndexRange& r = a.dims[d];
    const int lo = r.lo.coordinate(), hi = r.hi.coordinate();
    if (lo != -2 && hi != -2 && (lo == -1 || hi == -1 || lo == hi)) continue;
    std::string range = "[";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "[" + string
    range.append(affine_text(r.lo)).append(" : ").append(affine_text(r.hi)).append("]");
    const std::string why = (lo == -2 || hi == -2)
                                ? std::string(lo == -2 ? "lo" : "hi") + " depends on more than one block coordinate"
                                : std::string("lo depends on ") + kCoord[lo] + " but hi on " + kCoord[hi];
    throw ConfigError(where + ", dimension " + std::to_string(d) + " " + range + ": " + why +
                      "; each dimension's bounds may depend on at most one of bx, by, bz, the same for lo "
                      "and hi (declare the buffer with more dimensions)");
  }
}

// Per-dimension [lo, hi) covering every TB's access, clipped; `empty` when no element.
struct Envelope {
  bool empty = false;
  std::vector<std::int64_t> lo, hi;
};

Envelope envelope(const Access& a, const BufferShape& b, const Grid& g) {
  Envelope e;
  const std::size_t n = b.extent.size();
  e.lo.assign(n, 0);
  e.hi = b.extent;
  if (a.indirect) return e;
  const std::array<std::int64_t, 3> last = {g.x - 1, g.y - 1, g.z - 1};
  for (std::size_t d = 0; d < n; ++d) {
    const Affine& l = a.dims[d].lo;
    const Affine& h = a.dims[d].hi;
    Wide lmin = l.c0, hmax = h.c0;
    const std::array<std::int64_t, 3> cl = {l.cx, l.cy, l.cz}, ch = {h.cx, h.cy, h.cz};
    for (int k = 0; k < 3; ++k) {
      lmin += std::min<Wide>(0, Wide{cl[k]} * last[k]);
      hmax += std::max<Wide>(0, Wide{ch[k]} * last[k]);
    }
    e.lo[d] = clip(lmin, b.extent[d]);
    e.hi[d] = clip(hmax, b.extent[d]);
    if (e.hi[d] <= e.lo[d]) e.empty = true;
  }
  return e;
}

bool meets(const Envelope& a, const Envelope& b) {
  if (a.empty || b.empty) return false;
  for (std::size_t d = 0; d < a.lo.size(); ++d)
    if (std::max(a.lo[d], b.lo[d]) >= std::min(a.hi[d], b.hi[d])) return false;
  return true;
}

}  // namespace

void check_kernel(const std::vector<BufferShape>& buffers, const KernelAccess& kernel) {
  const Grid& g = kernel.grid;
  std::string grid = "(";  // appended piecewise, see check_access
  grid.append(std::to_string(g.x)).append(", ").append(std::to_string(g.y)).append(", ");
  grid.append(std::to_string(g.z)).append(")");
  if (g.x < 1 || g.y < 1 || g.z < 1)
    throw ConfigError("kernel '" + kernel.name + "': grid " + grid + ": every grid dimension must be >= 1");
  // Compared step by step so that the product cannot overflow.
  if (g.x > kMaxTbs || g.y > kMaxTbs || g.z > kMaxTbs || g.x * g.y > kMaxTbs || g.x * g.y * g.z > kMaxTbs)
    throw ConfigError("kernel '" + kernel.name + "': grid " + grid + " has more than " + std::to_string(kMaxTbs) +
                      " TBs; at most 2^31 - 1 TBs per kernel are supported");
  for (std::size_t i = 0; i < kernel.reads.size(); ++i) check_access(buffers, kernel, kernel.reads[i], "read", i);
  for (std::size_t i = 0; i < kernel.writes.size(); ++i) check_access(buffers, kernel, kernel.writes[i], "write", i);
}

PairDependencies extract_pair(const std::vector<BufferShape>& buffers, const KernelAccess& parent,
                              const KernelAccess& child, Hazards hazards, std::int64_t max_edges) {
  check_kernel(buffers, parent);  // cheap (per access, not per TB), and guards the indexing below
  check_kernel(buffers, child);
  std::vector<ParentSide> preads, pwrites;
  for (const Access& a : parent.reads) preads.push_back(prepare_parent(a, parent.grid));
  for (const Access& a : parent.writes) pwrites.push_back(prepare_parent(a, parent.grid));

  std::vector<ChildSide> sides;
  const auto add = [&](const Access& a, const std::vector<Access>& pa, const std::vector<ParentSide>& ps) {
    ChildSide* side = nullptr;
    for (ChildSide& s : sides)
      if (s.access == &a) side = &s;
    for (std::size_t j = 0; j < pa.size(); ++j) {
      if (pa[j].buffer != a.buffer) continue;
      if (!side) {
        sides.push_back({&a, &buffers[static_cast<std::size_t>(a.buffer)], {}});
        side = &sides.back();
      }
      side->parents.push_back(&ps[j]);
    }
  };
  for (const Access& a : child.reads) add(a, parent.writes, pwrites);  // RAW
  if (hazards == Hazards::ALL)
    for (const Access& a : child.writes) {
      add(a, parent.reads, preads);    // WAR
      add(a, parent.writes, pwrites);  // WAW
    }

  PairDependencies out;
  const Grid& cg = child.grid;
  out.child_start.reserve(static_cast<std::size_t>(cg.size()) + 1);
  out.child_start.push_back(0);
  std::int64_t total = 0;
  std::vector<std::int32_t> found;
  std::vector<std::int64_t> clo, chi;
  const auto give_up = [] {
    PairDependencies full;
    full.full = true;
    return full;
  };
  for (std::int64_t bz = 0; bz < cg.z; ++bz)
    for (std::int64_t by = 0; by < cg.y; ++by)
      for (std::int64_t bx = 0; bx < cg.x; ++bx) {
        found.clear();
        int contributions = 0;
        for (const ChildSide& s : sides) {
          // The child's clipped box; an indirect access may touch the whole buffer.
          const std::vector<std::int64_t>& ext = s.buffer->extent;
          clo.assign(ext.size(), 0);
          chi.assign(ext.begin(), ext.end());
          bool empty = false;
          if (!s.access->indirect)
            for (std::size_t d = 0; d < ext.size() && !empty; ++d) {
              clo[d] = clip(eval(s.access->dims[d].lo, bx, by, bz), ext[d]);
              chi[d] = clip(eval(s.access->dims[d].hi, bx, by, bz), ext[d]);
              empty = chi[d] <= clo[d];
            }
          if (empty) continue;
          for (const ParentSide* p : s.parents) {
            const std::size_t before = found.size();
            // One access pair yields distinct parents, so more than the room left is already too many.
            if (!collect(*p, parent.grid, clo, chi, max_edges - total, found)) return give_up();
            contributions += found.size() > before;
          }
        }
        if (contributions > 1) {  // a single contribution is already ascending and distinct
          std::sort(found.begin(), found.end());
          found.erase(std::unique(found.begin(), found.end()), found.end());
        }
        total += static_cast<std::int64_t>(found.size());
        if (total > max_edges) return give_up();
        out.parents.insert(out.parents.end(), found.begin(), found.end());
        out.child_start.push_back(total);
      }
  return out;
}

std::vector<std::int32_t> skip_dependencies(const std::vector<BufferShape>& buffers,
                                            const std::vector<KernelAccess>& kernels, Hazards hazards) {
  for (const KernelAccess& k : kernels) check_kernel(buffers, k);
  // Per buffer, the (kernel, envelope) of every read and every write, kernels ascending.
  struct Use {
    std::int32_t kernel;
    Envelope env;
  };
  std::vector<std::vector<Use>> reads(buffers.size()), writes(buffers.size());
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const KernelAccess& k = kernels[i];
    for (const Access& a : k.reads)
      reads[a.buffer].push_back({static_cast<std::int32_t>(i), envelope(a, buffers[a.buffer], k.grid)});
    for (const Access& a : k.writes)
      writes[a.buffer].push_back({static_cast<std::int32_t>(i), envelope(a, buffers[a.buffer], k.grid)});
  }
  std::vector<std::int32_t> out(kernels.size(), -1);
  // Latest kernel j < i - 1 among `uses` whose envelope meets `env`; stops at `best`.
  const auto latest = [](const std::vector<Use>& uses, std::int32_t i, const Envelope& env, std::int32_t best) {
    auto it = std::lower_bound(uses.begin(), uses.end(), i - 1,
                               [](const Use& u, std::int32_t k) { return u.kernel < k; });
    while (it != uses.begin()) {
      --it;
      if (it->kernel <= best) break;
      if (meets(it->env, env)) return it->kernel;
    }
    return best;
  };
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    for (const Use& u : reads[b]) out[u.kernel] = latest(writes[b], u.kernel, u.env, out[u.kernel]);  // RAW
    if (hazards == Hazards::ALL)
      for (const Use& u : writes[b]) {
        out[u.kernel] = latest(reads[b], u.kernel, u.env, out[u.kernel]);   // WAR
        out[u.kernel] = latest(writes[b], u.kernel, u.env, out[u.kernel]);  // WAW
      }
  }
  return out;
}

}  // namespace tbdse::blockmaestro
