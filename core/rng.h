#pragma once
// Fast seeded random numbers and counter-based seed derivation.
#include <cmath>
#include <cstdint>
#include <limits>

namespace ddalab {

// One step of splitmix64: a bijective 64-bit mix, used to derive independent seeds.
constexpr uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Seed of game `iteration` of a batch: same (master, iteration, salt) -> same game,
// whatever thread runs it.
constexpr uint64_t deriveGameSeed(uint64_t master, uint64_t iteration, uint64_t salt = 0) {
  return splitmix64(splitmix64(master ^ splitmix64(salt)) + iteration);
}

// Independent random streams inside one game, so that changing one player's
// algorithm does not change the deal or another player's draws.
enum class Stream : uint64_t { Setup = 1, Nature = 2, Environment = 3, FirstPlayer = 16 };

constexpr uint64_t streamSeed(uint64_t gameSeed, Stream s, uint64_t index = 0) {
  return splitmix64(gameSeed ^ splitmix64(static_cast<uint64_t>(s) + index));
}

// xoshiro256** generator: small, fast, good statistical quality.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { reseed(seed); }

  // Restarts the stream from `seed`.
  void reseed(uint64_t seed) {
    for (auto& word : s_) {
      seed = splitmix64(seed);
      word = seed;
    }
  }

  // Next raw 64-bit value.
  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift, unbiased).
  uint32_t below(uint32_t n) {
    uint64_t m = (next() >> 32) * static_cast<uint64_t>(n);
    if (static_cast<uint32_t>(m) < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (static_cast<uint32_t>(m) < threshold) m = (next() >> 32) * static_cast<uint64_t>(n);
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // Standard normal deviate (Box-Muller; one value per call keeps the stream simple).
  double normal() {
    double u = uniform();
    while (u <= 0.0) u = uniform();
    const double v = uniform();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
  }

 private:
  static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace ddalab
