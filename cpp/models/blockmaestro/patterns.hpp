// The dependency patterns of BlockMaestro's Table I / Fig. 8 and the storage
// of a bipartite dependency graph, plain and encoded (Table I, Table III).
//
// A pair (K_p with N TBs, K_c with M TBs) is classified, most specific first:
//   independent      no edges                                          P#7
//   fully_connected  every child depends on every parent (E = N*M)      P#1
//   1_to_1           every parent and child with an edge has exactly one P#3
//   1_to_n           every child has one parent, some parent several     P#4
//                    ("each parent TB has exclusive child TBs")
//   n_to_1           every parent has one child, some child several      P#5
//   n_group          every connected component is a complete bipartite  P#2
//                    group (parents and children of a group all linked)
//   overlapped       anything else: parents share children and children  P#6
//                    have several parents (stencils with halos)
// TBs with no edge at all do not affect the pattern (only `independent` and
// `fully_connected` look at N and M).
//
// Storage in bytes, with 4-byte TB ids (docs/models/blockmaestro.md):
//   plain    the dependency list as the paper's global-memory layout implies:
//            per parent a 4-byte child count, per edge a 4-byte child id:
//            4 (N + E); 0 for an independent pair (nothing is stored).
//   encoded  Table I's orders with the same 4-byte unit: fully connected 1 B
//            (a flag), n_group 4 (N + M) (a group id per TB), 1_to_1 4 N,
//            1_to_n 4 (N + M), n_to_1 4 N, overlapped 4 (N + M deg_max),
//            independent 0 — and never more than plain (the encoding is only
//            used when it is smaller).
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace tbdse::blockmaestro {

enum class Pattern { INDEPENDENT, FULLY_CONNECTED, N_GROUP, ONE_TO_ONE, ONE_TO_N, N_TO_ONE, OVERLAPPED };

std::string pattern_name(Pattern p);  // "independent", "fully_connected", "n_group", "1_to_1", ...
int pattern_number(Pattern p);        // Table I's P#: fully_connected 1 ... independent 7

struct PairShape {
  std::int64_t parents = 0, children = 0, edges = 0;  // N, M, E
  std::int64_t max_parents_per_child = 0;             // deg_max
  std::int64_t max_children_per_parent = 0;
  Pattern pattern = Pattern::INDEPENDENT;
  std::int64_t plain_bytes = 0, encoded_bytes = 0;
};

// Classifies the pair from its edges (parent id in [0, N), child id in [0, M);
// no duplicates), or from `full` alone (then the spans are ignored and E = N*M).
PairShape classify(std::int64_t parents, std::int64_t children,
                   std::span<const std::int32_t> edge_parent,
                   std::span<const std::int32_t> edge_child, bool full = false);

}  // namespace tbdse::blockmaestro
