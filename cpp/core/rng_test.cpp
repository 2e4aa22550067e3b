#include "core/rng.hpp"

#include <doctest/doctest.h>

using namespace tbdse;

TEST_CASE("Philox4x32-10 matches the Random123 known-answer vector") {
  // Random123 kat_vectors: philox4x32 10 rounds, counter = 0, key = 0:
  // 6627e8d5 e169c58d bc57ac4c 9b00dbd8
  const Philox rng(0);
  const auto b = rng.block(0, 0);
  CHECK(b[0] == 0x6627e8d5U);
  CHECK(b[1] == 0xe169c58dU);
  CHECK(b[2] == 0xbc57ac4cU);
  CHECK(b[3] == 0x9b00dbd8U);
  // counter = 243f6a88 85a308d3 13198a2e 03707344, key = a4093822 299f31d0:
  // d16cfe09 94fdcceb 5001e420 24126ea1
  const Philox pi(0x299f31d0a4093822ULL);
  const auto c = pi.block(0x85a308d3243f6a88ULL, 0x0370734413198a2eULL);
  CHECK(c[0] == 0xd16cfe09U);
  CHECK(c[1] == 0x94fdccebU);
  CHECK(c[2] == 0x5001e420U);
  CHECK(c[3] == 0x24126ea1U);
}

TEST_CASE("draws are pure functions of key and counter") {
  const Philox a(rng_key(7, 11, 0, RngPurpose::TASK_COST));
  const Philox b(rng_key(7, 11, 0, RngPurpose::TASK_COST));
  const Philox other_purpose(rng_key(7, 11, 0, RngPurpose::GRAPH_STRUCTURE));
  const Philox other_replicate(rng_key(7, 11, 1, RngPurpose::TASK_COST));
  CHECK(a.uniform(123) == b.uniform(123));
  CHECK(a.uniform(123) != other_purpose.uniform(123));
  CHECK(a.uniform(123) != other_replicate.uniform(123));
  // Reading counters out of order gives the same values.
  const double late = a.uniform(999);
  (void)a.uniform(5);
  CHECK(a.uniform(999) == late);
}

TEST_CASE("uniforms lie between 0 and 1 with mean one half, normals have mean 0 and variance 1") {
  const Philox rng(rng_key(1, 2, 3, RngPurpose::TASK_COST));
  double sum = 0, sum_n = 0, sum_n2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform(static_cast<std::uint64_t>(i));
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    sum += u;
    const double z = rng.normal(static_cast<std::uint64_t>(i), 1);
    sum_n += z;
    sum_n2 += z * z;
  }
  // Standard errors: 0.29/sqrt(n) ~ 6.5e-4 for the mean of u, 2.2e-3 for z.
  CHECK(sum / n == doctest::Approx(0.5).epsilon(0.005));
  CHECK(std::abs(sum_n / n) < 0.01);
  CHECK(sum_n2 / n == doctest::Approx(1.0).epsilon(0.02));
}
