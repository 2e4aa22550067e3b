// Task-graph generators for the common data-dependent patterns
// (docs/MODELS.md §1 "Task graph").  Node ids are block indices in row-major
// order, as a CUDA grid would number them.
#pragma once

#include <cstdint>

#include "task_graph.hpp"

namespace tbdse {

// 2-D wavefront (Wireframe Fig. 1): rows x cols tiles, tile (i, j) depends on
// its west (i, j-1) and north (i-1, j) neighbours.  Node id = i * cols + j.
TaskGraph make_wavefront(std::int32_t rows, std::int32_t cols);

// Barrier graph (Wireframe Fig. 2): `stages` rows of `width` blocks; blocks
// synchronise in groups of `group` consecutive ids: every block of a group in
// stage s+1 depends on every block of the same group in stage s.  group ==
// width is the global barrier, group == 2 the pairwise inter-block barrier.
TaskGraph make_barrier(std::int32_t width, std::int32_t stages, std::int32_t group);

// Layered random DAG: `layers` layers of `width` nodes.  Each node of layer
// l >= 1 has one parent drawn uniformly from layer l-1 (so levels equal
// layers) and every other node of layers l-span .. l-1 as an extra parent
// with probability `edge_prob`.  Seeded through the counter-based generator.
TaskGraph make_layered_random(std::int32_t layers, std::int32_t width, double edge_prob,
                              std::int32_t span, std::uint64_t seed);

}  // namespace tbdse
