// BlockMaestro's launches (ISCA 2021 §IV): the host's API call, serialised
// and keeping the host busy, then a device-side latency that overlaps other
// launches — pre-launched kernels' launches pipeline at one per API call, the
// baseline pays the whole launch between kernels.  Every expected cycle is
// derived by hand in the comments.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/application.hpp"
#include "models/blockmaestro/host_queue.hpp"
#include "models/blockmaestro/host_queue_test_support.hpp"

using namespace tbdse;
using namespace tbdse::blockmaestro;
using namespace tbdse::blockmaestro::test_support;

TEST_CASE("HostQueue: pre-launched kernels' launches pipeline at one per API call") {
  // The paper's launch (§IV): 5 us = a 2 us API call + 3 us on the device; at
  // 1000 MHz, 2000 + 3000 cycles.  Three launches.
  Builder b;
  for (int i = 0; i < 3; ++i) b.launch({}, {});
  const Application app = b.build();
  HostQueue::Options o;
  o.launch_api = 2000;
  o.launch_latency = 3000;

  // Depth 2, independent kernels: nothing holds a launch but the calls, one
  // at a time: calls 0-2000, 2000-4000, 4000-6000, each kernel resident 3000
  // after its call: 5000, 7000, 9000 (5, 7, 9 us) — one launch per 2 us, not
  // per 5 us.  Launch overhead: the union 0-9000 of the three spans.  The
  // kernels (10000 cycles) are all resident at once.
  o.depth = 2;
  const std::vector<Kernel> independent(3, Kernel{10000, false});
  const Trace p = drive(app, o, independent);
  CHECK(p.start == V{0, 2000, 4000});
  CHECK(p.call_done == V{2000, 4000, 6000});
  CHECK(p.launched == V{5000, 7000, 9000});
  CHECK(p.completed == V{15000, 17000, 19000});
  CHECK(p.launch_total == 9000);
  CHECK(p.max_resident == 3);
  CHECK(p.idle);

  // Depth 0, a dependent chain of 1000-cycle kernels (the baseline): each launch after the previous
  // kernel completed, so each costs the whole 5 us: L0 0-5000, K0 5000-6000;
  // L1 6000-11000, K1 -12000; L2 12000-17000, K2 -18000.  Gaps of 5000.
  o.depth = 0;
  const std::vector<Kernel> chain(3, Kernel{1000, true});
  const Trace base = drive(app, o, chain);
  CHECK(base.start == V{0, 6000, 12000});
  CHECK(base.launched == V{5000, 11000, 17000});
  CHECK(base.completed == V{6000, 12000, 18000});
  CHECK(base.launch_total == 15000);

  // Depth 1, the chain: L1's call follows L0's (2000-4000, resident 7000; K1
  // 7000-8000 after K0 5000-6000); L2 waits for K0 (6000): call 6000-8000,
  // resident 11000, K2 11000-12000.
  o.depth = 1;
  const Trace one = drive(app, o, chain);
  CHECK(one.start == V{0, 2000, 6000});
  CHECK(one.launched == V{5000, 7000, 11000});
  CHECK(one.completed == V{6000, 8000, 12000});
  CHECK(one.launch_total == 11000);  // 0-5000, 2000-7000, 6000-11000: one span 0-11000

  // An API call as long as the whole launch (launch_api_us >= host_launch_us):
  // fully serialised, resident at 5000, 10000, 15000.
  o.depth = 2;
  o.launch_api = 5000;
  o.launch_latency = 0;
  const Trace serial = drive(app, o, independent);
  CHECK(serial.start == V{0, 5000, 10000});
  CHECK(serial.call_done == V{kNever, kNever, kNever});  // each call ends with its launch
  CHECK(serial.launched == V{5000, 10000, 15000});
  CHECK(serial.launch_total == 15000);

  // No API call (launch_api_us 0): only the device side, all at once.
  o.launch_api = 0;
  o.launch_latency = 3000;
  const Trace device = drive(app, o, independent);
  CHECK(device.start == V{0, 0, 0});
  CHECK(device.launched == V{3000, 3000, 3000});
  CHECK(device.launch_total == 3000);
}

TEST_CASE("HostQueue: the host is busy during a launch's API call") {
  // L0; L1; malloc A; L2(A).  Calls 2000, device side 3000, allocation 500,
  // depth 2.  The host issues the allocation after L1's call (2000-4000):
  // 4000-4500, blocking it; L2 needs A: call 4500-6500, resident 9500.
  Builder b;
  const std::int32_t a = b.buffer("A");
  b.launch({}, {});
  b.launch({}, {});
  b.malloc(a);
  b.launch({a}, {a});
  const Application app = b.build();
  HostQueue::Options o;
  o.depth = 2;
  o.launch_api = 2000;
  o.launch_latency = 3000;
  o.malloc_cycles = 500;
  const Trace t = drive(app, o, std::vector<Kernel>(3, Kernel{100, false}));
  CHECK(t.start == V{0, 2000, 4000, 4500});
  CHECK(t.done == V{5000, 7000, 4500, 9500});
  CHECK(t.blocked == 500);  // the allocation; API calls are not blocking waits
  CHECK(t.data_ready == V{0, 0, 4500});

  // Reordered, the same: L2 may not pass the allocation of A; the host is as
  // busy.  With the call as long as the launch, everything after a launch
  // waits 5000: malloc A 10000-10500, L2 10500-15500.
  o.reorder = true;
  CHECK(drive(app, o, std::vector<Kernel>(3, Kernel{100, false})).start == V{0, 2000, 4000, 4500});
  o.launch_api = 5000;
  o.launch_latency = 0;
  const Trace serial = drive(app, o, std::vector<Kernel>(3, Kernel{100, false}));
  CHECK(serial.start == V{0, 5000, 10000, 10500});
  CHECK(serial.done == V{5000, 10000, 10500, 15500});
}
