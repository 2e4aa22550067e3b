// BlockMaestro's host command queue (ISCA 2021 §II-A, §III-C, Fig. 5): stream
// order against reordering, pre-launch depth, blocking calls, dropped syncs.
// HostQueue is driven directly by a tiny event loop (host_queue_test_support);
// every expected cycle is derived by hand from host_queue.cpp in the comments.
// Launches split into API call and device side: host_queue_launch_test.cpp.
#include "models/blockmaestro/host_queue.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/application.hpp"
#include "core/errors.hpp"
#include "models/blockmaestro/host_queue_test_support.hpp"

using namespace tbdse;
using namespace tbdse::blockmaestro;
using namespace tbdse::blockmaestro::test_support;

namespace {

// cudaMalloc(A); cudaMemcpy(A); K1(A); cudaMalloc(B); cudaMemcpy(B); K2(A, B);
// cudaMemcpy(B -> host) — the paper's Fig. 5 (commands 0..6), 64-byte copies.
Application fig5() {
  Builder b;
  const std::int32_t a = b.buffer("A"), bb = b.buffer("B");
  b.malloc(a);           // 0
  b.h2d(a, 64);          // 1
  b.launch({a}, {a});    // 2: K1
  b.malloc(bb);          // 3
  b.h2d(bb, 64);         // 4
  b.launch({a, bb}, {bb});  // 5: K2
  b.d2h(bb, 64);         // 6
  return b.build();
}

// A launch 100 cycles, all of it the API call (launch_api >= host_launch_us),
// an allocation 50, a copy 64 bytes at 1 B/cycle = 64 (the Python golden
// test's Fig. 5 numbers).
HostQueue::Options fig5_options(bool reorder, std::int64_t depth) {
  HostQueue::Options o;
  o.depth = depth;
  o.reorder = reorder;
  o.launch_api = 100;
  o.malloc_cycles = 50;
  o.copy_latency = 0;
  o.copy_bytes_per_cycle = 1;
  return o;
}

}  // namespace

TEST_CASE("HostQueue, stream order, depth 0: each launch waits for the previous kernel") {
  Builder b;
  const std::int32_t a = b.buffer("A");
  b.malloc(a);        // 0
  b.launch({a}, {a});  // 1
  b.launch({a}, {a});  // 2
  b.launch({a}, {a});  // 3
  const Application app = b.build();
  HostQueue::Options o;
  o.launch_api = 10;  // the whole launch is the API call
  o.malloc_cycles = 5;
  // Waits: launch i: kernel i - 1 completed, launch i - 1's API call over.
  // t=0: malloc (blocks the host) 0-5.  t=5: L0 issued, its call 5-15 (the
  // host is busy, then issues L1 and L2, which do not block it); K0 runs
  // 15-115.  L1 waits for K0: 115-125, K1 125-175.  L2 waits for K1: 175-185,
  // K2 185-205.
  const Trace t = drive(app, o, {{100}, {50}, {20}});
  CHECK(t.start == V{0, 5, 115, 175});
  CHECK(t.done == V{5, 15, 125, 185});
  CHECK(t.completed == V{115, 175, 205});
  CHECK(t.max_resident == 1);
  CHECK(t.blocked == 5);  // only the allocation blocks
  CHECK(t.launch_total == 30);
  CHECK(t.copy == 0);
  CHECK(t.last_done == 205);
  CHECK(t.idle);
  CHECK(t.completed_launches == 3);
  CHECK(t.data_ready == V{5, 5, 5});  // every launch needs the allocation of A (done at 5)
}

