// Data footprints of an application's TBs from BlockMaestro's access ranges
// (the same per-TB read and write boxes Algorithm 1 derives, §III-B): the byte
// ranges each TB reads and writes, for the TB engine's memory hierarchy
// (docs/simulation.md "Data footprints").  A consumer TB issued soon after
// its producers finds their lines in L2; one issued after a whole kernel's
// worth of other data has streamed through does not — no per-policy term.
//
// Layout (tbdse's assumption, docs/models/blockmaestro.md "Locality"): the
// buffers are allocated one after another in malloc order, each at a
// 4096-byte-aligned base, row-major with the buffer's element size.  A box
// becomes one byte range per contiguous run of its rows (trailing dimensions
// the box covers whole merge into one run).  An indirect access has no known
// addresses and adds no range.
#pragma once

#include <cstdint>
#include <vector>

#include "access_ranges.hpp"

namespace tbdse::blockmaestro {

// Per task (input ids: launch 0's TBs, then launch 1's, ...), CSR: task t's
// ranges are [start[t], start[t+1]).  Reads first, then writes.
struct Footprints {
  std::vector<std::int64_t> start{0};
  std::vector<std::uint64_t> base;
  std::vector<std::int64_t> bytes;
  std::vector<std::uint8_t> write;  // 1: a write range
};

// Base address of each buffer: consecutive, 4096-byte aligned, from 4096.
std::vector<std::uint64_t> buffer_bases(const std::vector<BufferShape>& buffers,
                                        const std::vector<std::int64_t>& element_bytes);

// Appends the footprints of every TB of `kernel` (block linear order).  The
// kernel must have passed check_kernel.  ConfigError when one TB would have
// more than max_ranges ranges ("declare the access with fewer rows").
void append_footprints(const std::vector<BufferShape>& buffers,
                       const std::vector<std::int64_t>& element_bytes,
                       const std::vector<std::uint64_t>& bases, const KernelAccess& kernel,
                       std::int64_t max_ranges, Footprints& out);

}  // namespace tbdse::blockmaestro
