// Readers of DIMACS shortest-path, edge-list and Matrix Market graph files.
// Each checks its format line by line and names the file and line of the
// first problem; the graph is then validated again by Digraph::build.
#include <algorithm>
#include <cctype>
#include <limits>
#include <string>

#include "digraph.hpp"
#include "digraph_text.hpp"
#include "errors.hpp"

namespace tbdse {

namespace {

using digraph_text::quoted;
using digraph_text::TextFile;

constexpr std::int64_t kMaxNodes = std::numeric_limits<std::int32_t>::max();

// Vectors for up to `declared` arcs, but never more than the file could hold
// (a line per arc of at least `min_line` bytes): a lying header cannot make
// us allocate.
void reserve(DigraphInput& in, std::int64_t declared, const TextFile& f, std::size_t min_line,
             bool weighted) {
  const auto n = std::min<std::size_t>(static_cast<std::size_t>(declared), f.size() / min_line + 1);
  in.src.reserve(n);
  in.dst.reserve(n);
  if (weighted) in.weight.reserve(n);
}

void add_arc(DigraphInput& in, std::int32_t u, std::int32_t v) {
  in.src.push_back(u);
  in.dst.push_back(v);
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

}  // namespace

Digraph read_dimacs_digraph(const std::string& path) {
  TextFile f(path);
  DigraphInput in;
  std::int64_t p_line = 0, declared = 0;
  std::string_view line, tok[5];
  while (f.next_line(line)) {
    const int k = TextFile::split(line, tok, 5, false);
    if (k == 0 || tok[0][0] == 'c') continue;  // blank or comment
    if (tok[0] == "p") {
      if (p_line > 0)
        f.fail("a second 'p' line (the problem line is line " + std::to_string(p_line) + ")");
      if (k != 4 || tok[1] != "sp")
        f.fail("expected the problem line 'p sp <nodes> <arcs>'; got " + quoted(line));
      p_line = f.line();
      in.nodes = f.integer(tok[2], "the node count");
      declared = f.integer(tok[3], "the arc count");
      if (in.nodes < 1 || in.nodes > kMaxNodes)
        f.fail("node count " + std::to_string(in.nodes) + " is out of range (1..2147483647)");
      if (declared < 0) f.fail("negative arc count " + std::to_string(declared));
      f.require_fits(static_cast<double>(in.nodes), static_cast<double>(declared));
      reserve(in, declared, f, 8, true);  // "a 1 2 3\n"
    } else if (tok[0] == "a") {
      if (p_line == 0) f.fail("arc line before the problem line 'p sp <nodes> <arcs>'");
      if (k != 4)
        f.fail("expected an arc line 'a <from> <to> <weight>'; got " + quoted(line));
      if (static_cast<std::int64_t>(in.src.size()) == declared)
        f.fail("more arcs than the " + std::to_string(declared) + " that the 'p' line (line " +
               std::to_string(p_line) + ") declares");
      add_arc(in, f.node_id(tok[1], 1, in.nodes), f.node_id(tok[2], 1, in.nodes));
      in.weight.push_back(f.weight(tok[3]));
    } else {
      f.fail("unknown line type " + quoted(tok[0]) +
             " (a DIMACS shortest-path file has 'c' comment, 'p sp' problem and 'a' arc lines)");
    }
  }
  if (p_line == 0) f.fail("no problem line 'p sp <nodes> <arcs>' in the file");
  if (static_cast<std::int64_t>(in.src.size()) != declared)
    f.fail("the 'p' line (line " + std::to_string(p_line) + ") declares " +
           std::to_string(declared) + " arcs but the file has " + std::to_string(in.src.size()));
  return Digraph::build(std::move(in));
}

Digraph read_edge_list_digraph(const std::string& path, bool one_based) {
  TextFile f(path);
  DigraphInput in;
  reserve(in, std::numeric_limits<std::int64_t>::max(), f, 8, false);
  int fields = 0;  // 2 or 3, from the first arc line
  std::int64_t first_line = 0;
  std::int32_t largest = -1;
  const int base = one_based ? 1 : 0;
  std::string_view line, tok[4];
  while (f.next_line(line)) {
    line = line.substr(0, std::min(line.find('#'), line.find('%')));
    const int k = TextFile::split(line, tok, 3, true);
    if (k == 0) continue;
    if (k > 3 || k < 2)
      f.fail("expected an arc 'U V' or 'U V W' (separated by spaces, tabs or commas); got " +
             quoted(line));
    if (fields == 0) {
      fields = k;
      first_line = f.line();
    } else if (k != fields) {
      f.fail(std::string(k == 3 ? "this arc has a weight but" : "this arc has no weight but") +
             " the first arc (line " + std::to_string(first_line) +
             (fields == 3 ? ") has one" : ") has none") + ": give every arc a weight or none");
    }
    // Ids up to 2^31 - 2 (0-based), so that nodes = largest + 1 stays in range.
    const std::int32_t u = f.node_id(tok[0], base, kMaxNodes);
    const std::int32_t v = f.node_id(tok[1], base, kMaxNodes);
    add_arc(in, u, v);
    largest = std::max({largest, u, v});
    if (k == 3) in.weight.push_back(f.weight(tok[2]));
  }
  if (in.src.empty())
    f.fail("no arcs in the file (an edge list needs at least one to know the node count)");
  in.nodes = std::int64_t{largest} + 1;
  f.require_fits(static_cast<double>(in.nodes), static_cast<double>(in.src.size()));
  return Digraph::build(std::move(in));
}

Digraph read_matrix_market_digraph(const std::string& path) {
  static const std::string kSupported =
      "supported: '%%MatrixMarket matrix coordinate <pattern|integer|real> "
      "<general|symmetric>'";
  TextFile f(path);
  std::string_view line, tok[6];
  f.next_line(line);
  const int k = TextFile::split(line, tok, 6, false);
  if (k == 0 || lower(tok[0]) != "%%matrixmarket")
    f.fail("expected the Matrix Market banner '%%MatrixMarket matrix coordinate ...'; got " +
           quoted(line));
  if (k != 5) f.fail("the banner needs 4 words after '%%MatrixMarket'; " + kSupported);
  const std::string object = lower(tok[1]), format = lower(tok[2]), field = lower(tok[3]),
                    symmetry = lower(tok[4]);
  if (object != "matrix") f.fail("object " + quoted(tok[1]) + " is not supported; " + kSupported);
  if (format != "coordinate")
    f.fail("format " + quoted(tok[2]) + " is not supported (dense 'array' files are not " +
           "graphs); " + kSupported);
  if (field != "pattern" && field != "integer" && field != "real")
    f.fail("value type " + quoted(tok[3]) + " is not supported; " + kSupported);
  if (symmetry != "general" && symmetry != "symmetric")
    f.fail("symmetry " + quoted(tok[4]) + " is not supported; " + kSupported);
  const bool pattern = field == "pattern", symmetric = symmetry == "symmetric";
  const int values = pattern ? 2 : 3;

  DigraphInput in;
  std::int64_t size_line = 0, declared = 0, entries = 0;
  while (f.next_line(line)) {
    const int n = TextFile::split(line, tok, 4, false);
    if (n == 0 || tok[0][0] == '%') continue;
    if (size_line == 0) {
      if (n != 3)
        f.fail("expected the size line '<rows> <columns> <entries>'; got " + quoted(line));
      size_line = f.line();
      const std::int64_t rows = f.integer(tok[0], "the row count");
      const std::int64_t cols = f.integer(tok[1], "the column count");
      declared = f.integer(tok[2], "the entry count");
      if (rows != cols)
        f.fail("the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) +
               ": a graph's adjacency matrix must be square");
      if (rows < 1 || rows > kMaxNodes)
        f.fail("node count " + std::to_string(rows) + " is out of range (1..2147483647)");
      if (declared < 0) f.fail("negative entry count " + std::to_string(declared));
      in.nodes = rows;
      const double arcs = static_cast<double>(declared) * (symmetric ? 2.0 : 1.0);
      f.require_fits(static_cast<double>(rows), arcs);
      reserve(in, declared * (symmetric ? 2 : 1), f, 4, !pattern);  // "1 2\n"
      continue;
    }
    if (n != values)
      f.fail(pattern ? "expected an entry '<row> <column>' (pattern); got " + quoted(line)
                     : "expected an entry '<row> <column> <value>'; got " + quoted(line));
    if (entries == declared)
      f.fail("more entries than the " + std::to_string(declared) + " that the size line (line " +
             std::to_string(size_line) + ") declares");
    ++entries;
    const std::int32_t i = f.node_id(tok[0], 1, in.nodes), j = f.node_id(tok[1], 1, in.nodes);
    if (symmetric && i < j)
      f.fail("entry (" + std::string(tok[0]) + ", " + std::string(tok[1]) +
             ") lies above the diagonal; a symmetric file lists only row >= column");
    const std::int32_t w = pattern ? 1 : f.weight(tok[2]);
    add_arc(in, i, j);
    if (!pattern) in.weight.push_back(w);
    if (symmetric && i != j) {
      add_arc(in, j, i);
      if (!pattern) in.weight.push_back(w);
    }
  }
  if (size_line == 0) f.fail("no size line '<rows> <columns> <entries>' after the banner");
  if (entries != declared)
    f.fail("the size line (line " + std::to_string(size_line) + ") declares " +
           std::to_string(declared) + " entries but the file has " + std::to_string(entries));
  return Digraph::build(std::move(in));
}

}  // namespace tbdse
