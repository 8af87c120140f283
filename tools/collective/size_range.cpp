#include "tools/collective/size_range.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "sim/error.hpp"

namespace dcsim::tools::collective {

namespace {

[[noreturn]] void fail(std::string_view text, const std::string& why) {
  throw sim::InputError("--sizes: expected MIN:MAX or SIZE with sizes such as 1K, 256M or 8G "
                        "(binary: 1K = 1024 bytes), " + why + ", got \"" + std::string(text) + "\"");
}

double parse_size(std::string_view whole, std::string_view s) {
  std::size_t digits = 0;
  while (digits < s.size() && ((s[digits] >= '0' && s[digits] <= '9') || s[digits] == '.')) ++digits;
  if (digits == 0) fail(whole, "a size must start with a number");
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + digits, value);
  if (ec != std::errc() || ptr != s.data() + digits) fail(whole, "a size must start with a number");
  std::string_view suffix = s.substr(digits);
  if (!suffix.empty() && (suffix.back() == 'B' || suffix.back() == 'b')) suffix.remove_suffix(1);
  if (!suffix.empty() && suffix.back() == 'i') suffix.remove_suffix(1);
  double scale = 1.0;
  if (suffix.size() == 1) {
    switch (suffix[0]) {
      case 'K': case 'k': scale = 1024.0; break;
      case 'M': case 'm': scale = 1024.0 * 1024.0; break;
      case 'G': case 'g': scale = 1024.0 * 1024.0 * 1024.0; break;
      case 'T': case 't': scale = 1024.0 * 1024.0 * 1024.0 * 1024.0; break;
      default: fail(whole, "unknown suffix '" + std::string(suffix) + "' (K, M, G or T)");
    }
  } else if (!suffix.empty()) {
    fail(whole, "unknown suffix '" + std::string(suffix) + "' (K, M, G or T)");
  }
  const double bytes = value * scale;
  if (!(bytes > 0.0)) fail(whole, "sizes must be positive");
  if (bytes != std::floor(bytes)) fail(whole, "sizes must be whole bytes");
  return bytes;
}

}  // namespace

SizeRange parse_size_range(std::string_view text) {
  if (text.empty()) fail(text, "not an empty string");
  const auto colon = text.find(':');
  SizeRange r;
  if (colon == std::string_view::npos) {
    r.min_bytes = r.max_bytes = parse_size(text, text);
  } else {
    r.min_bytes = parse_size(text, text.substr(0, colon));
    r.max_bytes = parse_size(text, text.substr(colon + 1));
  }
  if (r.max_bytes < r.min_bytes) fail(text, "MAX must not be below MIN");
  return r;
}

}  // namespace dcsim::tools::collective
