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

bool names_field(std::string_view field, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (field.substr(0, name.size()) != name) continue;
    const std::string_view rest = field.substr(name.size());
    if (rest.empty() || rest[0] == '.' || rest[0] == '[') return true;
  }
  return false;
}

KeyLocator at_key_for(std::vector<std::string> names) {
  return [names = std::move(names)](std::string_view field, const std::string& at,
                                    const nlohmann::json*) -> std::optional<std::string> {
    if (names_field(field, names)) return at;
    return std::nullopt;
  };
}

KeyLocator at_given_key_for(std::vector<std::string> names) {
  return [names = std::move(names)](std::string_view field, const std::string& at,
                                    const nlohmann::json* value) -> std::optional<std::string> {
    if (value != nullptr && names_field(field, names)) return at;
    return std::nullopt;
  };
}

KeyLocator at_given_params_for(std::string name) {
  return [name = std::move(name)](std::string_view field, const std::string& at,
                                  const nlohmann::json* value) -> std::optional<std::string> {
    if (value == nullptr || !names_field(field, {name})) return std::nullopt;
    const std::string_view rest = field.substr(name.size());
    if (rest.size() > 1 && rest[0] == '.') {
      const std::string param(rest.substr(1, rest.find_first_of(".[", 1) - 1));
      if (value->is_object() && value->contains(param)) return pointer_append(at, param);
    }
    return at;
  };
}

sim::InputError config_error_at(const std::string& source, const std::string& pointer, const sim::ConfigError& error,
                                const nlohmann::json* resolved) {
  std::string got;
  // Not when the message already quotes the value ("36 is not a multiple of ...").
  if (const nlohmann::json* v = resolved != nullptr ? find_at(*resolved, pointer) : nullptr;
      v != nullptr && v->is_primitive() && error.detail().find(v->dump()) == std::string::npos) {
    got = ", got " + v->dump();
  }
  return sim::InputError(source + ":" + pointer + ": " + error.detail() + got);
}

}  // namespace dcsim::tools::scenario