TEST_CASE("HostQueue, stream order: depth d lets at most d + 1 kernels be resident") {
  // Five launches without buffers, 1000-cycle kernels that each need the
  // previous one, a launch 10 cycles (all API call).  Launch i waits for
  // launch i - 1's call and kernel i - 1 - d to be complete.
  Builder b;
  for (int i = 0; i < 5; ++i) b.launch({}, {});
  const Application app = b.build();
  const std::vector<Kernel> ks(5, Kernel{1000, true});
  for (std::int64_t depth = 0; depth <= 5; ++depth) {
    CAPTURE(depth);
    HostQueue::Options o;
    o.depth = depth;
    o.launch_api = 10;
    const Trace t = drive(app, o, ks);
    CHECK(t.max_resident == std::min<std::int64_t>(depth + 1, 5));
    for (std::size_t i = 0; i < 5; ++i) {
      const std::int64_t k = static_cast<std::int64_t>(i) - 1 - depth;
      if (k >= 0) CHECK(t.start[i] >= t.completed[static_cast<std::size_t>(k)]);
    }
    CHECK(t.idle);
    if (depth == 0) {
      // Launch i at the completion of kernel i - 1; each launch adds 10 cycles:
      // L0 0-10, K0 10-1010; L1 1010-1020, K1 -2020; ... K4 -5050.
      CHECK(t.start == V{0, 1010, 2020, 3030, 4040});
      CHECK(t.completed == V{1010, 2020, 3030, 4040, 5050});
    } else if (depth == 1) {
      // L0 0-10, K0 10-1010; L1 10-20 (K1 waits for K0: 1010-2010); L2 waits
      // for K0: 1010-1020, K2 2010-3010; L3 at K1's completion 2010; ...
      CHECK(t.start == V{0, 10, 1010, 2010, 3010});
      CHECK(t.completed == V{1010, 2010, 3010, 4010, 5010});
    } else {
      // Every launch back to back: 0, 10, 20, ... (launch i - 1 - d < 0 or
      // long complete); the kernels themselves are the same chain.
      CHECK(t.start[1] == 10);
      CHECK(t.completed == V{1010, 2010, 3010, 4010, 5010});
    }
  }
}

TEST_CASE("HostQueue: Fig. 5 in stream order — blocking calls block the host") {
  const Application app = fig5();
  // Waits (stream order): 1 H2D A none; 2 L(K1) after 1; 4 H2D B after K1
  // (the previous stream command is a launch: the stream drains); 5 L(K2)
  // after 4 (and K1 with depth 0); 6 D2H B after K2.
  // t=0 malloc A 0-50 (blocks).  t=50 H2D A 50-114 (blocks).  t=114 L(K1)
  // issued, its API call 114-214 keeps the host busy; malloc B 214-264
  // (blocks).  t=264 H2D B issued, blocks the host, waits for K1: K1 runs
  // 214-1214; H2D B 1214-1278.  t=1278 L(K2) 1278-1378, K2 1378-2378; D2H B
  // issued after the call, blocks, waits for K2: 2378-2442.  Pre-launching
  // (depth 1) cannot help: K2's launch waits for H2D B (Fig. 5b).
  for (const std::int64_t depth : {0, 1, 3}) {
    CAPTURE(depth);
    const Trace t = drive(app, fig5_options(false, depth), {{1000}, {1000, true}});
    CHECK(t.start == V{0, 50, 114, 214, 1214, 1278, 2378});
    CHECK(t.done == V{50, 114, 214, 264, 1278, 1378, 2442});
    CHECK(t.completed == V{1214, 2378});
    // The host is blocked (or in an API call) all the time: malloc A 50, H2D
    // A 64, malloc B 50, H2D B 264-1278 = 1014, D2H B 1378-2442 = 1064; the
    // two calls' 200 are not blocking waits.
    CHECK(t.blocked == 50 + 64 + 50 + 1014 + 1064);
    CHECK(t.copy == 3 * 64);
    CHECK(t.launch_total == 200);
    CHECK(t.last_done == 2442);
    // K1 needs malloc A and H2D A (done at 114); K2 also malloc B, H2D B (1278).
    CHECK(t.data_ready == V{114, 1278});
    CHECK(t.max_resident == 1);
    CHECK(t.idle);
  }
}

