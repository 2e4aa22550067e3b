// Line-by-line reading of graph text files for the Digraph readers
// (digraph_io.cpp): the whole file in memory, checked to be UTF-8 text, split
// into lines and whitespace/comma-separated tokens without copies.  Every
// error is a ConfigError "<path>:<line>: <what>".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tbdse::digraph_text {

// The largest graph file read (4 GiB): bigger ones are refused before reading.
inline constexpr std::int64_t kMaxFileBytes = std::int64_t{1} << 32;

class TextFile {
 public:
  // Reads and checks `path`; ConfigError when it is not a regular file (a
  // directory, a FIFO, a device such as /dev/zero), cannot be read, is empty,
  // is larger than kMaxFileBytes, would not fit in memory, or holds NUL
  // bytes, control characters or invalid UTF-8 (binary data).
  explicit TextFile(std::string path);

  // The next line without its terminator; false at the end of the file.
  bool next_line(std::string_view& line);
  // Number of the line last returned (1-based); after the end, the last line.
  std::int64_t line() const { return line_; }
  std::size_t size() const { return data_.size(); }
  const std::string& path() const { return path_; }

  [[noreturn]] void fail(const std::string& what) const;
  // require_digraph_fits, its error prefixed with this file and line.
  void require_fits(double nodes, double arcs) const;

  // Splits `line` at spaces, tabs and carriage returns (and commas when
  // `commas`) into at most `max` tokens; returns how many there are, counting
  // up to max + 1 so that callers can tell "too many".
  static int split(std::string_view line, std::string_view* tokens, int max, bool commas);

  // A whole number token (no fraction, no exponent); `what` names it in errors.
  std::int64_t integer(std::string_view token, const std::string& what) const;
  // A node id token with ids base..base+limit-1 (base 0 or 1), as a 0-based id.
  std::int32_t node_id(std::string_view token, int base, std::int64_t limit) const;
  // An arc weight: a whole number 0..2^31-1, also written "3.0" or "1e3".
  std::int32_t weight(std::string_view token) const;

 private:
  std::string path_;
  std::string data_;
  std::size_t pos_ = 0;
  std::int64_t line_ = 0;
};

// "'text'" shortened to 40 characters for error messages, control
// characters and quotes escaped (\n, \x01, \').
std::string quoted(std::string_view text);

}  // namespace tbdse::digraph_text
