#include "digraph_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <utility>

#include "errors.hpp"
#include "memory.hpp"
#include "run_control.hpp"

namespace tbdse::digraph_text {

namespace {

constexpr std::int64_t kMaxWeight = std::numeric_limits<std::int32_t>::max();

// Length of the UTF-8 sequence starting at s[i], or 0 when it is invalid.
std::size_t utf8_length(const std::string& s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i);
  std::size_t len = 0;
  if (b >= 0xC2 && b <= 0xDF) len = 2;
  else if (b >= 0xE0 && b <= 0xEF) len = 3;
  else if (b >= 0xF0 && b <= 0xF4) len = 4;
  else return 0;
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return len;  // overlong 3/4-byte forms pass; harmless for a text check
}

std::string hex(unsigned char b) {
  char out[8];
  std::snprintf(out, sizeof out, "0x%02X", b);
  return out;
}

}  // namespace

std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 40;
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "'" + string.
  std::string out(1, '\'');
  for (const char ch : text.substr(0, kShown)) {
    const auto b = static_cast<unsigned char>(ch);
    if (ch == '\n') out.append("\\n");
    else if (ch == '\t') out.append("\\t");
    else if (ch == '\r') out.append("\\r");
    else if (ch == '\'' || ch == '\\') out.append(1, '\\').append(1, ch);
    else if (b < 0x20 || b == 0x7F) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\x%02X", b);
      out.append(esc);
    } else {
      out.append(1, ch);
    }
  }
  out.append(text.size() > kShown ? "...'" : "'");
  return out;
}

namespace {

const char* file_type(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Opens a regular file for reading, refusing anything else before it can
// block (a FIFO without writer) or read forever (/dev/zero): opened
// non-blocking, checked with fstat on the open descriptor (no race with a
// rename), then switched back to blocking reads.  Returns its size too.
std::FILE* open_regular(const std::string& path, std::int64_t& size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    if (errno == EISDIR) throw ConfigError(path + ": is a directory, not a graph file");
    throw ConfigError(path + ": cannot open the file: " + std::strerror(errno));
  }
  struct stat st {};
  const bool stated = ::fstat(fd, &st) == 0;
  if (!stated || !S_ISREG(st.st_mode)) {
    const std::string what = stated ? file_type(st.st_mode) : "unreadable";
    ::close(fd);
    throw ConfigError(path + ": is " + what + ", not a regular file; give a graph file");
  }
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  size = static_cast<std::int64_t>(st.st_size);
  std::FILE* file = ::fdopen(fd, "rb");
  if (!file) {
    ::close(fd);
    throw ConfigError(path + ": cannot open the file: " + std::strerror(errno));
  }
  return file;
}

}  // namespace

TextFile::TextFile(std::string path) : path_(std::move(path)) {
  std::int64_t bytes = 0;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(open_regular(path_, bytes), &std::fclose);
  const auto too_big = [&](double size) {
    return ConfigError(path_ + ": the file has " + format_bytes(size) +
                       "; graph files are read up to " +
                       format_bytes(static_cast<double>(kMaxFileBytes)) + " (4 GiB)");
  };
  if (bytes > kMaxFileBytes) throw too_big(static_cast<double>(bytes));
  require_memory("reading " + path_, 3.0 * static_cast<double>(bytes));
  data_.reserve(static_cast<std::size_t>(bytes));
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    data_.append(buffer, got);
    if (static_cast<std::int64_t>(data_.size()) > kMaxFileBytes)  // grew while read
      throw too_big(static_cast<double>(data_.size()));
  }
  if (std::ferror(file.get()))
    throw ConfigError(path_ + ": cannot read the file: " + std::strerror(errno));
  if (data_.empty()) throw ConfigError(path_ + ":1: the file is empty");
  for (const auto& [bom, name] : {std::pair{std::string_view("\xFF\xFE", 2), "UTF-16"},
                                  std::pair{std::string_view("\xFE\xFF", 2), "UTF-16"}})
    if (std::string_view(data_).starts_with(bom))
      throw ConfigError(path_ + ":1: the file is " + name + " text; save it as UTF-8");
  if (std::string_view(data_).starts_with("\xEF\xBB\xBF")) pos_ = 3;  // a UTF-8 byte order mark

  // Text check in one pass; the line number is counted only on failure.
  for (std::size_t i = 0; i < data_.size();) {
    const auto b = static_cast<unsigned char>(data_[i]);
    if (b >= 0x20 && b < 0x7F) {
      ++i;
      continue;
    }
    std::size_t len = 1;
    std::string problem;
    if (b == 0) problem = "a NUL byte";
    else if (b < 0x20 && !std::strchr("\t\n\v\f\r", static_cast<char>(b)))
      problem = "control character " + hex(b);
    else if (b == 0x7F) problem = "control character 0x7F";
    else if (b >= 0x80 && (len = utf8_length(data_, i)) == 0)
      problem = "byte " + hex(b) + ", which is not UTF-8";
    if (!problem.empty()) {
      line_ = 1 + std::count(data_.begin(), data_.begin() + static_cast<std::ptrdiff_t>(i), '\n');
      fail(problem + ": this is not a text file (binary data?)");
    }
    i += len;
  }
}