TEST_CASE("HostQueue: Fig. 5 reordered — the copy of B overlaps K1, K2 is pre-launched") {
  const Application app = fig5();
  // Reordering: pass 1 moves malloc B and H2D B ahead of L(K1) (K1 does not
  // use B); pass 2 moves L(K1) ahead of them again (a launch passes the calls
  // of buffers it does not use), so the issue order is the queue order.  What
  // changes are the waits: H2D B waits only for malloc B (no kernel uses B
  // before it), L(K2) for the calls of A and B and L(K1) launched, D2H B for
  // K2; and only allocations and copies to the host block the host.
  // t=0 malloc A 0-50 (blocks).  t=50 H2D A, L(K1), malloc B issued; H2D A
  // 50-114 on the copy engine, malloc B 50-100 (blocks), L(K1) waits for H2D
  // A.  t=100 H2D B, L(K2), D2H B issued (D2H B blocks); H2D B waits for the
  // copy engine.  t=114 L(K1) 114-214, H2D B 114-178.  t=214 K1 resident
  // (214-1214); L(K2) 214-314 while K1 runs; K2's TBs start at 1214: 2214.
  // D2H B 2214-2278 — the Python golden test's 2278.
  const Trace t = drive(app, fig5_options(true, 1), {{1000}, {1000, true}});
  CHECK(t.start == V{0, 50, 114, 50, 114, 214, 2214});
  CHECK(t.done == V{50, 114, 214, 100, 178, 314, 2278});
  CHECK(t.completed == V{1214, 2214});
  CHECK(t.max_resident == 2);
  // Host blocked: malloc A 0-50, malloc B 50-100, D2H B 100-2278.
  CHECK(t.blocked == 50 + 50 + 2178);
  CHECK(t.copy == 3 * 64);
  CHECK(t.data_ready == V{114, 178});
  CHECK(t.last_done == 2278);
  CHECK(t.idle);

  // Depth 0: L(K2) also waits for K1 to complete: 1214-1314, K2 1314-2314,
  // D2H B 2314-2378.  H2D B still overlaps K1.
  const Trace t0 = drive(app, fig5_options(true, 0), {{1000}, {1000, true}});
  CHECK(t0.start == V{0, 50, 114, 50, 114, 1214, 2314});
  CHECK(t0.completed == V{1214, 2314});
  CHECK(t0.max_resident == 1);
  CHECK(t0.last_done == 2378);

  // With a slow allocation (500 cycles) L(K1) is not held up by malloc B:
  // t=0 malloc A 0-500; t=500 H2D A 500-564, malloc B 500-1000; L(K1) 564-664
  // (K1 664-1664); t=1000 H2D B 1000-1064; L(K2) 1064-1164, K2 1664-2664; D2H
  // B 2664-2728.  (Issued in Fig. 5c's order, malloc A, H2D A, malloc B,
  // H2D B, K1, K2, L(K1) would wait for malloc B: launched at 1100.)
  HostQueue::Options slow = fig5_options(true, 1);
  slow.malloc_cycles = 500;
  const Trace ts = drive(app, slow, {{1000}, {1000, true}});
  CHECK(ts.start == V{0, 500, 564, 500, 1000, 1064, 2664});
  CHECK(ts.completed == V{1664, 2664});
  CHECK(ts.last_done == 2728);
  // The same in stream order: malloc B after L(K1)'s call, 664-1164; H2D B
  // waits for K1 (1664-1728), L(K2) 1728-1828, K2 -2828, D2H B 2828-2892.
  HostQueue::Options slow_stream = slow;
  slow_stream.reorder = false;
  const Trace tss = drive(app, slow_stream, {{1000}, {1000, true}});
  CHECK(tss.start == V{0, 500, 564, 664, 1664, 1728, 2828});
  CHECK(tss.last_done == 2892);
}

