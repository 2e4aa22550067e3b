// tbdse._core.MemoryHierarchy: the memory hierarchy (core/mem_hierarchy.hpp)
// replaying an address trace from NumPy arrays, GIL released.
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "core/errors.hpp"
#include "core/mem_hierarchy.hpp"

namespace tbdse::bindings {

namespace {

using U64Array = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>;
using I64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using U32Array = py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>;
using BoolArray = py::array_t<bool, py::array::c_style | py::array::forcecast>;

void check_rows(py::ssize_t n, const I64Array& sm, const I64Array& cycle, const BoolArray& w,
                std::int64_t sms) {
  if (sm.ndim() != 1 || cycle.ndim() != 1 || w.ndim() != 1 || sm.shape(0) != n ||
      cycle.shape(0) != n || w.shape(0) != n)
    throw ConfigError("a memory trace's sm, cycle and is_write are one-dimensional arrays of "
                      "one length, one entry per access");
  for (py::ssize_t i = 0; i < n; ++i) {
    if (sm.data()[i] < 0 || sm.data()[i] >= sms)
      throw ConfigError("memory trace access " + std::to_string(i) + ": SM " +
                        std::to_string(sm.data()[i]) + " is not in 0.." + std::to_string(sms - 1));
    if (cycle.data()[i] < 0 || cycle.data()[i] > kMaxDelay)
      throw ConfigError("memory trace access " + std::to_string(i) + ": cycle " +
                        std::to_string(cycle.data()[i]) + " is not in 0..2^48");
  }
}

void check_bytes(std::int64_t bytes, std::int64_t most) {
  if (bytes < 1 || bytes > most)
    throw ConfigError("bytes per access must be 1.." + std::to_string(most) + "; got " +
                      std::to_string(bytes));
}

py::dict stats_dict(const MemoryHierarchy& m) {
  const MemoryStats& s = m.stats();
  py::dict d;
  d["requests"] = s.requests;
  d["l1_reads"] = s.l1_reads;
  d["l1_read_hits"] = s.l1_read_hits;
  d["l1_pending_hits"] = s.l1_pending_hits;
  d["l1_line_misses"] = s.l1_line_misses;
  d["l1_writes"] = s.l1_writes;
  d["mshr_merges"] = s.mshr_merges;
  d["mshr_stall_cycles"] = s.mshr_stall_cycles;
  d["l2_reads"] = s.l2_reads;
  d["l2_read_hits"] = s.l2_read_hits;
  d["l2_writes"] = s.l2_writes;
  d["l2_bank_wait_cycles"] = s.l2_bank_wait_cycles;
  d["dram_read_bytes"] = s.dram_read_bytes;
  d["dram_write_bytes"] = s.dram_write_bytes;
  d["dram_bytes"] = s.dram_bytes();
  d["l1_hit_rate"] = s.l1_hit_rate();
  d["l2_hit_rate"] = s.l2_hit_rate();
  d["average_latency"] = s.average_latency();
  return d;
}

}  // namespace

void register_memory(py::module_& m) {
  py::class_<MemoryHierarchy>(m, "MemoryHierarchy")
      .def(py::init([](const NamedValues& gpu, std::int64_t sample_cycles,
                       const std::string& booking, std::int64_t dram_write_queue) {
             MemoryConfig c = memory_config(make_gpu(gpu));
             if (sample_cycles < 0) throw ConfigError("sample_cycles must be >= 0");
             c.sample_cycles = sample_cycles;
             if (booking == "gap_filling") {
               c.booking = Booking::gap_filling;
             } else if (booking != "in_order") {
               throw ConfigError("booking must be 'in_order' or 'gap_filling'; got '" + booking +
                                 "'");
             }
             if (dram_write_queue < 0 ||
                 (dram_write_queue > 0 && c.booking != Booking::gap_filling))
               throw ConfigError("dram_write_queue must be >= 0, and 0 unless booking is "
                                 "'gap_filling'");
             c.dram_write_queue = dram_write_queue;
             return MemoryHierarchy(c);
           }),
           py::arg("gpu"), py::arg("sample_cycles"), py::arg("booking") = "in_order",
           py::arg("dram_write_queue") = 0)
      .def("advance", &MemoryHierarchy::advance, py::arg("horizon"))
      .def(
          "replay",
          [](MemoryHierarchy& h, const I64Array& sm, const I64Array& cycle, const U64Array& address,
             const BoolArray& is_write, std::int64_t bytes) {
            const py::ssize_t n = address.ndim() == 1 ? address.shape(0) : -1;
            if (n < 0) throw ConfigError("address is a one-dimensional array");
            check_rows(n, sm, cycle, is_write, h.config().sms);
            check_bytes(bytes, std::int64_t{1} << 40);
            std::vector<std::int64_t> done(static_cast<std::size_t>(n));
            {
              py::gil_scoped_release release;
              for (py::ssize_t i = 0; i < n; ++i)
                done[i] = h.access(sm.data()[i], cycle.data()[i], address.data()[i], bytes,
                                   is_write.data()[i]);
            }
            return to_numpy(std::move(done));
          },
          py::arg("sm"), py::arg("cycle"), py::arg("address"), py::arg("is_write"),
          py::arg("bytes"))
      .def(
          "replay_warps",
          [](MemoryHierarchy& h, const I64Array& sm, const I64Array& cycle, const U64Array& address,
             const U32Array& active, const BoolArray& is_write, std::int64_t bytes) {
            const py::ssize_t n = address.ndim() == 2 ? address.shape(0) : -1;
            if (n < 0 || address.shape(1) != kWarpSize)
              throw ConfigError("a warp trace's addresses are an (n, 32) array");
            if (active.ndim() != 1 || active.shape(0) != n)
              throw ConfigError("a warp trace's active masks are one 32-bit mask per warp");
            check_rows(n, sm, cycle, is_write, h.config().sms);
            check_bytes(bytes, kSectorBytes);
            std::vector<std::int64_t> done(static_cast<std::size_t>(n));
            {
              py::gil_scoped_release release;
              for (py::ssize_t i = 0; i < n; ++i)
                done[i] = h.access_warp(sm.data()[i], cycle.data()[i],
                                        address.data() + i * kWarpSize, active.data()[i], bytes,
                                        is_write.data()[i]);
            }
            return to_numpy(std::move(done));
          },
          py::arg("sm"), py::arg("cycle"), py::arg("address"), py::arg("active"),
          py::arg("is_write"), py::arg("bytes"))
      .def("stats", &stats_dict)
      .def("dram_queue_samples", [](const MemoryHierarchy& h) {
        std::vector<double> s = h.dram_queue_samples();
        return to_numpy(std::move(s));
      });
}

}  // namespace tbdse::bindings
