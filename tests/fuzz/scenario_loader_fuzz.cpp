// libFuzzer target: the scenario loader on JSON text (parse_json_text + load_scenario_json with
// the built-in registries, as `dcsim validate` does). sim::InputError (and InputErrors) is the
// expected rejection; any other exception escaping is a finding (the CLI would call it an
// internal error, exit 1), as is a crash, a hang or an allocation past -rss_limit_mb.
//
// The source is a file name in tests/data/bad_scenarios/, so relative data files a scenario
// names (traffic CSVs, outdoor temperatures) resolve there. A document whose strings mention a
// device or kernel file system (/dev/zero, /proc/self/fd/0 ...) is skipped: reading those blocks
// or never ends, which says nothing about the loader.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/model_registries.hpp"
#include "sim/error.hpp"
#include "tools/scenario/scenario_loader.hpp"

#ifndef DCSIM_SOURCE_DIR
#define DCSIM_SOURCE_DIR "."
#endif

namespace {

const dcsim::models::ModelRegistries& registries() {
  static const dcsim::models::ModelRegistries r = [] {
    dcsim::models::ModelRegistries out;
    dcsim::models::register_builtin_models(out);
    return out;
  }();
  return r;
}

// The format's spec tree, built once: building it dominated each input's time under ASan.
const dcsim::tools::scenario::FieldSpec& spec() {
  static const dcsim::tools::scenario::FieldSpec s = dcsim::tools::scenario::scenario_spec(registries());
  return s;
}

bool names_special_file(const nlohmann::json& j) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    for (const std::string_view bad : {"dev", "proc", "sys", "fd"}) {
      if (s.find(bad) != std::string::npos) return true;
    }
    return false;
  }
  if (j.is_structured()) {
    for (const auto& [key, value] : j.items()) {
      if (names_special_file(value)) return true;
    }
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source = DCSIM_SOURCE_DIR "/tests/data/bad_scenarios/fuzz.json";
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    nlohmann::json doc = dcsim::tools::scenario::parse_json_text(text, source);
    if (names_special_file(doc)) return 0;
    // The resource guard at 64 MB: a document asking for a large fabric must be refused by the
    // estimate, not built (building one past it is a finding: the guard failed). Not the
    // machine's limit: a 49,000-host fat-tree (339 MB) validates in 1.3 s in Release, mostly its
    // routing tables, but takes over the 10 s timeout under ASan, which says nothing about the
    // loader; sizes are the guard's tests (tests/tools/cli/hardening_cli_test.cpp).
    dcsim::tools::scenario::ResourceLimits limits;
    limits.max_memory_bytes = 64e6;
    (void)dcsim::tools::scenario::load_scenario_json(std::move(doc), source, {}, std::nullopt, registries(),
                                                     limits, spec());
  } catch (const dcsim::sim::InputError&) {
    // The expected rejection (InputErrors derives from it).
  }
  return 0;
}