TEST_CASE("HostQueue: reordering moves a later kernel's allocation and copy ahead of earlier calls") {
  // 0 malloc A; 1 malloc B; 2 H2D A (100 B); 3 L0(A); 4 D2H A (100 B);
  // 5 H2D B (10 B); 6 L1(B).  A launch 10 cycles, an allocation 5, copies
  // 1 B/cycle.  K0 1000 cycles, K1 100, independent (different buffers).
  Builder b;
  const std::int32_t a = b.buffer("A"), bb = b.buffer("B");
  b.malloc(a);
  b.malloc(bb);
  b.h2d(a, 100);
  b.launch({a}, {a});
  b.d2h(a, 100);
  b.h2d(bb, 10);
  b.launch({bb}, {bb});
  const Application app = b.build();
  HostQueue::Options o;
  o.depth = 1;
  o.launch_api = 10;
  o.malloc_cycles = 5;
  const std::vector<Kernel> ks = {{1000}, {100}};

  // Stream order: H2D B waits for D2H A, which waits for K0.
  // 0-5 malloc A, 5-10 malloc B, 10-110 H2D A (blocks), L0 110-120 (K0
  // 120-1120), D2H A issued after L0's call at 120 (blocks) 1120-1220, H2D B
  // 1220-1230 (blocks), L1 1230-1240, K1 1240-1340.
  const Trace s = drive(app, o, ks);
  CHECK(s.start == V{0, 5, 10, 110, 1120, 1220, 1230});
  CHECK(s.done == V{5, 10, 110, 120, 1220, 1230, 1240});
  CHECK(s.completed == V{1120, 1340});
  CHECK(s.blocked == 5 + 5 + 100 + 1100 + 10);
  CHECK(s.data_ready == V{110, 1230});
  CHECK(s.last_done == 1340);

  // Reordered: pass 1 moves H2D B ahead of D2H A (another buffer) and L0
  // (which does not use B), stopping at H2D A; pass 2 moves L0 back ahead of
  // H2D B and L1 ahead of D2H A (L1 does not write A).  Issue order: malloc
  // A, malloc B, H2D A, L0, H2D B, L1, D2H A.  H2D B now waits for malloc B
  // only and takes the copy engine right after H2D A, before L0 is even
  // launched; L1 is launched while K0 runs.
  // 0-5, 5-10 the allocations; t=10 everything issued up to D2H A (blocks);
  // H2D A 10-110; t=110 L0 110-120, H2D B 110-120; t=120 L1 120-130 (K1
  // 130-230, completes after K0, in order: 1120); D2H A waits for K0:
  // 1120-1220.
  o.reorder = true;
  const Trace r = drive(app, o, ks);
  CHECK(r.start == V{0, 5, 10, 110, 1120, 110, 120});
  CHECK(r.done == V{5, 10, 110, 120, 1220, 120, 130});
  CHECK(r.completed == V{1120, 1120});
  CHECK(r.start[5] < r.done[3]);  // H2D B started before the earlier launch was launched
  CHECK(r.blocked == 5 + 5 + 1210);
  CHECK(r.data_ready == V{110, 120});
  CHECK(r.max_resident == 2);
  CHECK(r.last_done == 1220);
}

