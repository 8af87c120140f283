#include "tools/scenario/input_reader.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "sim/error.hpp"
#include "tools/scenario/did_you_mean.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario {

using nlohmann::json;

InputReader::InputReader(std::string source, std::string base_dir)
    : source_(std::move(source)), base_dir_(std::move(base_dir)) {}

void InputReader::error(const std::string& pointer, const std::string& message) {
  errors_.push_back(source_ + ":" + pointer + ": " + message);
}

void InputReader::flush() {
  if (!errors_.empty()) throw sim::InputErrors(std::move(errors_));
}

void InputReader::only_keys(const json& object, const std::string& pointer, const std::set<std::string>& valid) {
  for (const auto& [key, value] : object.items()) {
    if (valid.count(key) == 0) {
      std::string list;
      for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
      error(pointer + "/" + key,
            "unknown key;" + did_you_mean(key, {valid.begin(), valid.end()}) + " valid keys here: " + list);
    }
  }
}

std::optional<double> InputReader::number(const json& object, const std::string& key, const std::string& pointer,
                                          bool required) {
  if (!object.contains(key)) {
    if (required) error(pointer + "/" + key, "missing required key; expected a number");
    return std::nullopt;
  }
  const json& v = object.at(key);
  if (!v.is_number()) {
    error(pointer + "/" + key, "expected a number, got " + v.dump());
    return std::nullopt;
  }
  return v.get<double>();
}

std::string InputReader::string(const json& object, const std::string& key, const std::string& pointer,
                                bool required) {
  if (!object.contains(key)) {
    if (required) error(pointer + "/" + key, "missing required key; expected a string");
    return "";
  }
  const json& v = object.at(key);
  if (!v.is_string() || v.get<std::string>().empty()) {
    error(pointer + "/" + key, "expected a non-empty string, got " + v.dump());
    return "";
  }
  return v.get<std::string>();
}

std::optional<std::uint64_t> InputReader::count(const json& object, const std::string& key, const std::string& pointer,
                                                std::uint64_t minimum) {
  if (!object.contains(key)) return std::nullopt;
  const json& v = object.at(key);
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) ||
      v.get<std::uint64_t>() < minimum) {
    error(pointer + "/" + key, fmt::format("expected an integer >= {}, got {}", minimum, v.dump()));
    return std::nullopt;
  }
  return v.get<std::uint64_t>();
}

std::string InputReader::resolve(const std::string& path) const {
  const std::filesystem::path p(path);
  return p.is_relative() ? (std::filesystem::path(base_dir_) / p).string() : path;
}

json read_json_file(const std::string& path, const std::string& what) {
  return parse_json_text(read_json_file_text(path, what), path);
}

}  // namespace dcsim::tools::scenario
