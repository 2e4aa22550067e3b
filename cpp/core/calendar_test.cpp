// Goldens of gap-filling booking (docs/memory.md "Booking"): the calendar,
// DRAM channels and the hierarchy under booking gap_filling.
#include "core/calendar.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include "core/dram.hpp"
#include "core/errors.hpp"
#include "core/mem_hierarchy.hpp"

using namespace tbdse;

namespace {

std::uint64_t xorshift(std::uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// 512 line reads at cycle 0 from each of SMs 0..7 in turn (each SM its own
// lines); returns each SM's last completion.
std::vector<Cycle> eight_sms(Booking booking) {
  MemoryConfig c = memory_config(gpu_preset("titanx_pascal"));
  c.l1_mshrs = 32;  // the figures below; the preset has 256 (GPGPU-Sim's SM6_TITANX)
  c.booking = booking;
  c.sample_cycles = 0;
  MemoryHierarchy m(c);
  std::vector<Cycle> last;
  for (std::int64_t sm = 0; sm < 8; ++sm) {
    Cycle done = 0;
    for (std::uint64_t i = 0; i < 512; ++i)
      done = std::max(done, m.access(sm, 0, (std::uint64_t(sm) << 24) + 128 * i, 128, false));
    last.push_back(done);
  }
  return last;
}

// The calendar's specification, as simply as it can be written: a tree of
// busy spans (what the calendar was first).  The array calendar must give
// the same start for every booking.
class ReferenceCalendar {
 public:
  explicit ReferenceCalendar(double slot) : slot_(slot) {}
  double book(double at) {
    auto it = spans_.upper_bound(at);
    if (it != spans_.begin() && std::prev(it)->second > at) --it;
    double start = at;
    for (; it != spans_.end() && it->first - start < slot_ - 1e-9; ++it)
      start = std::max(start, it->second);
    const double end = start + slot_;
    const auto prev = it == spans_.begin() ? spans_.end() : std::prev(it);
    const bool joins_prev = prev != spans_.end() && start - prev->second < slot_ - 1e-9;
    const bool joins_next = it != spans_.end() && it->first - end < slot_ - 1e-9;
    if (joins_prev && joins_next) {
      prev->second = it->second;
      spans_.erase(it);
    } else if (joins_prev) {
      prev->second = end;
    } else if (joins_next) {
      const double next_end = it->second;
      spans_.erase(it);
      spans_.emplace(start, next_end);
    } else {
      spans_.emplace(start, end);
    }
    return start;
  }
  void prune(double horizon) {
    while (!spans_.empty() && spans_.begin()->second <= horizon) spans_.erase(spans_.begin());
  }
  double busy_after(double cycle) const {
    double busy = 0;
    for (const auto& [start, end] : spans_)
      if (end > cycle) busy += end - std::max(start, cycle);
    return busy;
  }
  std::size_t spans() const { return spans_.size(); }

 private:
  double slot_;
  std::map<double, double> spans_;
};

}  // namespace

TEST_CASE("calendar: out-of-order bookings and pruning as the reference tree, exactly") {
  for (const double slot : {1.0, 32.0 / 28.228652081863093, 4.0}) {
    CAPTURE(slot);
    Calendar c(slot);
    ReferenceCalendar r(slot);
    std::uint64_t x = 2024;
    double horizon = 0;
    std::size_t most = 0;
    for (int i = 0; i < 200000; ++i) {
      // Arrivals scattered over a window ahead of the horizon (out of order),
      // integer cycles as the engine sends them.
      const double at = horizon + static_cast<double>(xorshift(x) % 600);
      const double expect = r.book(at);
      REQUIRE(c.earliest(at) == expect);
      REQUIRE(c.book(at) == expect);
      if (i % 97 == 0) {
        horizon += static_cast<double>(xorshift(x) % 400) * slot;  // about half loaded
        c.prune(horizon);
        r.prune(horizon);
        REQUIRE(c.spans() == r.spans());
        most = std::max(most, c.spans());
        REQUIRE(c.busy_after(horizon) == doctest::Approx(r.busy_after(horizon)));
      }
    }
    CHECK(most > 20);  // the trace did leave gaps to fill
  }
}

TEST_CASE("calendar: in-order bookings queue, an earlier one fills a gap") {
  Calendar c(4);
  CHECK(c.book(0) == 0);
  CHECK(c.book(0) == 4);    // behind the first: [0, 8) busy
  CHECK(c.book(20) == 20);  // idle resource: [20, 24)
  CHECK(c.spans() == 2);
  CHECK(c.book(5) == 8);    // out of order: the gap [8, 20) takes it
  CHECK(c.book(9) == 12);
  CHECK(c.book(13) == 16);  // exactly fills the gap: all one span [0, 24)
  CHECK(c.spans() == 1);
  CHECK(c.book(26) == 26);  // [24, 26) is shorter than a slot: it joins, [0, 30)
  CHECK(c.spans() == 1);
  CHECK(c.book(24) == 30);  // so it takes nothing
  CHECK(c.busy_after(30) == doctest::Approx(4.0));  // [0, 34) busy
  c.prune(34);
  CHECK(c.spans() == 0);
}

TEST_CASE("calendar: on a random in-order trace it is the 'next free' time, exactly") {
  const double length = 32.0 / 28.228652081863093;  // a fractional sector time
  Calendar c(length);
  double free = 0;
  std::uint64_t x = 99;
  double t = 0;
  for (int i = 0; i < 100000; ++i) {
    t += static_cast<double>(xorshift(x) % 3);  // bursts and idle stretches
    const double start = c.book(t);
    const double old = std::max(free, t);
    free = old + length;
    REQUIRE(start == old);
    if (i % 1000 == 0) c.prune(t);
  }
  CHECK(c.spans() <= 2);
}

TEST_CASE("DRAM gap_filling: in-order transfers as in_order, an earlier one fills a gap") {
  Dram a(3, 28.228652081863093, 234), b(3, 28.228652081863093, 234, Booking::gap_filling);
  std::uint64_t x = 7;
  Cycle t = 0;
  for (int i = 0; i < 50000; ++i) {
    t += static_cast<Cycle>(xorshift(x) % 2);
    const std::uint64_t address = (xorshift(x) % 4096) * 32;
    const bool write = xorshift(x) % 4 == 0;
    REQUIRE(a.transfer(address, t, write) == b.transfer(address, t, write));
  }
  CHECK(a.backlog(t) == doctest::Approx(b.backlog(t)));

  Dram late(1, 8.0, 100, Booking::gap_filling);  // 4 cycles a sector
  CHECK(late.transfer(0, 1000, false) == 1004 + 100);
  CHECK(late.transfer(32, 0, false) == 4 + 100);  // before it, not behind it
  Dram old(1, 8.0, 100);
  old.transfer(0, 1000, false);
  CHECK(old.transfer(32, 0, false) == 1008 + 100);
  CHECK_THROWS_AS(Dram(1, 8.0, 100, Booking::in_order, 4), ConfigError);
}

TEST_CASE("DRAM write queue: writes take the slots reads leave, a full queue forces one") {
  Dram d(1, 8.0, 100, Booking::gap_filling, 2);  // 4 cycles a sector, 2 writes held
  d.transfer(0, 0, true);
  d.transfer(32, 0, true);
  CHECK(d.transfer(64, 0, false) == 4 + 100);  // the read goes first: the writes wait
  CHECK(d.backlog(0) == doctest::Approx(3.0));  // one read in service, two writes queued
  d.transfer(96, 0, true);                      // full: the oldest write is forced now
  CHECK(d.transfer(128, 0, false) == 12 + 100);  // [4, 8) taken by the forced write
  d.advance(100);  // the two held writes drain into [12, 20): idle behind the horizon
  CHECK(d.backlog(100) == doctest::Approx(0.0));
  CHECK(d.transfer(160, 100, false) == 104 + 100);
  CHECK(d.write_bytes() == 96);
}

TEST_CASE("hierarchy gap_filling: eight SMs issued at cycle 0 each take one SM's time") {
  // titanx_pascal: a line miss is one L2 port cycle, 4 sectors on one DRAM
  // channel (4 x 1.13 cycles), 234 DRAM + 216 L2 cycles: ~455 cycles; 512
  // lines through 32 MSHRs are 16 rounds of it, about 7,361 cycles.  Eight
  // SMs move 16,384 sectors over 12 channels: ~1,550 cycles of transfer, far
  // below 7,361, so bandwidth is no limit and each SM should take about the
  // single-SM time.  In order, each SM queues behind the previous one's
  // bookings (k + 1 times the single-SM time).
  const std::vector<Cycle> gap = eight_sms(Booking::gap_filling);
  const std::vector<Cycle> in_order = eight_sms(Booking::in_order);
  CHECK(gap[0] == 7361);
  CHECK(in_order[0] == 7361);
  for (std::size_t sm = 1; sm < 8; ++sm) {
    CAPTURE(sm);
    CHECK(gap[sm] >= gap[0]);
    CHECK(gap[sm] <= gap[0] + gap[0] / 20);  // within 5%: a little real contention
    CHECK(in_order[sm] > static_cast<Cycle>(sm) * gap[0]);
  }
}

TEST_CASE("hierarchy gap_filling: a trace whose requests stay in order gives in_order's times") {
  // One SM with MSHRs to spare: its L1 port, L2 port and DRAM requests come in
  // non-decreasing cycles, so both bookings must agree on every completion.
  for (const auto& name : {"gtx480", "titanx_pascal"}) {
    CAPTURE(name);
    MemoryConfig c = memory_config(gpu_preset(name));
    c.sms = 1;
    c.l1_mshrs = 1 << 16;
    c.sample_cycles = 100;
    MemoryConfig g = c;
    g.booking = Booking::gap_filling;
    MemoryHierarchy a(c), b(g);
    std::uint64_t x = 4242;
    for (Cycle t = 0; t < 20000; ++t) {
      const bool write = xorshift(x) % 4 == 0;
      const std::uint64_t base = xorshift(x) % (1 << 22);
      const auto bytes = static_cast<std::int64_t>(xorshift(x) % 512) + 1;
      REQUIRE(a.access_range(0, t, base, bytes, write) == b.access_range(0, t, base, bytes, write));
      if (t % 500 == 0) b.advance(t);
    }
    CHECK(a.stats().l2_bank_wait_cycles == b.stats().l2_bank_wait_cycles);
    CHECK(a.stats().dram_bytes() == b.stats().dram_bytes());
    // The backlog counts busy time after the sample; in_order's "next free"
    // also counts idle stretches before its latest booking.
    REQUIRE(a.dram_queue_samples().size() == b.dram_queue_samples().size());
    for (std::size_t i = 0; i < a.dram_queue_samples().size(); ++i)
      CHECK(b.dram_queue_samples()[i] <= a.dram_queue_samples()[i] + 1e-6);
  }
}