TEST_CASE("HostQueue: syncs serialise in stream order and are dropped when reordering") {
  // 0 malloc A; 1 H2D A (16 B); 2 L0(A); 3 sync; 4 L1(A); 5 D2H A (16 B).
  // A launch 10 cycles, an allocation 5, a copy 2 + 16 / 4 = 6.  Depth 1, so
  // only the sync keeps L1 from being pre-launched.
  Builder b;
  const std::int32_t a = b.buffer("A");
  b.malloc(a);
  b.h2d(a, 16);
  b.launch({a}, {a});
  b.sync();
  b.launch({a}, {a});
  b.d2h(a, 16);
  const Application app = b.build();
  HostQueue::Options o;
  o.depth = 1;
  o.launch_api = 10;
  o.malloc_cycles = 5;
  o.copy_latency = 2;
  o.copy_bytes_per_cycle = 4;
  const std::vector<Kernel> ks = {{100}, {100, true}};

  // Stream order: the sync waits for K0 and blocks the host.  0-5 malloc,
  // 5-11 H2D A (blocks), L0 11-21 (K0 21-121), the sync issued after L0's
  // call blocks the host 21-121; then L1 121-131 (K1 131-231), D2H A
  // (blocks) waits for K1: 231-237.  Syncs finish inside advance(): no
  // start/done recorded.
  const Trace s = drive(app, o, ks);
  CHECK(s.start == V{0, 5, 11, kNever, 121, 231});
  CHECK(s.done == V{5, 11, 21, kNever, 131, 237});
  CHECK(s.completed == V{121, 231});
  CHECK(s.blocked == 5 + 6 + 100 + 106);
  CHECK(s.max_resident == 1);
  CHECK(s.idle);

  // Reordered: the sync is dropped (and L1 passes it).  t=5 everything is
  // issued up to D2H A (blocks); H2D A 5-11; L0 11-21 (K0 21-121); L1 21-31
  // (K1 121-221); D2H A 221-227.
  o.reorder = true;
  const Trace r = drive(app, o, ks);
  CHECK(r.start == V{0, 5, 11, kNever, 21, 221});
  CHECK(r.done == V{5, 11, 21, kNever, 31, 227});
  CHECK(r.completed == V{121, 221});
  CHECK(r.blocked == 5 + 222);
  CHECK(r.max_resident == 2);
  CHECK(r.data_ready == V{11, 11});
  CHECK(r.idle);
}

TEST_CASE("HostQueue: driven step by step, explain_launch, kernels complete in order") {
  Builder b;
  const std::int32_t a = b.buffer("A");
  b.malloc(a);  // 0
  b.launch({a}, {a});  // 1
  b.launch({}, {});  // 2
  const Application app = b.build();
  HostQueue::Options o;
  o.launch_api = 10;
  o.malloc_cycles = 7;
  HostQueue q(app, o);
  CHECK(q.launch_command(0) == 1);
  CHECK(q.launch_command(1) == 2);
  CHECK(q.explain_launch(0) == "not issued yet");
  std::vector<HostQueue::Started> s;
  q.advance(0, s);
  REQUIRE(s.size() == 1);
  CHECK((s[0].command == 0 && s[0].done_at == 7));
  CHECK(q.explain_launch(0) == "not issued: the host waits for command 0 (malloc of 'A')");
  CHECK_FALSE(q.idle());
  s.clear();
  q.advance(3, s);  // nothing new while the host waits
  CHECK(s.empty());
  q.finished(0, 7);
  q.advance(7, s);
  REQUIRE(s.size() == 1);
  // The whole launch is the API call: it ends as the kernel is resident.
  CHECK((s[0].command == 1 && s[0].done_at == 17 && s[0].call_done_at == 17));
  CHECK(q.explain_launch(0) == "in its launch API call");
  CHECK(q.explain_launch(1) == "not issued: the host is in the API call of command 1 (launch 0)");
  q.finished(1, 17);
  CHECK(q.explain_launch(0) == "launched");
  s.clear();
  q.advance(17, s);
  CHECK(s.empty());
  CHECK(q.explain_launch(1) ==
        "waits for launch 0 to complete (0 launches completed; prelaunch_depth 0)");
  CHECK_FALSE(q.idle());
  CHECK_THROWS_AS(q.kernel_completed(1, 20), SimulationError);  // out of order
  q.kernel_completed(0, 40);
  CHECK(q.completed_launches() == 1);
  q.advance(40, s);
  REQUIRE(s.size() == 1);
  CHECK((s[0].command == 2 && s[0].done_at == 50));
  q.finished(2, 50);
  CHECK(q.idle());  // every command done; kernels need not be complete
  q.kernel_completed(1, 60);
  CHECK(q.completed_launches() == 2);
  CHECK(q.last_done() == 60);
  CHECK(q.host_blocked_cycles() == 7);
  CHECK(q.launch_cycles_total() == 20);
  CHECK(q.data_ready(0) == 7);
  CHECK(q.data_ready(1) == 0);  // no buffers: nothing to wait for
}
