#include "core/gpu.hpp"

#include <doctest/doctest.h>

#include "core/errors.hpp"
#include "core/sm_pool.hpp"

using namespace tbdse;

TEST_CASE("presets carry vendor figures and are overridable by name") {
  const GpuConfig g = gpu_preset("gtx480");
  CHECK(g.sms == 15);
  CHECK(g.tb_slots == 8);
  CHECK(g.clock_mhz == 700.0);
  CHECK(g.us_to_cycles(30.0) == 21000);  // 30 us at 700 MHz
  CHECK(gpu_preset("titanx_pascal").sms == 28);
  CHECK(gpu_preset("titanx_pascal").tb_slots == 32);
  GpuConfig h = gpu_preset("h200");
  const auto& table = GpuConfig::params();
  table.set(h, find_param(table.infos(), "sms", "GPU"), 66, "GPU");
  CHECK(h.sms == 66);
  CHECK_THROWS_WITH_AS(gpu_preset("gtx48"), doctest::Contains("did you mean 'gtx480'"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(table.set(h, 0, 0, "GPU"), doctest::Contains("'sms' must be an integer"),
                       ConfigError);
  CHECK_THROWS_WITH_AS(table.set(h, 0, 2.5, "GPU"), doctest::Contains("got 2.5"), ConfigError);
}

TEST_CASE("occupancy is the tightest of slots, threads, registers and shared memory") {
  const GpuConfig g = gpu_preset("gtx480");  // 8 slots, 1536 threads, 32768 regs, 48 KB
  CHECK(occupancy(g, {}) == 8);                                   // slot-limited
  CHECK(occupancy(g, {.threads = 512}) == 3);                     // 1536 / 512
  CHECK(occupancy(g, {.threads = 128, .regs_per_thread = 64}) == 4);  // 32768 / 8192
  CHECK(occupancy(g, {.smem_bytes = 20000}) == 2);                // 49152 / 20000
  CHECK(occupancy_limiter(g, {.smem_bytes = 20000}) == "smem_per_sm");
  CHECK(occupancy(g, {.threads = 2048}) == 0);
}

TEST_CASE("SM pool never exceeds a resource and hands out distinct slots") {
  const GpuConfig g = gpu_preset("gtx480");
  SmPool pool(g);
  const TbFootprint fp{.threads = 512};
  CHECK(pool.acquire(0, fp) == 0);
  CHECK(pool.acquire(0, fp) == 1);
  CHECK(pool.acquire(0, fp) == 2);
  CHECK_FALSE(pool.fits(0, fp));             // threads exhausted at 3 x 512
  CHECK(pool.fits(0, TbFootprint{}));        // a zero-footprint TB still has a slot
  CHECK(pool.next_fitting(0, fp) == 1);      // round robin moves on to SM 1
  pool.release(0, fp, 1);
  CHECK(pool.fits(0, fp));
  CHECK(pool.acquire(0, fp) == 1);           // the freed slot is reused
}