bool TextFile::next_line(std::string_view& line) {
  if (pos_ >= data_.size()) return false;
  poll_run();  // a reader called with a cancel flag (Ctrl-C) stops here
  const char* begin = data_.data() + pos_;
  const auto* end = static_cast<const char*>(std::memchr(begin, '\n', data_.size() - pos_));
  const std::size_t len = end ? static_cast<std::size_t>(end - begin) : data_.size() - pos_;
  line = std::string_view(begin, len);
  pos_ += len + 1;
  ++line_;
  return true;
}

void TextFile::fail(const std::string& what) const {
  throw ConfigError(path_ + ":" + std::to_string(line_) + ": " + what);
}

void TextFile::require_fits(double nodes, double arcs) const {
  try {
    require_digraph_fits("the graph", nodes, arcs);
  } catch (const ConfigError& e) {
    fail(e.what());
  }
}

int TextFile::split(std::string_view line, std::string_view* tokens, int max, bool commas) {
  int count = 0;
  std::size_t i = 0;
  const auto separator = [&](char ch) {
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f' ||
           (commas && ch == ',');
  };
  while (i < line.size()) {
    while (i < line.size() && separator(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !separator(line[i])) ++i;
    if (count < max) tokens[count] = line.substr(start, i - start);
    if (++count > max) break;
  }
  return count;
}

std::int64_t TextFile::integer(std::string_view token, const std::string& what) const {
  std::int64_t value = 0;
  const char* last = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), last, value);
  if (ec == std::errc::result_out_of_range)
    fail(what + " " + quoted(token) + " is out of range");
  if (ec != std::errc() || ptr != last)
    fail(what + " must be a whole number; got " + quoted(token));
  return value;
}

std::int32_t TextFile::node_id(std::string_view token, int base, std::int64_t limit) const {
  const std::int64_t id = integer(token, "node id");
  if (id < base) {
    if (base == 1 && id == 0) fail("node id 0: ids in this file are 1-based (1.." +
                                   std::to_string(limit) + ")");
    fail("node id " + std::to_string(id) + " is out of range (valid ids " +
         std::to_string(base) + ".." + std::to_string(base + limit - 1) + ")");
  }
  if (id - base >= limit)
    fail("node id " + std::to_string(id) + " is out of range (valid ids " + std::to_string(base) +
         ".." + std::to_string(base + limit - 1) + ")");
  return static_cast<std::int32_t>(id - base);
}

std::int32_t TextFile::weight(std::string_view token) const {
  const char* last = token.data() + token.size();
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(token.data(), last, value);
  if (ec != std::errc() || ptr != last) {
    // Not a plain integer: a decimal or exponent form of a whole number is fine.
    double real = 0;
    const auto [rptr, rec] = std::from_chars(token.data(), last, real);
    if (rec == std::errc::invalid_argument || rptr != last || std::isnan(real))
      fail("weight must be a whole number; got " + quoted(token));
    if (rec == std::errc::result_out_of_range || !std::isfinite(real) || std::fabs(real) > 1e18)
      fail("weight " + quoted(token) + " is too large (weights are 0..2147483647)");
    if (real != std::floor(real))
      fail("weight " + std::string(token) + " is not a whole number (weights are integers " +
           "0..2147483647)");
    value = static_cast<std::int64_t>(real);
  }
  if (value < 0)
    fail("negative weight " + std::string(token) + " (weights are 0..2147483647)");
  if (value > kMaxWeight)
    fail("weight " + std::string(token) + " is too large (weights are 0..2147483647)");
  return static_cast<std::int32_t>(value);
}

}  // namespace tbdse::digraph_text
