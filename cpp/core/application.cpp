#include "application.hpp"

#include "errors.hpp"
#include "hash.hpp"

namespace tbdse {

namespace {

const std::vector<std::string>& kind_names() {
  static const std::vector<std::string> names = {"malloc", "memcpy_h2d", "memcpy_d2h", "launch",
                                                 "sync"};
  return names;
}

}  // namespace

HostCommand::Kind command_kind(const std::string& name) {
  const auto& names = kind_names();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<HostCommand::Kind>(i);
  throw_unknown_name("command", name, names);
}

std::string command_kind_name(HostCommand::Kind kind) {
  return kind_names()[static_cast<std::size_t>(kind)];
}

void Application::validate() const {
  const auto nbuf = static_cast<std::int32_t>(buffers.size());
  if (launch_writes.size() != launch_reads.size() ||
      launch_waits_for.size() != launch_reads.size())
    throw ConfigError("application: read sets, write sets and kernel-level waits describe "
                      "different numbers of launches");
  for (std::int32_t i = 0; i < launches(); ++i)
    if (launch_waits_for[i] < -1 || launch_waits_for[i] >= i)
      throw ConfigError("application: launch " + std::to_string(i) + " waits for launch " +
                        std::to_string(launch_waits_for[i]) + "; only an earlier launch (or -1) "
                        "is possible");
  std::vector<char> allocated(buffers.size(), 0);
  const auto where = [](std::size_t i, const HostCommand& c) {
    return "command " + std::to_string(i) + " (" + command_kind_name(c.kind) + ")";
  };
  const auto check_buffer = [&](std::size_t i, const HostCommand& c, std::int32_t b) {
    if (b < 0 || b >= nbuf)
      throw ConfigError(where(i, c) + ": buffer id " + std::to_string(b) + " is not one of the " +
                        std::to_string(nbuf) + " buffers");
    if (!allocated[b])
      throw ConfigError(where(i, c) + ": buffer '" + buffers[b] +
                        "' is used before it is allocated (malloc it first)");
  };
  std::int32_t next_launch = 0;
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const HostCommand& c = commands[i];
    switch (c.kind) {
      case HostCommand::Kind::MALLOC:
        if (c.buffer < 0 || c.buffer >= nbuf)
          throw ConfigError(where(i, c) + ": buffer id " + std::to_string(c.buffer) +
                            " is not one of the " + std::to_string(nbuf) + " buffers");
        if (allocated[c.buffer])
          throw ConfigError(where(i, c) + ": buffer '" + buffers[c.buffer] + "' is allocated twice");
        allocated[c.buffer] = 1;
        break;
      case HostCommand::Kind::MEMCPY_H2D:
      case HostCommand::Kind::MEMCPY_D2H:
        check_buffer(i, c, c.buffer);
        if (c.bytes < 0) throw ConfigError(where(i, c) + ": bytes must be >= 0");
        break;
      case HostCommand::Kind::LAUNCH:
        if (c.launch != next_launch)
          throw ConfigError(where(i, c) + ": launches must be numbered 0, 1, ... in queue order; "
                            "expected launch " + std::to_string(next_launch) + ", got " +
                            std::to_string(c.launch));
        if (c.launch >= launches())
          throw ConfigError(where(i, c) + ": launch " + std::to_string(c.launch) +
                            " has no read/write sets (" + std::to_string(launches()) + " given)");
        for (const auto* set : {&launch_reads[c.launch], &launch_writes[c.launch]})
          for (const std::int32_t b : *set) check_buffer(i, c, b);
        ++next_launch;
        break;
      case HostCommand::Kind::SYNC: break;
    }
  }
  if (next_launch != launches())
    throw ConfigError("application: " + std::to_string(launches()) + " launches are described "
                      "but " + std::to_string(next_launch) + " are in the queue");
  if (data_start.empty()) {
    if (!data_base.empty() || !data_bytes.empty() || !data_write.empty())
      throw ConfigError("application: data ranges without data_start");
    return;
  }
  const auto ranges = static_cast<std::int64_t>(data_base.size());
  if (data_bytes.size() != data_base.size() || data_write.size() != data_base.size() ||
      data_start.front() != 0 || data_start.back() != ranges)
    throw ConfigError("application: data_start must run from 0 to the number of data ranges (" +
                      std::to_string(ranges) + ") and every range needs a base, bytes and a "
                      "write flag");
  for (std::size_t t = 1; t < data_start.size(); ++t)
    if (data_start[t] < data_start[t - 1])
      throw ConfigError("application: data_start decreases at task " + std::to_string(t - 1));
}

std::uint64_t Application::hash() const {
  Hasher h(0x636f6d6d616e6473ULL);
  for (const auto& b : buffers) h.add_string(b);
  for (const auto& c : commands) {
    h.add_signed(static_cast<std::int64_t>(c.kind)).add_signed(c.buffer);
    h.add_signed(c.bytes).add_signed(c.launch);
  }
  for (const std::int32_t w : launch_waits_for) h.add_signed(w);
  for (const auto* sets : {&launch_reads, &launch_writes})
    for (const auto& set : *sets) {
      h.add_signed(static_cast<std::int64_t>(set.size()));
      for (const std::int32_t b : set) h.add_signed(b);
    }
  if (!data_start.empty()) {  // hashes of applications without footprints unchanged
    for (const std::int64_t s : data_start) h.add_signed(s);
    for (std::size_t i = 0; i < data_base.size(); ++i)
      h.add(data_base[i]).add_signed(data_bytes[i]).add_signed(data_write[i]);
  }
  return h.digest();
}

}  // namespace tbdse
