#include "generators.hpp"

#include <cmath>
#include <string>

#include "errors.hpp"
#include "memory.hpp"
#include "rng.hpp"

namespace tbdse {

namespace {

void require_positive(std::int64_t value, const char* name, const char* generator) {
  if (value < 1)
    throw ConfigError(std::string(generator) + ": '" + name + "' must be >= 1; got " +
                      std::to_string(value));
}

void require_size(std::int64_t nodes, const char* generator) {
  if (nodes > 2'000'000'000)
    throw ConfigError(std::string(generator) + ": " + std::to_string(nodes) +
                      " nodes exceed the limit of 2e9 tasks per graph");
}

// Both limits at once: node ids, then the memory the graph would take.
void require_fits(std::int64_t nodes, double edges, const char* generator) {
  require_size(nodes, generator);
  require_graph_fits(generator, static_cast<double>(nodes), edges);
}

// Edges cost memory before anything can be checked; refuse absurd graphs early.
constexpr double kMaxEdges = 2.5e8;  // about 4 GB while building

void require_edges(double edges, const char* generator) {
  if (edges > kMaxEdges)
    throw ConfigError(std::string(generator) + ": the graph would have about " +
                      std::to_string(static_cast<std::int64_t>(edges)) +
                      " edges; at most 2.5e8 are supported");
}

}  // namespace

TaskGraph make_wavefront(std::int32_t rows, std::int32_t cols) {
  require_positive(rows, "rows", "wavefront");
  require_positive(cols, "cols", "wavefront");
  const std::int64_t n = std::int64_t{rows} * cols;
  require_fits(n, 2.0 * static_cast<double>(n), "wavefront");
  TaskGraphInput in;
  in.nodes = static_cast<std::int32_t>(n);
  in.edge_src.reserve(static_cast<std::size_t>(2 * n));
  in.edge_dst.reserve(static_cast<std::size_t>(2 * n));
  for (std::int32_t i = 0; i < rows; ++i)
    for (std::int32_t j = 0; j < cols; ++j) {
      const TaskId id = i * cols + j;
      if (j + 1 < cols) {
        in.edge_src.push_back(id);
        in.edge_dst.push_back(id + 1);
      }
      if (i + 1 < rows) {
        in.edge_src.push_back(id);
        in.edge_dst.push_back(id + cols);
      }
    }
  return TaskGraph::build(std::move(in));
}

TaskGraph make_barrier(std::int32_t width, std::int32_t stages, std::int32_t group) {
  require_positive(width, "width", "barrier");
  require_positive(stages, "stages", "barrier");
  require_positive(group, "group", "barrier");
  if (group > width)
    throw ConfigError("barrier: 'group' (" + std::to_string(group) + ") must be <= 'width' (" +
                      std::to_string(width) + ")");
  const std::int64_t n = std::int64_t{width} * stages;
  require_edges(static_cast<double>(stages - 1) * width * group, "barrier");
  require_fits(n, static_cast<double>(stages - 1) * width * group, "barrier");
  TaskGraphInput in;
  in.nodes = static_cast<std::int32_t>(n);
  for (std::int32_t s = 0; s + 1 < stages; ++s)
    for (std::int32_t g0 = 0; g0 < width; g0 += group) {
      const std::int32_t g1 = std::min(width, g0 + group);
      for (std::int32_t a = g0; a < g1; ++a)
        for (std::int32_t b = g0; b < g1; ++b) {
          in.edge_src.push_back(s * width + a);
          in.edge_dst.push_back((s + 1) * width + b);
        }
    }
  return TaskGraph::build(std::move(in));
}

TaskGraph make_layered_random(std::int32_t layers, std::int32_t width, double edge_prob,
                              std::int32_t span, std::uint64_t seed) {
  require_positive(layers, "layers", "layered_random");
  require_positive(width, "width", "layered_random");
  require_positive(span, "span", "layered_random");
  if (!(edge_prob >= 0.0 && edge_prob <= 1.0))
    throw ConfigError("layered_random: 'edge_prob' must be in [0, 1]; got " +
                      std::to_string(edge_prob));
  const std::int64_t n = std::int64_t{layers} * width;
  const double edges = static_cast<double>(n) * (1.0 + edge_prob * std::min(span, layers) * width);
  require_edges(edges, "layered_random");
  require_fits(n, edges, "layered_random");
  const Philox rng(rng_key(seed, 0x1A7E2ED, 0, RngPurpose::GRAPH_STRUCTURE));
  TaskGraphInput in;
  in.nodes = static_cast<std::int32_t>(n);
  std::uint64_t draw = 0;
  for (std::int32_t l = 1; l < layers; ++l)
    for (std::int32_t k = 0; k < width; ++k) {
      const TaskId child = l * width + k;
      const auto pick = static_cast<std::int32_t>(rng.uniform(draw++) * width);
      const TaskId first = (l - 1) * width + std::min(pick, width - 1);
      in.edge_src.push_back(first);
      in.edge_dst.push_back(child);
      // Extra parents among the candidates of layers l-span .. l-1, visited by
      // geometric skips so the cost is proportional to the edges drawn.
      const std::int32_t low_layer = std::max(0, l - span);
      const std::int64_t candidates = std::int64_t{l - low_layer} * width;
      if (edge_prob <= 0.0) continue;
      const double log_miss = std::log1p(-edge_prob);
      for (std::int64_t c = -1;;) {
        if (edge_prob >= 1.0) {
          ++c;
        } else {
          const double u = 1.0 - rng.uniform(draw++);  // (0, 1]
          const double skip = std::floor(std::log(u) / log_miss);
          if (skip >= static_cast<double>(candidates)) break;
          c += 1 + static_cast<std::int64_t>(skip);
        }
        if (c >= candidates) break;
        const auto parent = static_cast<TaskId>(std::int64_t{low_layer} * width + c);
        if (parent != first) {
          in.edge_src.push_back(parent);
          in.edge_dst.push_back(child);
        }
      }
    }
  return TaskGraph::build(std::move(in));
}

}  // namespace tbdse
