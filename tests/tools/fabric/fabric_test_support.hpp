#pragma once
// Shared by the fabric integration tests: registries, loading from a JSON literal, temp folders.

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "models/model_registries.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::fabric_testing {

inline const models::ModelRegistries& registries() {
  static const models::ModelRegistries r = [] {
    models::ModelRegistries out;
    models::register_builtin_models(out);
    return out;
  }();
  return r;
}

inline scenario::Scenario load(const std::string& json_text, const std::string& source = "s.json",
                               const std::vector<std::string>& overrides = {}) {
  return scenario::load_scenario_json(scenario::parse_json_text(json_text, source), source, overrides,
                                      std::nullopt, registries());
}

// The messages a load reports (InputErrors' lines, or one InputError's text), "" when it loads.
inline std::string load_errors(const std::string& json_text, const std::string& source = "s.json") {
  try {
    load(json_text, source);
  } catch (const sim::InputErrors& e) {
    std::string out;
    for (const auto& m : e.messages()) out += m + "\n";
    return out;
  } catch (const sim::InputError& e) {
    return std::string(e.what()) + "\n";
  }
  return "";
}

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("dcsim-fabric-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& file, const std::string& text) const {
    std::ofstream(path / file, std::ios::binary) << text;
    return (path / file).string();
  }
};

}  // namespace dcsim::tools::fabric_testing
