// The host and the command engines of one stream, for the multi-kernel
// schemes (BlockMaestro ISCA 2021 §II-A, §III-C, §IV, Fig. 5).  The host walks
// the command queue; copies run one at a time on a copy engine.
//
// A launch is the host's API call (`launch_api` cycles: GpuConfig's
// launch_api_us, at most host_launch_us) followed by the device-side latency
// (`launch_latency`: the rest of host_launch_us), after which its kernel is
// resident: its TBs may run as their dependencies allow.  API calls are
// serialised — one at a time, in issue order — and the host thread is busy
// during one, so the host issues its next command only after it; the
// device-side latencies of successive launches overlap.  Launches that may go
// together (pre-launched kernels) therefore pipeline at one per API call (the
// paper's 5 us = 2 us API call + 3 us device side: resident at 5, 7, 9 us),
// while a launch that waits for the previous kernel (the baseline, depth 0)
// still costs the whole host_launch_us between kernels.  An API call of
// launch_api >= host_launch_us is the whole launch: launches fully serialised.
// The call is charged when the launch may go, not when the host reached it: a
// launch held by the pre-launch window makes its call once the window opens,
// even while the host waits on a later blocking call.
//
// Stream order (reorder off; the baseline): a copy waits until everything
// before it in the stream has finished (kernels completed); a launch waits for
// the copy before it, or for the previous launch's API call — and for launch
// i - 1 - depth to have completed, so at most depth + 1 kernels are resident
// or being launched (depth 0: kernels run one after another, each launch after
// the previous kernel completed).  Allocations and copies block the host; a
// sync blocks it until the stream is empty; launches block it only for their
// API call.
//
// Reordered (§III-C "Programmer-transparent API command reordering", Fig. 5c):
// first the calls that feed kernels (allocations, copies to the device) move
// ahead of the launches and copies to the host they have no data dependency
// with, then each launch ahead of the calls it has no data dependency with
// (an allocation or copy to the device of a buffer it uses, a copy to the host
// of a buffer it writes), so no launch waits behind a call it does not need
// (Fig. 5 keeps K1 ahead of cudaMalloc(B): see build_order); then calls
// wait only for their data dependencies — a copy to the device for the earlier kernels and
// copies that use its buffer, a copy to the host for the earlier kernels that
// write its buffer — and syncs are dropped.  Only allocations and copies to
// the host still block the host ("the only API call requiring implicit
// synchronization is ... a RAW hazard with the host").
//
// Kernels complete in order (§III-B1): the scheme reports a kernel complete
// once its TBs and every earlier kernel have finished.
#pragma once

#include <cstdint>
#include <vector>

#include "core/application.hpp"
#include "core/types.hpp"

namespace tbdse::blockmaestro {

class HostQueue {
 public:
  struct Options {
    std::int64_t depth = 0;            // kernels launched ahead of the oldest incomplete one
    bool reorder = false;              // Fig. 5c reordering and non-blocking calls
    Cycle launch_api = 0;              // a launch's API call, serialised (GpuConfig::launch_api_cycles)
    Cycle launch_latency = 0;          // then until resident, overlapping (launch_latency_cycles)
    Cycle malloc_cycles = 0;           // one allocation
    Cycle copy_latency = 0;            // fixed cost of one copy
    double copy_bytes_per_cycle = 1;   // copy bandwidth
  };
  struct Started {
    std::int32_t command;
    Cycle done_at;       // report finished(command) then (a launch: its kernel is resident)
    Cycle call_done_at;  // before done_at: a launch's API call ends then (report
                         // call_done(command)); else finished() ends it, if any
  };

  HostQueue(const Application& app, const Options& options);

  // Lets the host issue and the engines start whatever may at `now`; appends
  // the commands started, each to be reported back through finished() at
  // done_at.
  void advance(Cycle now, std::vector<Started>& started);
  // A started command's time is up: an allocation or copy is done; a launch
  // has been launched (its kernel is resident).
  void finished(std::int32_t command, Cycle now);
  // A launch's API call is over: the host and the next call may go.
  void call_done(std::int32_t command, Cycle now);
  // Launch `launch` completed (in order: every earlier one has).
  void kernel_completed(std::int32_t launch, Cycle now);

  const HostCommand& command(std::int32_t c) const { return app_.commands[c]; }
  std::int32_t launch_command(std::int32_t launch) const { return launch_command_[launch]; }
  // When every call launch `launch` has a data dependency on had finished
  // (its input copies, allocations); valid once the launch has started.
  Cycle data_ready(std::int32_t launch) const;
  bool idle() const;                          // every command done, the host at the end
  Cycle last_done() const { return last_done_; }
  std::int32_t completed_launches() const { return completed_; }
  Cycle host_blocked_cycles() const { return blocked_cycles_; }
  Cycle copy_cycles() const { return copy_cycles_; }
  // Cycles during which some launch was in progress (its API call or its
  // device-side latency); launches in flight together count once.
  Cycle launch_cycles_total() const { return launch_total_; }
  // Why `launch` has not been launched yet, for deadlock reports.
  std::string explain_launch(std::int32_t launch) const;

 private:
  struct Wait {
    std::vector<std::int32_t> commands;  // must be done
    std::int32_t kernel = -1;            // launches 0..kernel must have completed
  };
  enum class Engine : std::uint8_t { HOST, COPY, LAUNCH, NONE };

  void build_order();
  bool may_pass(const HostCommand& later, const HostCommand& earlier) const;
  void build_waits();
  bool blocks_host(const HostCommand& c) const;
  bool can_start(std::int32_t c) const;
  bool issue_next(Cycle now);
  bool start_pending(Cycle now, std::vector<Started>& started);
  Engine engine_of(const HostCommand& c) const;
  Cycle duration(const HostCommand& c) const;

  const Application& app_;
  Options options_;
  std::vector<std::int32_t> order_;          // issue order (queue order, or reordered)
  std::vector<Wait> wait_;                   // per command: what it waits for to start
  std::vector<std::vector<std::int32_t>> data_preds_;  // per launch: calls it needs the data of
  std::vector<std::int32_t> launch_command_;  // per launch: its command
  std::vector<std::uint8_t> issued_, started_, done_;
  std::vector<Cycle> done_time_;
  std::vector<std::int32_t> pending_;         // issued, not started, in issue order
  std::size_t next_ = 0;                      // next position of order_ to issue
  std::int32_t host_blocked_on_ = -1;         // command the host waits for
  std::int32_t in_call_ = -1;                 // launch whose API call runs (the host is busy)
  std::int32_t launching_ = 0;                // launches started, kernel not resident yet
  Cycle blocked_since_ = 0;
  bool copy_busy_ = false;
  std::int32_t completed_ = 0;                // launches completed, in order
  Cycle last_done_ = 0, blocked_cycles_ = 0, copy_cycles_ = 0, launch_total_ = 0;
  Cycle launch_covered_ = 0;                  // launch_total_ counted up to here
};

}  // namespace tbdse::blockmaestro
