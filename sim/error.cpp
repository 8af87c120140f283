#include "sim/error.hpp"

#include <algorithm>
#include <string_view>

namespace dcsim::sim {

namespace {
std::string join_lines(const std::vector<std::string>& messages) {
  std::string out;
  for (const auto& m : messages) {
    if (!out.empty()) out += '\n';
    out += m;
  }
  return out;
}

// What every message starts with up to its first ':' (the file they are about), or "".
std::string common_source(const std::vector<std::string>& messages) {
  const std::string first = messages.front().substr(0, messages.front().find(':'));
  for (const auto& m : messages) {
    if (m.compare(0, first.size(), first) != 0 || m.size() == first.size() || m[first.size()] != ':') return "";
  }
  return first;
}

std::vector<std::string> capped(std::vector<std::string> messages) {
  if (messages.size() > kMaxInputErrors) {
    const std::size_t more = messages.size() - kMaxInputErrors;
    const std::string source = common_source(messages);
    messages.resize(kMaxInputErrors);
    messages.push_back((source.empty() ? "" : source + ": ") + "... and " + std::to_string(more) + " more error" +
                       (more == 1 ? "" : "s") + " not shown (the first " + std::to_string(kMaxInputErrors) +
                       " are above)");
  }
  for (auto& m : messages) m = clip_message(std::move(m));
  return messages;
}

// " [... 98765 bytes left out ...] "
constexpr std::string_view kMarkerStart = " [... ";
constexpr std::string_view kMarkerEnd = " bytes left out ...] ";

bool utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string clip_message(std::string text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  // An earlier clip's marker: take it out, remember its count, cut there again.
  std::size_t left_out = 0;
  std::size_t cut = max_bytes * 3 / 5;  // more of the start (file, pointer) than of the end
  if (const auto at = text.find(kMarkerStart); at != std::string::npos) {
    const auto digits = at + kMarkerStart.size();
    const auto end = text.find(kMarkerEnd, digits);
    if (end != std::string::npos && end > digits && end - digits < 20 &&
        text.find_first_not_of("0123456789", digits) == end) {
      left_out = std::stoull(text.substr(digits, end - digits));
      text.erase(at, end + kMarkerEnd.size() - at);
      cut = at;
    }
  }
  const std::size_t reserve = kMarkerStart.size() + kMarkerEnd.size() + 20;
  const std::size_t budget = max_bytes > reserve ? max_bytes - reserve : 0;
  if (text.size() > budget) {
    const std::size_t excess = text.size() - budget;
    std::size_t begin = std::min(cut, text.size() - excess);
    std::size_t end = begin + excess;
    // Whole UTF-8 characters only: widen the cut past continuation bytes.
    while (begin > 0 && utf8_continuation(text[begin])) --begin;
    while (end < text.size() && utf8_continuation(text[end])) ++end;
    left_out += end - begin;
    text.erase(begin, end - begin);
    cut = begin;
  }
  cut = std::min(cut, text.size());
  text.insert(cut, std::string(kMarkerStart) + std::to_string(left_out) + std::string(kMarkerEnd));
  return text;
}

InputError::InputError(const std::string& message) : std::runtime_error(clip_message(message)) {}
InputError::InputError(const char* message) : std::runtime_error(clip_message(message)) {}

InputErrors::InputErrors(std::vector<std::string> messages) : InputErrors(Capped{}, capped(std::move(messages))) {}

InputErrors::InputErrors(Capped, std::vector<std::string> messages)
    : InputError(Unclipped{}, join_lines(messages)), messages_(std::move(messages)) {}

}  // namespace dcsim::sim
