#include "tools/version.hpp"

#include <cstdint>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

namespace dcsim::tools {

std::string_view version() { return DCSIM_VERSION; }

std::string_view build_id() {
  // 64-bit FNV-1a of the running executable's bytes, read once.
  static const std::string id = [] {
    std::ifstream exe("/proc/self/exe", std::ios::binary);
    if (!exe) return std::string("unknown");
    std::uint64_t h = 14695981039346656037ULL;
    char buffer[1 << 16];
    while (exe.read(buffer, sizeof buffer) || exe.gcount() > 0) {
      for (std::streamsize i = 0; i < exe.gcount(); ++i) {
        h = (h ^ static_cast<unsigned char>(buffer[i])) * 1099511628211ULL;
      }
    }
    return fmt::format("{:016x}", h);
  }();
  return id;
}

}  // namespace dcsim::tools
