// Counter-based random numbers (Philox4x32-10, Salmon et al., SC'11).  A draw
// is a pure function of (key, counter): no generator state is carried between
// draws, so results never depend on thread count, evaluation order or which
// process runs a configuration.  Keys are derived from (sweep seed,
// configuration hash, replicate, purpose).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "hash.hpp"

namespace tbdse {

// What a random stream is used for; separate purposes never share draws.
enum class RngPurpose : std::uint64_t {
  TASK_COST = 1,        // per-task execution cycles
  GRAPH_STRUCTURE = 2,  // generated graph shapes (layered random DAGs)
  SCHEME = 3,           // scheme-internal randomness
  MODEL = 4,            // a simulator's own draws (e.g. a synthetic operator's work)
};

constexpr std::uint64_t rng_key(std::uint64_t seed, std::uint64_t config_hash,
                                std::uint64_t replicate, RngPurpose purpose) {
  return mix64(mix64(mix64(mix64(seed) ^ config_hash) ^ replicate) ^
               static_cast<std::uint64_t>(purpose));
}

class Philox {
 public:
  explicit constexpr Philox(std::uint64_t key)
      : key_{static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32)} {}

  // 128 random bits for counter (index, stream).
  constexpr std::array<std::uint32_t, 4> block(std::uint64_t index,
                                               std::uint64_t stream = 0) const {
    std::array<std::uint32_t, 4> c = {static_cast<std::uint32_t>(index),
                                      static_cast<std::uint32_t>(index >> 32),
                                      static_cast<std::uint32_t>(stream),
                                      static_cast<std::uint32_t>(stream >> 32)};
    std::array<std::uint32_t, 2> k = key_;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k[0] += 0x9E3779B9U;
        k[1] += 0xBB67AE85U;
      }
      const std::uint64_t p0 = std::uint64_t{0xD2511F53U} * c[0];
      const std::uint64_t p1 = std::uint64_t{0xCD9E8D57U} * c[2];
      c = {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<std::uint32_t>(p1),
           static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<std::uint32_t>(p0)};
    }
    return c;
  }

  // Two independent uniforms in [0, 1) with 53 random bits each.
  std::array<double, 2> uniform2(std::uint64_t index, std::uint64_t stream = 0) const {
    const auto b = block(index, stream);
    const std::uint64_t a = (std::uint64_t{b[0]} << 32) | b[1];
    const std::uint64_t c = (std::uint64_t{b[2]} << 32) | b[3];
    constexpr double scale = 1.0 / 9007199254740992.0;  // 2^-53
    return {static_cast<double>(a >> 11) * scale, static_cast<double>(c >> 11) * scale};
  }

  double uniform(std::uint64_t index, std::uint64_t stream = 0) const {
    return uniform2(index, stream)[0];
  }

  // Two independent standard normals by Box-Muller from one block.
  std::array<double, 2> normal2(std::uint64_t index, std::uint64_t stream = 0) const {
    const auto u = uniform2(index, stream);
    const double radius = std::sqrt(-2.0 * std::log(1.0 - u[0]));  // 1-u in (0, 1]
    const double angle = 2.0 * std::numbers::pi * u[1];
    return {radius * std::cos(angle), radius * std::sin(angle)};
  }

  // A standard normal: draw i is half of block i/2, so that consecutive
  // draws share one block (normal2) and each is still a pure function of i.
  double normal(std::uint64_t i, std::uint64_t stream = 0) const {
    return normal2(i >> 1, stream)[i & 1];
  }

 private:
  std::array<std::uint32_t, 2> key_;
};

}  // namespace tbdse
