#include "tools/scenario/binding.hpp"

namespace dcsim::tools::scenario {

std::string field_rest_as_pointer(std::string_view rest) {
  std::string out;
  std::string token;
  bool open = false;
  const auto flush = [&] {
    if (open) out = pointer_append(out, token);
    token.clear();
  };
  for (const char ch : rest) {
    if (ch == '.' || ch == '[' || ch == ']') {
      flush();
      open = ch != ']';
    } else {
      token += ch;
      open = true;
    }
  }
  flush();
  return out;
}

sim::InputError config_error_at(const std::string& source, const std::string& pointer, const sim::ConfigError& error,
                                const nlohmann::json* resolved) {
  std::string got;
  if (resolved != nullptr) {
    const nlohmann::json::json_pointer p(pointer);
    // Not when the message already quotes the value ("36 is not a multiple of ...").
    if (resolved->contains(p) && resolved->at(p).is_primitive() &&
        error.detail().find(resolved->at(p).dump()) == std::string::npos) {
      got = ", got " + resolved->at(p).dump();
    }
  }
  return sim::InputError(source + ":" + pointer + ": " + error.detail() + got);
}

}  // namespace dcsim::tools::scenario
