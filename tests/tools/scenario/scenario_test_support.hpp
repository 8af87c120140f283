#pragma once
// Shared by the scenario tests: registries, paths, files, and the golden-file update switch.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "models/policy/scheduler.hpp"
#include "tools/scenario/scenario_loader.hpp"

namespace dcsim::tools::scenario::testing {

// The builtin registries, topped up with stand-ins for the two names the format defaults to, so
// these tests do not depend on which models are registered yet.
inline models::ModelRegistries make_registries() {
  models::ModelRegistries r;
  models::register_builtin_models(r);
  if (!r.node_presets.contains("hgx-h100")) {
    r.node_presets.add({"hgx-h100", "test stand-in", {}, [] {
                          models::hardware::NodeSpec n;
                          n.preset = "hgx-h100";
                          n.gpus = 8;
                          n.gpu.idle_power_w = 84.0;
                          n.gpu.max_power_w = 700.0;
                          n.other_idle_power_w = 1000.0;
                          n.other_max_power_w = 4600.0;
                          return n;
                        }});
  }
  if (!r.schedulers.contains("fifo")) {
    r.schedulers.add({"fifo", "test stand-in", {}, [](const sim::Params&) {
                        return std::unique_ptr<models::policy::Scheduler>();
                      }});
  }
  return r;
}

inline std::filesystem::path source_dir() { return DCSIM_SOURCE_DIR; }

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// DCSIM_UPDATE_GOLDEN=1 rewrites the committed golden files (schema, README table, expected
// messages of the bad-scenario corpus) from the code instead of comparing; review the diff.
inline bool update_golden() {
  const char* v = std::getenv("DCSIM_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// The golden check of a generated part of a committed file: the text between the `begin` and
// `end` markers must be `generated` (DCSIM_UPDATE_GOLDEN=1 writes it there instead).
inline void check_generated_section(const std::filesystem::path& path, std::string_view begin,
                                    std::string_view end, const std::string& generated) {
  std::string text = read_text(path);
  const auto b = text.find(begin);
  const auto e = text.find(end);
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  const std::size_t body = b + begin.size();
  if (update_golden()) {
    text.replace(body, e - body, generated);
    write_text(path, text);
    return;
  }
  CHECK(text.substr(body, e - body) == generated);
}

// `doc` loaded as the scenario file "t.json" with make_registries().
inline Scenario load_doc(const nlohmann::json& doc) {
  const auto registries = make_registries();
  return load_scenario_json(doc, "t.json", {}, std::nullopt, registries);
}

// A 4-node, one-rack cluster running one batch job, with `facility` as its /facility.
inline nlohmann::json with_facility(const nlohmann::json& facility) {
  nlohmann::json doc = nlohmann::json::parse(R"({"name": "n", "cluster": {"nodes": 4, "nodes_per_rack": 4},
                                                 "workload": {"jobs": [{"name": "a", "work": "1 h"}]}})");
  doc["facility"] = facility;
  return doc;
}

}  // namespace dcsim::tools::scenario::testing
