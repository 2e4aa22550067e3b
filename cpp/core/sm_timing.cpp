#include "sm_timing.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors.hpp"

namespace tbdse {

double sm_issue_rate(const GpuConfig& gpu) {
  return std::min(static_cast<double>(gpu.issue_width), static_cast<double>(gpu.lanes) / 32.0);
}

double issue_demand(const GpuConfig& gpu, std::int64_t threads, double issue_interval) {
  const double warps = static_cast<double>((threads + 31) / 32);
  // At most all of it: a TB's cost is its time alone on an SM, so one that
  // alone would issue more than the SM can is issue-bound in that cost already.
  return std::min(1.0, warps / (issue_interval * sm_issue_rate(gpu)));
}

SharedSms::SharedSms(const GpuConfig& gpu)
    : saturation_(gpu.sm_saturation),
      oldest_first_(gpu.oldest_first()),
      age_by_level_(gpu.age_by_level()),
      // GB/s -> bytes per cycle: 1e9 B/s over clock_mhz * 1e6 cycles/s
      bandwidth_(gpu.mem_bandwidth * 1000.0 / gpu.clock_mhz),
      resident_(static_cast<std::size_t>(gpu.sms)),
      touched_at_(static_cast<std::size_t>(gpu.sms), -1),
      spin_(static_cast<std::size_t>(gpu.sms), 0.0),
      is_dirty_(static_cast<std::size_t>(gpu.sms), 0),
      heap_(static_cast<std::size_t>(gpu.sms)) {}

void SharedSms::touch(SmId sm, Cycle now) {
  if (!is_dirty_[sm]) {
    is_dirty_[sm] = 1;
    dirty_.push_back(sm);
  }
  if (touched_at_[sm] == now) return;
  touched_at_[sm] = now;
  for (const std::int32_t h : resident_[sm]) {
    Running& r = running_[h];
    r.remaining = std::max(0.0, r.remaining - static_cast<double>(now - r.since) * r.rate);
    r.since = now;
  }
}

void SharedSms::start(std::int32_t handle, SmId sm, const Tb& tb, Cycle now) {
  touch(sm, now);
  if (static_cast<std::size_t>(handle) >= running_.size()) running_.resize(handle + 1);
  Running& r = running_[handle];
  r = Running{};
  r.remaining = static_cast<double>(tb.cost);
  r.mem_fraction = tb.mem_fraction;
  r.demand = tb.cost > 0 && tb.mem_fraction > 0 && !tb.hierarchy ? tb.bytes / static_cast<double>(tb.cost) : 0.0;
  r.units = tb.units;
  r.hierarchy = tb.hierarchy;
  r.since = now;
  r.started = tb.started >= 0 ? tb.started : now;
  r.seq = tb.seq;
  r.level = tb.level;
  r.sm = sm;
  r.active = true;
  if (r.demand > 0) ++memory_tbs_;
  ++running_count_;
  resident_[sm].push_back(handle);
}

Cycle SharedSms::stop(std::int32_t handle, Cycle now) {
  Running& r = running_[handle];
  touch(r.sm, now);
  auto& on_sm = resident_[r.sm];
  const auto it = std::find(on_sm.begin(), on_sm.end(), handle);
  *it = on_sm.back();
  on_sm.pop_back();
  if (r.demand > 0) --memory_tbs_;
  if (r.planned >= 0) --planned_;
  r.active = false;
  r.planned = -1;
  --running_count_;
  return r.started;
}

void SharedSms::add_spin(SmId sm, double weight, Cycle now) {
  touch(sm, now);  // the running TBs progress at their old rates until now
  spin_[sm] += weight;
  if (spin_[sm] < 1e-9) spin_[sm] = 0.0;  // all removed: exactly none (no rounding residue)
}

void SharedSms::settle_shares(SmId sm) {
  auto& on_sm = resident_[sm];
  if (!oldest_first_) {
    double units = 0;  // exactly the resident count when no kernel states traits
    for (const std::int32_t h : on_sm) units += running_[h].units;
    const double share = std::min(1.0, saturation_ / (units + spin_[sm]));
    for (const std::int32_t h : on_sm) running_[h].share = share;
    return;
  }
  // Oldest first: lowest level (oldest_first only), then earliest start,
  // then issue order.
  std::sort(on_sm.begin(), on_sm.end(), [&](std::int32_t a, std::int32_t b) {
    const Running &x = running_[a], &y = running_[b];
    if (age_by_level_ && x.level != y.level) return x.level < y.level;
    if (x.started != y.started) return x.started < y.started;
    return x.seq < y.seq;
  });
  double left = saturation_;  // spinners take only what the tasks leave (add_spin)
  for (const std::int32_t h : on_sm) {
    Running& r = running_[h];
    // A TB timed through the memory hierarchy issues only while it computes:
    // GTO turns to younger warps while the old ones wait on their loads, so
    // it takes (1 - mem_fraction) of the issue slots its share gives it.
    const double busy = r.hierarchy ? 1.0 - r.mem_fraction : 1.0;
    if (r.units == 1.0) {  // no traits: today's arithmetic, exactly
      r.share = std::clamp(left, 0.0, 1.0);
      left -= r.share * busy;
    } else {
      r.share = std::clamp(left / r.units, 0.0, 1.0);
      left -= r.share * r.units * busy;
    }
    // What older TBs leave is a difference of fractions: its rounding residue
    // (~1e-16) is no issue share, and as one it put a TB's end past 2^62
    // cycles (found by the Wireframe sensitivity run at sm_saturation 2).
    if (left < 1e-9) left = 0.0;
  }
}

namespace {

// Progress of a TB at SM share s, memory share f of its work, memory speed m.
double progress(double s, double f, double m) {
  if (s <= 0) return 0.0;
  if (f <= 0) return s;
  return 1.0 / ((1.0 - f) / s + f / m);
}

}  // namespace

double SharedSms::rate_of(const Running& r) const {
  return progress(r.share, r.mem_fraction, r.hierarchy ? 1.0 : memory_);
}

double SharedSms::memory_speed() const {
  if (bandwidth_ <= 0 || memory_tbs_ == 0) return 1.0;
  // Bytes per cycle the running TBs move at memory speed m (increasing and
  // concave in m), and its slope.
  const auto load = [&](double m, double* slope) {
    double total = 0, d = 0;
    for (const Running& r : running_) {
      if (!r.active || r.demand <= 0) continue;
      const double rho = progress(r.share, r.mem_fraction, m);
      total += r.demand * rho;
      d += r.demand * rho * rho * r.mem_fraction / (m * m);
    }
    *slope = d;
    return total;
  };
  double slope = 0;
  double m = 1.0;
  double g = load(m, &slope);
  if (g <= bandwidth_) return 1.0;
  // Newton from the right: on a concave increasing load the first step lands
  // at or below the root and the next ones climb to it, never above.
  for (int i = 0; i < 100; ++i) {
    const double next = std::max(m - (g - bandwidth_) / slope, 1e-15);
    g = load(next, &slope);
    const bool done = std::abs(next - m) <= 1e-12 * next;
    m = next;
    if (done || std::abs(g - bandwidth_) <= 1e-12 * bandwidth_) break;
  }
  return std::min(m, 1.0);
}

void SharedSms::plan(std::int32_t handle, Cycle now) {
  Running& r = running_[handle];
  r.rate = rate_of(r);
  Cycle planned = -1;
  if (r.remaining <= 0) {
    planned = now;
  } else if (r.rate > 0) {
    const double t = r.remaining / r.rate;
    // whole cycles, forgiving the rounding of earlier rate changes
    const double whole = std::ceil(t - 1e-9 * std::max(1.0, t));
    if (whole >= static_cast<double>(kMaxTime - now))
      throw SimulationError("the run passes cycle 2^62 (" + std::to_string(kMaxTime) +
                            "), the longest the simulator can represent: a TB shares its SM or "
                            "memory too thinly to finish");
    planned = now + static_cast<Cycle>(whole);
  }
  if (planned == r.planned) return;
  if (planned >= 0 && r.planned < 0) ++planned_;
  if (planned < 0 && r.planned >= 0) --planned_;
  r.planned = planned;
  if (planned >= 0) heap_.push(planned, r.seq, handle);
}

Cycle SharedSms::next_finish(Cycle now) {
  if (!dirty_.empty()) {
    for (const SmId sm : dirty_) settle_shares(sm);
    const double m = memory_speed();
    if (m != memory_) {  // every TB with memory time changes speed
      for (SmId sm = 0; sm < static_cast<SmId>(resident_.size()); ++sm)
        for (const std::int32_t h : resident_[sm])
          if (running_[h].mem_fraction > 0 && !running_[h].hierarchy) {
            touch(sm, now);
            break;
          }
      memory_ = m;
    }
    for (const SmId sm : dirty_) {
      for (const std::int32_t h : resident_[sm]) plan(h, now);
      is_dirty_[sm] = 0;
    }
    dirty_.clear();
    compact();
  }
  return first_time();
}

void SharedSms::drop_stale() {
  while (!heap_.empty()) {
    const Running& r = running_[heap_.first()];
    if (r.active && r.seq == heap_.first_seq() && r.planned == heap_.first_time()) return;
    heap_.pop();
  }
}

Cycle SharedSms::first_time() {
  drop_stale();
  return heap_.first_time();
}

std::int32_t SharedSms::pop_first() {
  const std::int32_t handle = heap_.first();
  heap_.pop();
  return handle;
}

// Stale entries pile up when rates change often; rebuild from the live ones.
void SharedSms::compact() {
  if (heap_.size() <= 2 * planned_ + 64) return;
  FinishHeap fresh(planned_ + 1);
  for (std::size_t h = 0; h < running_.size(); ++h) {
    const Running& r = running_[h];
    if (r.active && r.planned >= 0) fresh.push(r.planned, r.seq, static_cast<std::int32_t>(h));
  }
  heap_ = std::move(fresh);
}

}  // namespace tbdse
